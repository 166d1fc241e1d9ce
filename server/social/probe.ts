/**
 * Whether each configured provider can be reached from here, for `authd doctor`: an
 * issuer's discovery document is read and checked as sign-in would read it, and the
 * authorization and token endpoints (the catalogue's, the discovered or the configured
 * ones) must answer HTTP at all. Nothing here sends a credential or changes state.
 */
import type { AuthdConfig } from "../config.js";
import { DEFAULT_LIMITS, ProviderRequestError, probeUrl } from "./fetch.js";
import { discoverIssuer } from "./oidc.js";
import type { ProviderDefinition } from "./provider.js";
import { BUILT_IN_PROVIDERS } from "./providers/index.js";

export type ProviderSource = "built-in" | "issuer" | "endpoints";

export interface EndpointProbe {
  endpoint: "discovery" | "authorization" | "token";
  url: string;
  /** The status that answered (any status: the server is there). */
  status?: number;
  ms?: number;
  /** Why nothing answered: a refused connection, a timeout, a discovery document refused. */
  error?: string;
}

export interface ProviderProbe {
  id: string;
  name: string;
  source: ProviderSource;
  /** Every probe answered. */
  reachable: boolean;
  probes: EndpointProbe[];
}

export interface ProbeOptions {
  /** Milliseconds each request may take (default 5 s, as discovery at sign-in). */
  timeoutMs?: number;
  catalogue?: Readonly<Record<string, ProviderDefinition>>;
}

type Endpoints = { authorizationEndpoint?: string; tokenEndpoint?: string };

function failure(error: unknown): string {
  if (error instanceof ProviderRequestError) return error.message;
  // openid-client's own refusals (an issuer that names another, malformed metadata).
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof ProviderRequestError) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

async function probeEndpoints(endpoints: Endpoints, timeoutMs: number): Promise<EndpointProbe[]> {
  const wanted: Array<[EndpointProbe["endpoint"], string | undefined]> = [
    ["authorization", endpoints.authorizationEndpoint],
    ["token", endpoints.tokenEndpoint],
  ];
  return Promise.all(
    wanted.flatMap(([endpoint, url]) =>
      url === undefined
        ? []
        : [
            probeUrl(url, timeoutMs).then(
              ({ status, ms }): EndpointProbe => ({ endpoint, url, status, ms }),
              (error: unknown): EndpointProbe => ({ endpoint, url, error: failure(error) }),
            ),
          ],
    ),
  );
}

async function probeProvider(
  id: string,
  settings: AuthdConfig["socialProviders"][string],
  catalogue: Readonly<Record<string, ProviderDefinition>>,
  timeoutMs: number,
): Promise<ProviderProbe> {
  const builtIn = Object.hasOwn(catalogue, id) ? catalogue[id] : undefined;
  const name = settings.name ?? builtIn?.name ?? id;
  const probes: EndpointProbe[] = [];
  let source: ProviderSource;
  let base: Endpoints;
  if (settings.issuer) {
    source = "issuer";
    const url = `${settings.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
    const started = performance.now();
    try {
      base = await discoverIssuer(
        { discoveryTimeoutMs: timeoutMs, maxBytes: DEFAULT_LIMITS.maxBytes },
        {
          issuer: settings.issuer,
          clientId: settings.clientId,
          clientSecret: settings.clientSecret,
        },
      );
      probes.push({
        endpoint: "discovery",
        url,
        status: 200,
        ms: Math.round(performance.now() - started),
      });
    } catch (error) {
      probes.push({ endpoint: "discovery", url, error: failure(error) });
      return { id, name, source, reachable: false, probes };
    }
  } else if (builtIn) {
    source = "built-in";
    base = builtIn;
  } else {
    source = "endpoints";
    base = {};
  }
  // What the operator configured wins, as at sign-in.
  probes.push(
    ...(await probeEndpoints(
      {
        authorizationEndpoint: settings.authorizationEndpoint ?? base.authorizationEndpoint,
        tokenEndpoint: settings.tokenEndpoint ?? base.tokenEndpoint,
      },
      timeoutMs,
    )),
  );
  return {
    id,
    name,
    source,
    reachable: probes.every((probe) => probe.error === undefined),
    probes,
  };
}

/** Every configured provider, probed at once; each request bounded by `timeoutMs`. */
export function probeProviders(
  config: Pick<AuthdConfig, "socialProviders">,
  options: ProbeOptions = {},
): Promise<ProviderProbe[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LIMITS.discoveryTimeoutMs;
  const catalogue = options.catalogue ?? BUILT_IN_PROVIDERS;
  return Promise.all(
    Object.entries(config.socialProviders).map(([id, settings]) =>
      probeProvider(id, settings, catalogue, timeoutMs),
    ),
  );
}
