import type { Messages } from "../../types.js";

export const teams: Messages["teams"] = {};
