/**
 * Reddit. Its API rules ask every client for a descriptive User-Agent, at the token
 * endpoint too, and throttle generic ones. Reddit shares no email address (only whether
 * the account has a verified one), so the profile has none. Image URLs in its JSON
 * carry HTML-escaped ampersands.
 */
import type { ProviderDefinition } from "../provider.js";
import { imageUrl, nameOf, readUserProfile, text } from "./read.js";

const USER_AGENT = "server:authd:v1 (social sign-in)";

function unescapeAmpersands(value: unknown): string | null {
  const url = text(value);
  return url === null ? null : url.replaceAll("&amp;", "&");
}

export const reddit: ProviderDefinition = {
  id: "reddit",
  name: "Reddit",
  authorizationEndpoint: "https://www.reddit.com/api/v1/authorize",
  tokenEndpoint: "https://www.reddit.com/api/v1/access_token",
  userInfoEndpoint: "https://oauth.reddit.com/api/v1/me",
  scopes: ["identity"],
  // Reddit documents no code_challenge parameter.
  pkce: false,
  tokenEndpointAuth: "client_secret_basic",
  // Reddit's documented parameter: a temporary grant, no refresh token.
  authorizationParams: { duration: "temporary" },
  tokenRequestHeaders: { "User-Agent": USER_AGENT },
  fetchProfile: (request) =>
    readUserProfile(request, reddit, {
      init: () => ({
        accessToken: request.tokens.accessToken,
        headers: { "User-Agent": USER_AGENT },
      }),
      profile: (user, id) => ({
        email: null,
        emailVerified: false,
        name: nameOf([user.name], null, id),
        image:
          imageUrl(unescapeAmpersands(user.snoovatar_img)) ??
          imageUrl(unescapeAmpersands(user.icon_img)),
      }),
    }),
};
