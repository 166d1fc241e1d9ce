import type { Messages } from "../../types.js";
import { account } from "./account.js";
import { auth } from "./auth.js";
import { common } from "./common.js";
import { errors } from "./errors.js";
import { invitations } from "./invitations.js";
import { organization } from "./organization.js";
import { teams } from "./teams.js";

export const messages: Messages = {
  common,
  auth,
  account,
  organization,
  teams,
  invitations,
  errors,
};
