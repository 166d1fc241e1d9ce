/**
 * Kick (OAuth 2.1: PKCE is mandatory). The users endpoint answers the token's own user
 * in `data`; Kick does not say whether the email was verified, so it is treated as not.
 */
import type { ProviderDefinition } from "../provider.js";
import { emailFieldProfile, imageUrl, readUserProfile } from "./read.js";

export const kick: ProviderDefinition = {
  id: "kick",
  name: "Kick",
  authorizationEndpoint: "https://id.kick.com/oauth/authorize",
  tokenEndpoint: "https://id.kick.com/oauth/token",
  userInfoEndpoint: "https://api.kick.com/public/v1/users",
  scopes: ["user:read"],
  pkce: true,
  tokenEndpointAuth: "client_secret_post",
  fetchProfile: (request) =>
    readUserProfile(request, kick, {
      userAt: ["data", 0],
      idField: "user_id",
      profile: (user, id) =>
        emailFieldProfile(user, id, {
          names: [user.name],
          image: imageUrl(user.profile_picture),
          verified: false,
        }),
    }),
};
