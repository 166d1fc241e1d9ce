/**
 * The catalogue of built-in social providers, keyed by provider id. Configuration names a
 * provider by one of these ids to use its endpoints, scopes and profile mapping; any other
 * id needs an OpenID Connect `issuer` or explicit endpoints.
 */
import type { ProviderDefinition } from "../provider.js";
import { apple } from "./apple.js";
import { discord } from "./discord.js";
import { dropbox } from "./dropbox.js";
import { facebook } from "./facebook.js";
import { github } from "./github.js";
import { gitlab } from "./gitlab.js";
import { google } from "./google.js";
import { huggingface } from "./huggingface.js";
import { kick } from "./kick.js";
import { linkedin } from "./linkedin.js";
import { microsoft } from "./microsoft.js";
import { reddit } from "./reddit.js";
import { roblox } from "./roblox.js";
import { spotify } from "./spotify.js";
import { tiktok } from "./tiktok.js";
import { twitch } from "./twitch.js";
import { twitter } from "./twitter.js";
import { vk } from "./vk.js";
import { zoom } from "./zoom.js";

export const BUILT_IN_PROVIDERS: Readonly<Record<string, ProviderDefinition>> = Object.freeze({
  apple,
  discord,
  dropbox,
  facebook,
  github,
  gitlab,
  google,
  huggingface,
  kick,
  linkedin,
  microsoft,
  reddit,
  roblox,
  spotify,
  tiktok,
  twitch,
  twitter,
  vk,
  zoom,
});

/** Whether `id` names a built-in provider (own keys only: "constructor" is not one). */
export function isBuiltInProvider(id: string): boolean {
  return Object.hasOwn(BUILT_IN_PROVIDERS, id);
}
