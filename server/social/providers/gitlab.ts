/**
 * GitLab.com (OpenID Connect). `sub` is the numeric user id as a string, and the userinfo
 * answer says whether the primary address is confirmed (`email_verified`). A self-managed
 * GitLab is configured with its own `issuer` (discovery) or endpoint overrides.
 */
import { oauthAtOrigin } from "./oauth-at-origin.js";

export const gitlab = oauthAtOrigin({
  id: "gitlab",
  name: "GitLab",
  origin: "https://gitlab.com",
  tokenEndpointAuth: "client_secret_post",
  jwksPath: "/oauth/discovery/keys",
});
