import type { Messages } from "../../types.js";

export const invitations: Messages["invitations"] = {};
