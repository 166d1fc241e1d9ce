import { useAuthContext } from "../auth-context.js";
import type { SocialProvider } from "../client/types.js";
import { QUERY_KEYS } from "./organization.js";
import { type QueryResult, useQuery } from "./use-query.js";

/**
 * The social providers to offer: those given (for servers that do not list theirs, as
 * ids or `{id, name}`), else the ones authd says are configured.
 */
export function useSocialProviders(
  given?: readonly (string | SocialProvider)[],
): QueryResult<SocialProvider[]> {
  const { client } = useAuthContext();
  const listed = useQuery(given ? null : QUERY_KEYS.socialProviders, () =>
    client.socialProviders(),
  );
  if (!given) return listed;
  const data = given.map((provider) =>
    typeof provider === "string" ? { id: provider, name: providerName(provider) } : provider,
  );
  return { data, error: null, isPending: false, refetch: () => Promise.resolve() };
}

const NAMES: Readonly<Record<string, string>> = {
  github: "GitHub",
  gitlab: "GitLab",
  linkedin: "LinkedIn",
  tiktok: "TikTok",
  vk: "VK",
  huggingface: "Hugging Face",
  twitter: "X",
};

/** A display name for a provider id that came without one. */
export function providerName(id: string): string {
  return NAMES[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
}
