/**
 * Twitch. The Helix users endpoint wants the application's Client-Id header beside the
 * token, and returns the email only with `user:read:email`; Twitch documents that address
 * as the user's verified one. With `openid` Twitch also issues id tokens, verifiable
 * against its key set.
 */
import type { ProviderDefinition } from "../provider.js";
import { emailFieldProfile, imageUrl, readUserProfile, requireClientId } from "./read.js";

export const twitch: ProviderDefinition = {
  id: "twitch",
  name: "Twitch",
  authorizationEndpoint: "https://id.twitch.tv/oauth2/authorize",
  tokenEndpoint: "https://id.twitch.tv/oauth2/token",
  userInfoEndpoint: "https://api.twitch.tv/helix/users",
  scopes: ["openid", "user:read:email"],
  // Twitch documents no code_challenge parameter.
  pkce: false,
  tokenEndpointAuth: "client_secret_post",
  idToken: { issuer: "https://id.twitch.tv/oauth2", jwksUri: "https://id.twitch.tv/oauth2/keys" },
  fetchProfile: (request) =>
    readUserProfile(request, twitch, {
      init: () => ({
        accessToken: request.tokens.accessToken,
        headers: { "Client-Id": requireClientId(request, "twitch") },
      }),
      // Without ids in the query, Helix answers the token's own user, alone in `data`.
      userAt: ["data", 0],
      profile: (user, id) =>
        emailFieldProfile(user, id, {
          names: [user.display_name, user.login],
          image: imageUrl(user.profile_image_url),
          verified: true,
        }),
    }),
};
