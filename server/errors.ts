/**
 * The one error catalogue: every error authd answers with, under a stable
 * code, with its HTTP status and message. Domains throw an AuthError naming a code; the
 * HTTP error handler answers `{code, message}` and the CLI prints the same code.
 *
 * Messages are wording clients already match on: the account messages and the few
 * others this API has always fixed ("slug is taken"), and elsewhere the wording of the
 * established implementation of this API (Better Auth).
 */

interface CatalogueEntry {
  readonly status: number;
  readonly message: string;
}

function entry(status: number, message: string): CatalogueEntry {
  return { status, message };
}

export const ERROR_CATALOGUE = {
  // Transport and cross-cutting.
  VALIDATION_ERROR: entry(400, "Invalid body parameters"),
  BAD_REQUEST: entry(400, "Invalid JSON in request body"),
  UNSUPPORTED_MEDIA_TYPE: entry(415, "Unsupported Content-Type"),
  PAYLOAD_TOO_LARGE: entry(413, "Request body is too large"),
  NOT_FOUND: entry(404, "Not found"),
  METHOD_NOT_ALLOWED: entry(405, "Method not allowed"),
  TOO_MANY_REQUESTS: entry(429, "Too many requests. Please try again later."),
  INTERNAL_SERVER_ERROR: entry(500, "Internal server error"),
  SERVICE_UNAVAILABLE: entry(503, "Service unavailable"),
  MAIL_DELIVERY_FAILED: entry(502, "The email could not be sent. Please try again later."),
  UNAUTHORIZED: entry(401, "Unauthorized"),
  FORBIDDEN: entry(403, "Forbidden"),
  BODY_MUST_BE_AN_OBJECT: entry(400, "Body must be an object"),

  // Origin and redirect safety.
  INVALID_ORIGIN: entry(403, "Invalid origin"),
  MISSING_OR_NULL_ORIGIN: entry(403, "Missing or null Origin"),
  INVALID_CALLBACK_URL: entry(403, "Invalid callbackURL"),
  INVALID_REDIRECT_URL: entry(403, "Invalid redirectURL"),
  INVALID_ERROR_CALLBACK_URL: entry(403, "Invalid errorCallbackURL"),
  INVALID_NEW_USER_CALLBACK_URL: entry(403, "Invalid newUserCallbackURL"),
  CALLBACK_URL_REQUIRED: entry(400, "callbackURL is required"),
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: entry(
    403,
    "Cross-site navigation login blocked. This request appears to be a CSRF attack.",
  ),

  // Account messages.
  FAILED_TO_CREATE_SESSION: entry(400, "Failed to create session"),
  FAILED_TO_GET_SESSION: entry(500, "Failed to get session"),
  INVALID_PASSWORD: entry(400, "Invalid password"),
  INVALID_EMAIL: entry(400, "Invalid email"),
  INVALID_EMAIL_OR_PASSWORD: entry(401, "Invalid email or password"),
  PROVIDER_NOT_FOUND: entry(404, "Provider not found"),
  PROVIDER_UNAVAILABLE: entry(502, "The provider could not be reached. Please try again later."),
  ACCOUNT_LINKING_DISABLED: entry(400, "Account linking is disabled"),
  ACCOUNT_NOT_LINKED: entry(401, "Account not linked"),
  SIGNUP_DISABLED: entry(400, "Sign up is disabled for this provider"),
  INVALID_TOKEN: entry(400, "invalid token"),
  TOKEN_EXPIRED: entry(400, "Token expired"),
  ID_TOKEN_NOT_SUPPORTED: entry(404, "id_token not supported"),
  FAILED_TO_GET_USER_INFO: entry(401, "Failed to get user info"),
  USER_EMAIL_NOT_FOUND: entry(401, "User email not found"),
  EMAIL_NOT_VERIFIED: entry(403, "Email not verified"),
  PASSWORD_TOO_SHORT: entry(400, "Password too short"),
  PASSWORD_TOO_LONG: entry(400, "Password too long"),
  USER_ALREADY_EXISTS: entry(422, "User already exists"),
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: entry(422, "User already exists. Use another email."),
  CREDENTIAL_ACCOUNT_NOT_FOUND: entry(400, "Credential account not found"),
  SESSION_EXPIRED: entry(400, "Session expired. Re-authenticate to perform this action."),
  FAILED_TO_UNLINK_LAST_ACCOUNT: entry(400, "You can't unlink your last account"),
  ACCOUNT_NOT_FOUND: entry(400, "Account not found"),
  SESSION_NOT_FRESH: entry(403, "Session is not fresh"),
  VERIFICATION_EMAIL_NOT_ENABLED: entry(400, "Verification email isn't enabled"),
  EMAIL_PASSWORD_DISABLED: entry(400, "Email and password is not enabled"),
  EMAIL_PASSWORD_SIGN_UP_DISABLED: entry(400, "Email and password sign up is not enabled"),
  RESET_PASSWORD_DISABLED: entry(400, "Reset password isn't enabled"),
  CHANGE_EMAIL_DISABLED: entry(400, "Change email is disabled"),
  PASSWORD_ALREADY_SET: entry(400, "user already has a password"),
  USER_ALREADY_HAS_PASSWORD: entry(
    400,
    "User already has a password. Provide that to delete the account.",
  ),
  USER_NOT_FOUND: entry(404, "User not found"),
  FAILED_TO_CREATE_USER: entry(422, "Failed to create user"),
  FAILED_TO_UPDATE_USER: entry(400, "Failed to update user"),
  INVALID_USER: entry(400, "Invalid user"),
  EMAIL_IS_THE_SAME: entry(400, "Email is the same"),
  EMAIL_CAN_NOT_BE_UPDATED: entry(400, "Email can not be updated"),
  COULD_NOT_UPDATE_EMAIL: entry(400, "Couldn't update your email"),
  EMAIL_MISMATCH: entry(400, "Email mismatch"),
  EMAIL_ALREADY_VERIFIED: entry(400, "Email is already verified"),
  NO_FIELDS_TO_UPDATE: entry(400, "No fields to update"),
  FIELD_NOT_ALLOWED: entry(400, "Field not allowed to be set"),
  SOCIAL_ACCOUNT_ALREADY_LINKED: entry(409, "Social account already linked"),
  LINKED_ACCOUNT_ALREADY_EXISTS: entry(400, "Linked account already exists"),
  DELETE_USER_DISABLED: entry(404, "Not found"),
  SESSION_NOT_FOUND: entry(400, "Session not found"),

  // Provider tokens of linked accounts (get-access-token, refresh-token, account-info).
  PROVIDER_NOT_SUPPORTED: entry(400, "Provider not supported"),
  PROVIDER_NOT_CONFIGURED: entry(400, "Provider not configured"),
  FAILED_TO_GET_ACCESS_TOKEN: entry(400, "Failed to get a valid access token"),
  TOKEN_REFRESH_NOT_SUPPORTED: entry(400, "Token refresh not supported"),
  REFRESH_TOKEN_NOT_FOUND: entry(400, "Refresh token not found"),
  FAILED_TO_REFRESH_ACCESS_TOKEN: entry(400, "Failed to refresh access token"),
  ACCESS_TOKEN_NOT_FOUND: entry(400, "Access token not found"),

  // Organization messages (Better Auth's wording).
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION: entry(
    403,
    "You are not allowed to create a new organization",
  ),
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS: entry(
    403,
    "You have reached the maximum number of organizations",
  ),
  ORGANIZATION_ALREADY_EXISTS: entry(400, "Organization already exists"),
  SLUG_IS_TAKEN: entry(400, "slug is taken"),
  ORGANIZATION_SLUG_ALREADY_TAKEN: entry(400, "Organization slug already taken"),
  ORGANIZATION_NOT_FOUND: entry(400, "Organization not found"),
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: entry(400, "User is not a member of the organization"),
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION: entry(
    403,
    "You are not allowed to update this organization",
  ),
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION: entry(
    403,
    "You are not allowed to delete this organization",
  ),
  ORGANIZATION_DELETION_DISABLED: entry(403, "Organization deletion is disabled"),
  NO_ACTIVE_ORGANIZATION: entry(400, "No active organization"),
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: entry(
    400,
    "User is already a member of this organization",
  ),
  MEMBER_NOT_FOUND: entry(400, "Member not found"),
  ROLE_NOT_FOUND: entry(400, "Role not found"),
  TEAM_NOT_FOUND: entry(400, "Team not found"),
  TEAM_ALREADY_EXISTS: entry(400, "Team already exists"),
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM: entry(403, "You are not allowed to create a new team"),
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: entry(
    400,
    "You cannot leave the organization as the only owner",
  ),
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER: entry(
    400,
    "You cannot leave the organization without an owner",
  ),
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: entry(
    403,
    "You are not allowed to delete this member",
  ),
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: entry(
    403,
    "You are not allowed to update this member",
  ),
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION: entry(
    403,
    "You are not allowed to invite users to this organization",
  ),
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE: entry(
    403,
    "You are not allowed to invite a user with this role",
  ),
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: entry(
    400,
    "User is already invited to this organization",
  ),
  INVITATION_NOT_FOUND: entry(400, "Invitation not found"),
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: entry(
    403,
    "You are not the recipient of the invitation",
  ),
  EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION: entry(
    403,
    "Email verification required to view or list invitations for the session email",
  ),
  YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION: entry(
    403,
    "You are not allowed to cancel this invitation",
  ),
  YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS: entry(
    403,
    "You are not allowed to list invitations for this organization",
  ),
  INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION: entry(
    400,
    "Inviter is no longer a member of the organization",
  ),
  FAILED_TO_RETRIEVE_INVITATION: entry(400, "Failed to retrieve invitation"),
  INVITATION_LIMIT_REACHED: entry(403, "Invitation limit reached"),
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS: entry(
    400,
    "You have reached the maximum number of teams",
  ),
  UNABLE_TO_REMOVE_LAST_TEAM: entry(400, "Unable to remove last team"),
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: entry(403, "Organization membership limit reached"),
  TEAM_MEMBER_LIMIT_REACHED: entry(403, "Team member limit reached"),
  YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION: entry(
    403,
    "You are not allowed to create teams in this organization",
  ),
  YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION: entry(
    403,
    "You are not allowed to delete teams in this organization",
  ),
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM: entry(403, "You are not allowed to update this team"),
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM: entry(403, "You are not allowed to delete this team"),
  USER_IS_NOT_A_MEMBER_OF_THE_TEAM: entry(400, "User is not a member of the team"),
  YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM: entry(400, "You do not have an active team"),
  YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION: entry(
    403,
    "You are not allowed to access this organization",
  ),
  YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION: entry(
    403,
    "You are not a member of this organization",
  ),
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER: entry(
    403,
    "You are not allowed to create a new member",
  ),
  YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER: entry(
    403,
    "You are not allowed to remove a team member",
  ),
  YOU_ARE_NOT_ALLOWED_TO_ACCESS_RESOURCE: entry(403, "You are not allowed to access resource"),
  ORGANIZATION_HOOK_REJECTED: entry(400, "The request was refused by an organization hook"),

  // Platform admin (Better Auth's wording).
  YOU_CANNOT_BAN_YOURSELF: entry(400, "You cannot ban yourself"),
  YOU_CANNOT_REMOVE_YOURSELF: entry(400, "You cannot remove yourself"),
  YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE: entry(403, "You are not allowed to change users role"),
  YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS: entry(403, "You are not allowed to create users"),
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS: entry(403, "You are not allowed to list users"),
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS: entry(
    403,
    "You are not allowed to list users sessions",
  ),
  YOU_ARE_NOT_ALLOWED_TO_BAN_USERS: entry(403, "You are not allowed to ban users"),
  YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS: entry(403, "You are not allowed to impersonate users"),
  YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS: entry(
    403,
    "You are not allowed to revoke users sessions",
  ),
  YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS: entry(403, "You are not allowed to delete users"),
  YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD: entry(
    403,
    "You are not allowed to set users password",
  ),
  YOU_ARE_NOT_ALLOWED_TO_GET_USER: entry(403, "You are not allowed to get user"),
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS: entry(403, "You are not allowed to update users"),
  YOU_CANNOT_IMPERSONATE_ADMINS: entry(403, "You cannot impersonate admins"),
  YOU_ARE_NOT_IMPERSONATING_ANYONE: entry(400, "You are not impersonating anyone"),
  BANNED_USER: entry(
    403,
    "You have been banned from this application. Please contact support if you believe this is an error.",
  ),
  NO_DATA_TO_UPDATE: entry(400, "No data to update"),
  INVALID_ROLE_TYPE: entry(400, "Invalid role type"),
  YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE: entry(
    400,
    "You are not allowed to set a non-existent role value",
  ),
  USER_ID_CANNOT_BE_UPDATED: entry(400, "User id cannot be updated"),
  PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER: entry(
    400,
    "Password cannot be updated through update-user. Use the set-user-password endpoint instead",
  ),
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Error redirect codes: values of the `error` query parameter on redirects. */
export const REDIRECT_ERROR_CODES = [
  "please_restart_the_process",
  "invalid_callback_request",
  "state_not_found",
  "no_code",
  "oauth_provider_not_found",
  "invalid_code",
  "unable_to_get_user_info",
  "email_not_found",
  "no_callback_url",
  "unable_to_link_account",
  "account_already_linked_to_different_user",
  "internal_server_error",
  "token_expired",
  "invalid_token",
  "user_not_found",
  "unauthorized",
  "INVALID_TOKEN",
  "signup_disabled",
  "email_does_not_match",
  "BANNED_USER",
] as const;

export type RedirectErrorCode = (typeof REDIRECT_ERROR_CODES)[number];

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, value);
}

