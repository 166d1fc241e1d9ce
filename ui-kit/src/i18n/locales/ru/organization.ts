import type { Messages } from "../../types.js";

export const organization: Messages["organization"] = {};
