/**
 * GitLab.com (OpenID Connect). `sub` is the numeric user id as a string, and the userinfo
 * answer says whether the primary address is confirmed (`email_verified`). A self-managed
 * GitLab is configured with its own `issuer` (discovery) or endpoint overrides.
 */
import type { ProviderDefinition } from "../provider.js";
import { userInfoProfile } from "./read.js";

export const gitlab: ProviderDefinition = {
  id: "gitlab",
  name: "GitLab",
  authorizationEndpoint: "https://gitlab.com/oauth/authorize",
  tokenEndpoint: "https://gitlab.com/oauth/token",
  userInfoEndpoint: "https://gitlab.com/oauth/userinfo",
  scopes: ["openid", "profile", "email"],
  pkce: true,
  tokenEndpointAuth: "client_secret_post",
  idToken: { issuer: "https://gitlab.com", jwksUri: "https://gitlab.com/oauth/discovery/keys" },
  fetchProfile: (request) => userInfoProfile(request, gitlab),
};
