/**
 * The configuration check that needs the provider catalogue, so it cannot live in the
 * config schema (the config layer sits below the domains): every configured provider
 * must be built in, or name its issuer, or name all three endpoints. buildApp refuses
 * to start otherwise, and `authd config validate` reports the same lines.
 */
import type { AuthdConfig } from "../config.js";
import type { ProviderDefinition } from "./provider.js";

export function providerSourceProblems(
  config: Pick<AuthdConfig, "socialProviders">,
  catalogue: Readonly<Record<string, ProviderDefinition>>,
  sourceLabel?: string,
): string[] {
  const problems: string[] = [];
  for (const [id, settings] of Object.entries(config.socialProviders)) {
    if (Object.hasOwn(catalogue, id) || settings.issuer) continue;
    const { authorizationEndpoint, tokenEndpoint, userInfoEndpoint } = settings;
    if (authorizationEndpoint && tokenEndpoint && userInfoEndpoint) continue;
    const line = `socialProviders.${id}: "${id}" is not a built-in provider: expected an issuer (OpenID Connect discovery) or authorizationEndpoint, tokenEndpoint and userInfoEndpoint`;
    problems.push(sourceLabel ? `${sourceLabel}: ${line}` : line);
  }
  return problems;
}
