/**
 * X (formerly Twitter), OAuth 2.0 with PKCE, which X requires. The v2 `users/me` endpoint
 * returns no email address with these scopes, so the profile has none.
 */
import type { ProviderDefinition } from "../provider.js";
import { imageUrl, nameOf, readUserProfile } from "./read.js";

export const twitter: ProviderDefinition = {
  id: "twitter",
  name: "X",
  authorizationEndpoint: "https://x.com/i/oauth2/authorize",
  tokenEndpoint: "https://api.x.com/2/oauth2/token",
  userInfoEndpoint: "https://api.x.com/2/users/me",
  // users.read is only granted together with tweet.read.
  scopes: ["users.read", "tweet.read"],
  pkce: true,
  // X documents HTTP Basic authentication for confidential clients.
  tokenEndpointAuth: "client_secret_basic",
  fetchProfile: (request) =>
    readUserProfile(request, twitter, {
      query: { "user.fields": "profile_image_url" },
      userAt: ["data"],
      profile: (user, id) => ({
        email: null,
        emailVerified: false,
        name: nameOf([user.name, user.username], null, id),
        image: imageUrl(user.profile_image_url),
      }),
    }),
};
