/**
 * Roblox (OpenID Connect). Roblox shares no email address with applications; its
 * userinfo gives the id (`sub`), display name, username and avatar picture.
 */
import type { ProviderDefinition } from "../provider.js";
import { userInfoProfile } from "./read.js";

export const roblox: ProviderDefinition = {
  id: "roblox",
  name: "Roblox",
  authorizationEndpoint: "https://apis.roblox.com/oauth/v1/authorize",
  tokenEndpoint: "https://apis.roblox.com/oauth/v1/token",
  userInfoEndpoint: "https://apis.roblox.com/oauth/v1/userinfo",
  scopes: ["openid", "profile"],
  pkce: true,
  tokenEndpointAuth: "client_secret_basic",
  idToken: {
    issuer: "https://apis.roblox.com/oauth/",
    jwksUri: "https://apis.roblox.com/oauth/v1/certs",
  },
  fetchProfile: (request) => userInfoProfile(request, roblox),
};
