/**
 * Google (OpenID Connect). The id token Google returns with the `openid` scope carries the
 * profile, so it is read first; the userinfo endpoint answers the same claims when no id
 * token came back. `email_verified` is Google's own statement about the address.
 */
import type { ProviderDefinition } from "../provider.js";
import { idTokenOrUserInfoProfile } from "./read.js";

export const google: ProviderDefinition = {
  id: "google",
  name: "Google",
  authorizationEndpoint: "https://accounts.google.com/o/oauth2/v2/auth",
  tokenEndpoint: "https://oauth2.googleapis.com/token",
  userInfoEndpoint: "https://openidconnect.googleapis.com/v1/userinfo",
  scopes: ["openid", "email", "profile"],
  pkce: true,
  tokenEndpointAuth: "client_secret_post",
  // Google documents both spellings of its issuer, with and without the scheme.
  idToken: {
    issuer: ["https://accounts.google.com", "accounts.google.com"],
    jwksUri: "https://www.googleapis.com/oauth2/v3/certs",
  },
  fetchProfile: (request) => idTokenOrUserInfoProfile(request, google),
};
