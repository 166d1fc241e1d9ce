import type { Messages } from "../../types.js";

export const account: Messages["account"] = {};
