/**
 * LinkedIn, through "Sign In with LinkedIn using OpenID Connect" (the product must be
 * added to the app). The userinfo answer carries `email_verified`.
 */
import type { ProviderDefinition } from "../provider.js";
import { userInfoProfile } from "./read.js";

export const linkedin: ProviderDefinition = {
  id: "linkedin",
  name: "LinkedIn",
  authorizationEndpoint: "https://www.linkedin.com/oauth/v2/authorization",
  tokenEndpoint: "https://www.linkedin.com/oauth/v2/accessToken",
  userInfoEndpoint: "https://api.linkedin.com/v2/userinfo",
  scopes: ["openid", "profile", "email"],
  // LinkedIn offers PKCE to approved native applications only, not to web apps.
  pkce: false,
  tokenEndpointAuth: "client_secret_post",
  idToken: {
    issuer: "https://www.linkedin.com/oauth",
    jwksUri: "https://www.linkedin.com/oauth/openid/jwks",
  },
  fetchProfile: (request) => userInfoProfile(request, linkedin),
};