export interface AuthErrorOptions {
  /** A more specific message than the catalogue's (e.g. naming the resource). */
  message?: string;
  /** Extra machine-readable detail, e.g. the offending fields of a validation error. */
  details?: unknown;
  /**
   * The established implementation answers a few codes with a different status on one
   * endpoint; such call sites pass it here, everything else uses the
   * catalogue's status.
   */
  status?: number;
}

/** The one error type a domain throws; the HTTP layer and the CLI both render it. */
export class AuthError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;

  constructor(code: ErrorCode, options: AuthErrorOptions = {}) {
    const known = ERROR_CATALOGUE[code];
    super(options.message ?? known.message);
    this.name = "AuthError";
    this.code = code;
    this.status = options.status ?? known.status;
    this.details = options.details;
  }

  toBody(): { code: ErrorCode; message: string; details?: unknown } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/**
 * What a foreign key's refusal answers: the row a write names (its user, organization or
 * team) was deleted by a request that ran at the same time, e.g. an organization deleted
 * while a member makes it their active one, or a user deleted while they create an
 * organization. The answer is the one the request gets had the deletion come first.
 * Keyed by the end of PostgreSQL's constraint names, `<table>_<column>_fkey`.
 */
const VANISHED_ROWS: ReadonlyArray<readonly [suffix: string, code: ErrorCode]> = [
  ["_user_id_fkey", "USER_NOT_FOUND"],
  ["_inviter_id_fkey", "USER_NOT_FOUND"],
  ["_impersonated_by_fkey", "USER_NOT_FOUND"],
  ["_organization_id_fkey", "ORGANIZATION_NOT_FOUND"],
  ["_team_id_fkey", "TEAM_NOT_FOUND"],
];

/** The catalogue's answer for a write a foreign key refused, or null for any other error. */
export function vanishedRowError(error: unknown): AuthError | null {
  const { code, constraint_name: constraint } = (error ?? {}) as {
    code?: unknown;
    constraint_name?: unknown;
  };
  if (code !== "23503" || typeof constraint !== "string") return null;
  const found = VANISHED_ROWS.find(([suffix]) => constraint.endsWith(suffix));
  return found ? new AuthError(found[1]) : null;
}
