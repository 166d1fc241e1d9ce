/**
 * GitHub (OAuth apps and GitHub Apps). `/user` shows an email only when the user made it
 * public; `/user/emails` (scope `user:email`) lists every address with its verification,
 * and it alone says whether an address is verified.
 */
import type { ProviderDefinition, ProviderFetch } from "../provider.js";
import { asRecord, idOf, imageUrl, nameOf, text, userInfoUrl } from "./read.js";

/** GitHub's API refuses requests without a User-Agent and documents this Accept type. */
const API_HEADERS = { Accept: "application/vnd.github+json", "User-Agent": "authd" };

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * The addresses from `/user/emails`, or none: without the `user:email` scope (an override
 * may drop it) the endpoint answers 404, and the public address alone is then used.
 */
async function listEmails(
  fetchJson: ProviderFetch,
  url: string,
  accessToken: string,
): Promise<GitHubEmail[]> {
  let answer: unknown;
  try {
    answer = await fetchJson(url, { accessToken, headers: API_HEADERS });
  } catch {
    return [];
  }
  if (!Array.isArray(answer)) return [];
  const emails: GitHubEmail[] = [];
  for (const entry of answer) {
    const record = asRecord(entry);
    const email = text(record?.email);
    if (record === null || email === null) continue;
    emails.push({ email, primary: record.primary === true, verified: record.verified === true });
  }
  return emails;
}

/**
 * The public address when there is one (verified if `/user/emails` says so); otherwise
 * the primary verified address, then any verified one, then the primary unverified one.
 */
function chooseEmail(
  publicEmail: string | null,
  emails: GitHubEmail[],
): { email: string | null; verified: boolean } {
  if (publicEmail !== null) {
    const listed = emails.find((entry) => entry.email.toLowerCase() === publicEmail.toLowerCase());
    return { email: publicEmail, verified: listed?.verified === true };
  }
  const chosen =
    emails.find((entry) => entry.primary && entry.verified) ??
    emails.find((entry) => entry.verified) ??
    emails.find((entry) => entry.primary) ??
    emails[0];
  return chosen === undefined
    ? { email: null, verified: false }
    : { email: chosen.email, verified: chosen.verified };
}

export const github: ProviderDefinition = {
  id: "github",
  name: "GitHub",
  authorizationEndpoint: "https://github.com/login/oauth/authorize",
  tokenEndpoint: "https://github.com/login/oauth/access_token",
  userInfoEndpoint: "https://api.github.com/user",
  scopes: ["read:user", "user:email"],
  pkce: true,
  tokenEndpointAuth: "client_secret_post",
  async fetchProfile(request) {
    const { accessToken } = request.tokens;
    const url = userInfoUrl(request, github);
    const user = asRecord(await request.fetchJson(url, { accessToken, headers: API_HEADERS }));
    const id = idOf(user?.id);
    if (user === null || id === null) return null;
    // Beside /user, also for GitHub Enterprise Server when the endpoint is overridden.
    const emails = await listEmails(
      request.fetchJson,
      `${url.replace(/\/+$/, "")}/emails`,
      accessToken,
    );
    const { email, verified } = chooseEmail(text(user.email), emails);
    return {
      profile: {
        id,
        email,
        emailVerified: verified,
        name: nameOf([user.name, user.login], email, id),
        image: imageUrl(user.avatar_url),
      },
      raw: user,
    };
  },
};
