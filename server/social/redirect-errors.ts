/**
 * The `error` a social sign-in or link puts in the address it sends the browser back
 * to when it signs nobody in. Apps (and the React kit) show a sentence per code; a
 * provider's own OAuth error (e.g. `access_denied`) is passed through as it came.
 */
export const SOCIAL_REDIRECT_ERRORS = [
  "oauth_provider_not_found",
  "state_not_found",
  "please_restart_the_process",
  "no_code",
  "internal_server_error",
  "invalid_callback_request",
  "invalid_code",
  "unable_to_get_user_info",
  "email_not_found",
  "unable_to_link_account",
  "signup_disabled",
  "account_already_linked_to_different_user",
  "email_does_not_match",
  "BANNED_USER",
] as const;

export type SocialRedirectError = (typeof SOCIAL_REDIRECT_ERRORS)[number];
