/**
 * Spotify. The address from `/me` is, in Spotify's words, as entered by the user and
 * unverified, so it never counts as verified. Images come in several sizes; the widest
 * is kept.
 */
import type { ProviderDefinition } from "../provider.js";
import { asRecord, idOf, imageUrl, nameOf, text, userInfoUrl } from "./read.js";

function widestImage(images: unknown): string | null {
  if (!Array.isArray(images)) return null;
  let best: { url: string; width: number } | null = null;
  for (const entry of images) {
    const image = asRecord(entry);
    const url = imageUrl(image?.url);
    if (url === null) continue;
    const width = typeof image?.width === "number" ? image.width : 0;
    if (best === null || width > best.width) best = { url, width };
  }
  return best?.url ?? null;
}

export const spotify: ProviderDefinition = {
  id: "spotify",
  name: "Spotify",
  authorizationEndpoint: "https://accounts.spotify.com/authorize",
  tokenEndpoint: "https://accounts.spotify.com/api/token",
  userInfoEndpoint: "https://api.spotify.com/v1/me",
  scopes: ["user-read-email"],
  pkce: true,
  tokenEndpointAuth: "client_secret_basic",
  async fetchProfile(request) {
    const user = asRecord(
      await request.fetchJson(userInfoUrl(request, spotify), {
        accessToken: request.tokens.accessToken,
      }),
    );
    const id = idOf(user?.id);
    if (user === null || id === null) return null;
    const email = text(user.email);
    return {
      profile: {
        id,
        email,
        emailVerified: false,
        name: nameOf([user.display_name], email, id),
        image: widestImage(user.images),
      },
      raw: user,
    };
  },
};
