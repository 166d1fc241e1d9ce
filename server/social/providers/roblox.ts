/**
 * Roblox (OpenID Connect). Roblox shares no email address with applications; its
 * userinfo gives the id (`sub`), display name, username and avatar picture.
 */
import type { ProviderDefinition } from "../provider.js";
import { asRecord, profileFromClaims, userInfoUrl } from "./read.js";

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
  async fetchProfile(request) {
    const info = asRecord(
      await request.fetchJson(userInfoUrl(request, roblox), {
        accessToken: request.tokens.accessToken,
      }),
    );
    const profile = info === null ? null : profileFromClaims(info);
    return profile === null || info === null ? null : { profile, raw: info };
  },
};
