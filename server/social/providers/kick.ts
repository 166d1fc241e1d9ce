/**
 * Kick (OAuth 2.1: PKCE is mandatory). The users endpoint answers the token's own user
 * in `data`; Kick does not say whether the email was verified, so it is treated as not.
 */
import type { ProviderDefinition } from "../provider.js";
import { asRecord, idOf, imageUrl, nameOf, text, userInfoUrl } from "./read.js";

export const kick: ProviderDefinition = {
  id: "kick",
  name: "Kick",
  authorizationEndpoint: "https://id.kick.com/oauth/authorize",
  tokenEndpoint: "https://id.kick.com/oauth/token",
  userInfoEndpoint: "https://api.kick.com/public/v1/users",
  scopes: ["user:read"],
  pkce: true,
  tokenEndpointAuth: "client_secret_post",
  async fetchProfile(request) {
    const answer = asRecord(
      await request.fetchJson(userInfoUrl(request, kick), {
        accessToken: request.tokens.accessToken,
      }),
    );
    const user = Array.isArray(answer?.data) ? asRecord(answer.data[0]) : null;
    const id = idOf(user?.user_id);
    if (user === null || id === null) return null;
    const email = text(user.email);
    return {
      profile: {
        id,
        email,
        emailVerified: false,
        name: nameOf([user.name], email, id),
        image: imageUrl(user.profile_picture),
      },
      raw: user,
    };
  },
};
