/**
 * The social providers `authd init` sets up: any built-in provider by its id, or
 * another OpenID Connect provider by an id and its issuer, since authd can sign in with
 * nothing else. From `--social github,acme=https://id.example.com` or from prompts.
 */
import { BUILT_IN_PROVIDERS, isBuiltInProvider } from "../../server/social/providers/index.js";

/** One provider entry of the generated config. */
export interface SocialProviderAnswer {
  id: string;
  /** An OpenID Connect issuer whose discovery document gives the endpoints. */
  issuer?: string;
}

const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]*$/;
/** The checkbox entry that asks for an id and an issuer next (no provider id starts with `*`). */
const ANOTHER_ISSUER = "*another-issuer";

/** The prefix of a provider's variables in .env: `my-app` -> `MY_APP`. */
export function providerEnvPrefix(id: string): string {
  return id.toUpperCase().replaceAll("-", "_");
}

/** The built-in providers, ordered by the name people know them by. */
export function builtInChoices(): Array<{ id: string; name: string }> {
  return Object.entries(BUILT_IN_PROVIDERS)
    .map(([id, definition]) => ({ id, name: definition.name }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
}

/** What a person reads for a provider: "GitHub (github)", "acme (OpenID Connect)". */
export function providerLabel(provider: SocialProviderAnswer): string {
  const builtIn = isBuiltInProvider(provider.id) ? BUILT_IN_PROVIDERS[provider.id] : undefined;
  return `${builtIn?.name ?? provider.id} (${builtIn ? provider.id : "OpenID Connect"})`;
}

/**
 * `--social github,acme=https://id.example.com` (repeatable): providers in order of
 * first mention; a later mention of an id replaces its issuer.
 */
export function parseProviderList(
  value: string,
  previous: SocialProviderAnswer[],
): SocialProviderAnswer[] {
  const providers = [...previous];
  for (const item of value.split(",")) {
    const text = item.trim();
    if (text === "") continue;
    const equals = text.indexOf("=");
    const id = (equals < 0 ? text : text.slice(0, equals)).trim();
    const issuer = equals < 0 ? undefined : text.slice(equals + 1).trim();
    const entry: SocialProviderAnswer = issuer === undefined ? { id } : { id, issuer };
    const index = providers.findIndex((provider) => provider.id === id);
    if (index < 0) providers.push(entry);
    else providers[index] = entry;
  }
  return providers;
}

export function checkProviderId(id: string): string | undefined {
  return PROVIDER_ID.test(id)
    ? undefined
    : `${JSON.stringify(id)} is not a provider id (lower-case letters, digits, - and _)`;
}

export function checkIssuer(value: string): string | undefined {
  return /^https?:\/\/\S+$/i.test(value) && URL.canParse(value)
    ? undefined
    : "expected the issuer's http:// or https:// URL, e.g. https://id.example.com";
}

/** The first problem with the chosen providers, as one sentence. */
export function checkProviders(providers: SocialProviderAnswer[]): string | undefined {
  const prefixes = new Map<string, string>();
  for (const { id, issuer } of providers) {
    const badId = checkProviderId(id);
    if (badId) return badId;
    if (issuer !== undefined) {
      const badIssuer = checkIssuer(issuer);
      if (badIssuer) return `${id}: ${badIssuer}`;
    } else if (!isBuiltInProvider(id)) {
      return `${JSON.stringify(id)} is not a built-in provider; for another OpenID Connect provider give its issuer as ${id}=https://issuer.example.com (built in: ${Object.keys(BUILT_IN_PROVIDERS).join(", ")})`;
    }
    const other = prefixes.get(providerEnvPrefix(id));
    if (other !== undefined && other !== id) {
      return `${JSON.stringify(other)} and ${JSON.stringify(id)} would share the variables ${providerEnvPrefix(id)}_CLIENT_ID/_CLIENT_SECRET`;
    }
    prefixes.set(providerEnvPrefix(id), id);
  }
  return undefined;
}

/**
 * The checklist of every built-in provider plus "another OpenID Connect issuer", which
 * asks for an id and an issuer URL (as often as wanted). Providers given by flags start
 * checked, issuers and all.
 */
export async function askProviders(
  defaults: SocialProviderAnswer[],
): Promise<SocialProviderAnswer[]> {
  const { checkbox, confirm, input, Separator } = await import("@inquirer/prompts");
  const chosen = new Map(defaults.map((provider) => [provider.id, provider]));
  const generic = defaults.filter((provider) => !isBuiltInProvider(provider.id));
  const picked = await checkbox<string>({
    message: "Social sign-in providers (space to select, enter when done)",
    pageSize: 12,
    choices: [
      ...builtInChoices().map(({ id, name }) => ({
        name: `${name} (${id})`,
        value: id,
        checked: chosen.has(id),
      })),
      ...generic.map((provider) => ({
        name: `${provider.id} (OpenID Connect, ${provider.issuer ?? ""})`,
        value: provider.id,
        checked: true,
      })),
      new Separator(),
      { name: "Another OpenID Connect issuer (asks for an id and its URL)", value: ANOTHER_ISSUER },
    ],
  });
  const providers = picked
    .filter((id) => id !== ANOTHER_ISSUER)
    .map((id) => chosen.get(id) ?? { id });
  let more = picked.includes(ANOTHER_ISSUER);
  while (more) {
    const taken = new Set(providers.map((provider) => provider.id));
    const id = await input({
      message: "Provider id (lower-case letters, digits, - and _; it ends the callback URL)",
      validate: (value) =>
        checkProviderId(value.trim()) ??
        (taken.has(value.trim()) ? `${value.trim()} is chosen already` : true),
    });
    const issuer = await input({
      message: `Issuer URL of ${id.trim()} (its discovery document is <issuer>/.well-known/openid-configuration)`,
      validate: (value) => checkIssuer(value.trim()) ?? true,
    });
    providers.push({ id: id.trim(), issuer: issuer.trim() });
    more = await confirm({ message: "Add another OpenID Connect issuer?", default: false });
  }
  return providers;
}
