/**
 * Spotify. The address from `/me` is, in Spotify's words, as entered by the user and
 * unverified, so it never counts as verified. Images come in several sizes; the widest
 * is kept.
 */
import type { ProviderDefinition } from "../provider.js";
import { asRecord, emailFieldProfile, imageUrl, readUserProfile } from "./read.js";

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
  fetchProfile: (request) =>
    readUserProfile(request, spotify, {
      profile: (user, id) =>
        emailFieldProfile(user, id, {
          names: [user.display_name],
          image: widestImage(user.images),
          verified: false,
        }),
    }),
};
