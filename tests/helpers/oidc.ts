/**
 * A real OpenID provider on loopback for social sign-in tests: oidc-provider with one
 * client, an in-memory account store and its built-in login and consent pages, which
 * `authorize` fills in over HTTP the way a browser would.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Provider } from "oidc-provider";

export interface OidcUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

/** A browser's cookies at the provider (all sent everywhere: the provider does not mind). */
export class ProviderBrowser {
  readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  absorb(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some(
        (attribute) =>
          /^\s*max-age=0\s*$/i.test(attribute) || /^\s*expires=.*1970/i.test(attribute),
      );
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  users: Map<string, OidcUser>;
  /** Requests the provider received, by path (e.g. "/token"). */
  hits: string[];
  /** Milliseconds the token endpoint waits before it handles a request (0: none). */
  tokenDelayMs: number;
  /**
   * Follows an authorization URL as a browser: signs in as `login` (a sub of `users`)
   * and consents, or presses "abort"; answers the URL the provider sends the browser
   * back to (the client's redirect URI with code and state, or an error).
   */
  authorize(
    authorizationUrl: string,
    as: { login: string } | { abort: true },
    browser?: ProviderBrowser,
  ): Promise<URL>;
  close(): Promise<void>;
}

export async function startOidcProvider(options: {
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
  /**
   * The client may use refresh tokens: one is issued for the `offline_access` scope
   * asked for with `prompt=consent`. With `rotate`, each refresh answers a new one and
   * the used one stops working (its reuse revokes the grant).
   */
  refreshTokens?: { rotate: boolean };
}): Promise<TestOidcProvider> {
  const clientId = options.clientId ?? "authd-test-client";
  const clientSecret = options.clientSecret ?? "authd-test-client-secret-0123456789";
  const users = new Map<string, OidcUser>();
  const hits: string[] = [];
  let handler: (request: IncomingMessage, response: ServerResponse) => void = (_, response) => {
    response.statusCode = 503;
    response.end();
  };
  const delays = { tokenDelayMs: 0 };
  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0] ?? "";
    hits.push(path);
    if (path === "/token" && delays.tokenDelayMs > 0) {
      setTimeout(() => handler(request, response), delays.tokenDelayMs);
    } else {
      handler(request, response);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: options.refreshTokens
          ? ["authorization_code", "refresh_token"]
          : ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    async findAccount(_context: unknown, sub: string) {
      const user = users.get(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        async claims() {
          return { ...user, sub };
        },
      };
    },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "picture"],
    },
    pkce: { required: () => true },
    rotateRefreshToken: () => options.refreshTokens?.rotate === true,
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["authd-test-provider-cookie-key-0123456789"] },
  });
  handler = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    users,
    hits,
    get tokenDelayMs() {
      return delays.tokenDelayMs;
    },
    set tokenDelayMs(value: number) {
      delays.tokenDelayMs = value;
    },
    async authorize(authorizationUrl, as, browser = new ProviderBrowser()) {
      let url = new URL(authorizationUrl);
      let form: URLSearchParams | undefined;
      for (let step = 0; step < 20; step++) {
        const response = await fetch(url, {
          method: form ? "POST" : "GET",
          redirect: "manual",
          headers: {
            cookie: browser.header(),
            ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
          },
          body: form?.toString(),
        });
        browser.absorb(response);
        form = undefined;
        const location = response.headers.get("location");
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          const next = new URL(location, url);
          if (next.origin !== issuer) return next;
          url = next;
          continue;
        }
        const html = await response.text();
        if (response.status !== 200) {
          throw new Error(`the provider answered ${response.status}: ${html.slice(0, 500)}`);
        }
        const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
        const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
        if (!action || !prompt)
          throw new Error(`no form on the provider's page: ${html.slice(0, 500)}`);
        if ("abort" in as) {
          url = new URL(`${url.pathname}/abort`, url);
          continue;
        }
        url = new URL(action.replaceAll("&amp;", "&"), url);
        form =
          prompt === "login"
            ? new URLSearchParams({ prompt, login: as.login, password: "any password" })
            : new URLSearchParams({ prompt });
      }
      throw new Error("the provider never sent the browser back");
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
