/**
 * Doctor's look at each configured social provider from this host: the issuer's
 * discovery document, and whether the authorization and token endpoints answer. A
 * provider out of reach is a warning, never a failure: doctor runs offline and behind
 * firewalls too, where that says nothing about the deployment.
 */
import type { LoadedConfig } from "../../server/config.js";
import { providerSourceProblems } from "../../server/social/config-check.js";
import {
  type EndpointProbe,
  type ProviderProbe,
  probeProviders,
} from "../../server/social/probe.js";
import { BUILT_IN_PROVIDERS } from "../../server/social/providers/index.js";
import type { Check } from "./doctor-check.js";

/** Each request to a provider: as long as authd itself waits for a discovery document. */
export const PROVIDER_PROBE_TIMEOUT_MS = 5_000;

const SOURCES: Record<ProviderProbe["source"], string> = {
  "built-in": "built in",
  issuer: "OpenID Connect discovery",
  endpoints: "configured endpoints",
};

function describeEndpoint(probe: EndpointProbe): string {
  const label = probe.endpoint === "discovery" ? "discovery" : `${probe.endpoint} endpoint`;
  if (probe.error !== undefined) return `${label} ${probe.url}: ${probe.error}`;
  const answer = probe.endpoint === "discovery" ? "valid" : `HTTP ${probe.status}`;
  return `${label} ${probe.url}: ${answer} in ${probe.ms} ms`;
}

export function describeProviderProbe(probe: ProviderProbe): Check {
  const lines = probe.probes.map(describeEndpoint).join("; ");
  return {
    name: `social.${probe.id}`,
    status: probe.reachable ? "ok" : "warn",
    detail: probe.reachable
      ? `${probe.name} (${SOURCES[probe.source]}): ${lines}`
      : `${probe.name} (${SOURCES[probe.source]}) not reachable from here: ${lines}; sign-in with it fails while authd cannot reach it`,
  };
}

/**
 * One check per provider, `social.<id>`, all probed at once. Providers without a source
 * of endpoints are left to the `social` check, which fails them.
 */
export async function checkProviderReachability(loaded: LoadedConfig): Promise<Check[]> {
  const socialProviders = Object.fromEntries(
    Object.entries(loaded.config.socialProviders).filter(
      ([id, settings]) =>
        providerSourceProblems({ socialProviders: { [id]: settings } }, BUILT_IN_PROVIDERS)
          .length === 0,
    ),
  );
  const probes = await probeProviders(
    { socialProviders },
    { timeoutMs: PROVIDER_PROBE_TIMEOUT_MS },
  );
  return probes.map(describeProviderProbe);
}
