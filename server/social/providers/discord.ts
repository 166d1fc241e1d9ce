/**
 * Discord. `verified` on the user says whether Discord verified the account's email.
 * Avatars live on Discord's CDN under the user id and the avatar hash ("a_" hashes are
 * animated); a user without one gets one of Discord's default avatars.
 */
import type { ProviderDefinition } from "../provider.js";
import { emailFieldProfile, readUserProfile, text } from "./read.js";

const CDN = "https://cdn.discordapp.com";

/**
 * The default avatar's index: from the id for accounts on unique usernames (discriminator
 * "0"), from the legacy four-digit discriminator otherwise.
 */
function defaultAvatarIndex(id: string, discriminator: string | null): number {
  if (discriminator !== null && discriminator !== "0" && /^\d+$/.test(discriminator)) {
    return Number(discriminator) % 5;
  }
  if (!/^\d+$/.test(id)) return 0;
  return Number((BigInt(id) >> 22n) % 6n);
}

function avatarUrl(id: string, hash: string | null, discriminator: string | null): string {
  if (hash === null) {
    return `${CDN}/embed/avatars/${defaultAvatarIndex(id, discriminator)}.png`;
  }
  const format = hash.startsWith("a_") ? "gif" : "png";
  return `${CDN}/avatars/${encodeURIComponent(id)}/${encodeURIComponent(hash)}.${format}`;
}

export const discord: ProviderDefinition = {
  id: "discord",
  name: "Discord",
  authorizationEndpoint: "https://discord.com/oauth2/authorize",
  tokenEndpoint: "https://discord.com/api/oauth2/token",
  userInfoEndpoint: "https://discord.com/api/users/@me",
  scopes: ["identify", "email"],
  pkce: true,
  tokenEndpointAuth: "client_secret_basic",
  fetchProfile: (request) =>
    readUserProfile(request, discord, {
      profile: (user, id) =>
        emailFieldProfile(user, id, {
          names: [user.global_name, user.username],
          image: avatarUrl(id, text(user.avatar), text(user.discriminator)),
          verified: user.verified === true,
        }),
    }),
};
