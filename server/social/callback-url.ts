/**
 * The redirect URI an operator registers at a provider, as the callback route builds
 * it: the entry's own `redirectURI`, else `<baseURL><basePath>/callback/<id>`.
 */
import type { AuthdConfig } from "../config.js";

/** Null without a `baseURL`: each request's own origin is used then, known only at run time. */
export function registeredCallbackURL(
  config: Pick<AuthdConfig, "baseURL" | "basePath" | "socialProviders">,
  id: string,
): string | null {
  const configured = Object.hasOwn(config.socialProviders, id)
    ? config.socialProviders[id]?.redirectURI
    : undefined;
  if (configured) return configured;
  if (!config.baseURL) return null;
  const base = config.basePath === "/" ? "" : config.basePath;
  return `${config.baseURL.replace(/\/+$/, "")}${base}/callback/${id}`;
}
