/**
 * `authd doctor` and the configured social providers: each one is probed from this host
 * (an issuer's discovery document, the authorization and token endpoints), and one
 * out of reach is a warning, never a failure. A loopback node:http server plays the
 * provider; a closed port and a server that never answers play the unreachable ones.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer as createHttpServer, type IncomingHttpHeaders } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CliResult, runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

interface Check {
  name: string;
  status: "ok" | "warn" | "fail";
  detail: string;
}

const SECRET = "doctor-social-secret-0123456789-abcdefghij";
const CLIENT_SECRET = "provider-client-secret-0123456789";

let database: TestDatabase;
let cwd: string;
/** The provider: discovery at the root, 400 from /authorize, 405 from /token. */
const provider = createHttpServer((request, response) => {
  received.push({ url: request.url ?? "", headers: request.headers });
  const issuer = `http://127.0.0.1:${portOf(provider)}`;
  if (request.url === "/.well-known/openid-configuration") {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
      }),
    );
    return;
  }
  response.writeHead(request.url?.startsWith("/token") ? 405 : 400).end();
});
const received: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
/** Accepts connections and never answers: a provider that hangs. */
const silentSockets = new Set<Socket>();
const silent: Server = createServer((socket) => {
  socket.on("error", () => {});
  silentSockets.add(socket);
});

function portOf(server: { address(): unknown }): number {
  const address = server.address();
  if (typeof address !== "object" || address === null || !("port" in address)) {
    throw new Error("not listening");
  }
  return (address as { port: number }).port;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = portOf(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const migrated = await runAuthd(["migrate"], { env: { DATABASE_URL: database.url } });
  expect(migrated.code, migrated.stderr).toBe(0);
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", () => resolve()));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
});

afterAll(async () => {
  for (const socket of silentSockets) socket.destroy();
  await Promise.all(
    [provider, silent].map(
      (server) => new Promise<void>((resolve) => server.close(() => resolve())),
    ),
  );
  await database?.drop();
});

beforeEach(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), "authd-doctor-social-"));
  received.length = 0;
  return () => rm(cwd, { recursive: true, force: true });
});

async function doctor(socialProviders: Record<string, unknown>, args: string[] = ["--json"]) {
  await writeFile(path.join(cwd, "authd.config.json"), JSON.stringify({ socialProviders }));
  return runAuthd(["doctor", ...args], {
    cwd,
    env: { DATABASE_URL: database.url, AUTHD_SECRET: SECRET },
  });
}

function checks(result: CliResult): Map<string, Check> {
  const document = JSON.parse(result.stdout) as { checks: Check[] };
  return new Map(document.checks.map((check) => [check.name, check]));
}

const credentials = { clientId: "client-id", clientSecret: CLIENT_SECRET };

describe("authd doctor, social providers", () => {
  it("reads an issuer's discovery document and reaches each provider's endpoints", async () => {
    const base = `http://127.0.0.1:${portOf(provider)}`;
    const result = await doctor({
      acme: { ...credentials, issuer: base },
      // A built-in provider, its endpoints moved here (as for GitHub Enterprise Server).
      github: {
        ...credentials,
        authorizationEndpoint: `${base}/authorize`,
        tokenEndpoint: `${base}/token`,
      },
      plain: {
        ...credentials,
        authorizationEndpoint: `${base}/authorize`,
        tokenEndpoint: `${base}/token`,
        userInfoEndpoint: `${base}/userinfo`,
      },
    });
    expect(result.code, result.stderr).toBe(0);
    const found = checks(result);
    expect(found.get("social")?.status).toBe("ok");
    // The provider checks follow the others, in the configuration's order.
    expect([...found.keys()].slice(-3)).toEqual(["social.acme", "social.github", "social.plain"]);
    const acme = found.get("social.acme");
    expect(acme?.status).toBe("ok");
    expect(acme?.detail).toMatch(
      new RegExp(
        `^acme \\(OpenID Connect discovery\\): discovery ${base}/\\.well-known/openid-configuration: valid in \\d+ ms; authorization endpoint ${base}/authorize: HTTP 400 in \\d+ ms; token endpoint ${base}/token: HTTP 405 in \\d+ ms$`,
      ),
    );
    expect(found.get("social.github")).toMatchObject({ status: "ok" });
    expect(found.get("social.github")?.detail).toMatch(
      /^GitHub \(built in\): authorization endpoint \S+\/authorize: HTTP 400 in \d+ ms; token endpoint \S+\/token: HTTP 405 in \d+ ms$/,
    );
    expect(found.get("social.plain")?.detail).toMatch(/^plain \(configured endpoints\): /);
    // Probes are plain GETs: no credential of the client ever leaves.
    expect(received.map((request) => request.url).sort()).toEqual([
      "/.well-known/openid-configuration",
      "/authorize",
      "/authorize",
      "/authorize",
      "/token",
      "/token",
      "/token",
    ]);
    for (const request of received) {
      expect(request.headers.authorization).toBeUndefined();
      expect(JSON.stringify(request)).not.toContain(CLIENT_SECRET);
    }
    expect(result.stdout).not.toContain(CLIENT_SECRET);

    const human = await doctor({ acme: { ...credentials, issuer: base } }, []);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^ok +social\.acme +acme \(OpenID Connect discovery\): /m);
    // The warnings are about the missing baseURL only, none about the provider.
    expect(human.stderr).toContain("No check failed; 2 warnings: baseURL, cookies.");
  });

  it("only warns, and exits 0, when providers cannot be reached or do not answer", async () => {
    const closed = await closedPort();
    const hanging = `http://127.0.0.1:${portOf(silent)}`;
    const started = Date.now();
    const result = await doctor({
      gone: { ...credentials, issuer: `http://127.0.0.1:${closed}` },
      github: {
        ...credentials,
        authorizationEndpoint: `http://127.0.0.1:${closed}/authorize`,
        tokenEndpoint: `${hanging}/token`,
      },
    });
    expect(result.code, result.stderr).toBe(0);
    // Bounded: the hanging endpoint is given up after 5 s, with everything else at once.
    expect(Date.now() - started).toBeLessThan(30_000);
    const found = checks(result);
    expect(found.get("social.gone")).toEqual({
      name: "social.gone",
      status: "warn",
      detail: `gone (OpenID Connect discovery) not reachable from here: discovery http://127.0.0.1:${closed}/.well-known/openid-configuration: request failed (ECONNREFUSED); sign-in with it fails while authd cannot reach it`,
    });
    expect(found.get("social.github")).toEqual({
      name: "social.github",
      status: "warn",
      detail: `GitHub (built in) not reachable from here: authorization endpoint http://127.0.0.1:${closed}/authorize: request failed (ECONNREFUSED); token endpoint ${hanging}/token: no answer within 5000 ms; sign-in with it fails while authd cannot reach it`,
    });
    expect(result.stdout).not.toContain(CLIENT_SECRET);
    expect(result.stderr).not.toContain(CLIENT_SECRET);

    const human = await doctor({ gone: { ...credentials, issuer: `http://127.0.0.1:${closed}` } }, [
      "--no-color",
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^warn +social\.gone +gone \(OpenID Connect discovery\) not /m);
    expect(human.stderr).toContain("No check failed; ");
    expect(human.stderr).toContain("social.gone");
  });

  it("fails the social check (78) for a provider with no source of endpoints, and probes it not", async () => {
    const base = `http://127.0.0.1:${portOf(provider)}`;
    const result = await doctor({
      acme: { ...credentials, issuer: base },
      nowhere: { ...credentials, authorizationEndpoint: `${base}/authorize` },
    });
    expect(result.code, result.stderr).toBe(78);
    const found = checks(result);
    expect(found.get("social")).toEqual({
      name: "social",
      status: "fail",
      detail:
        'socialProviders.nowhere: "nowhere" is not a built-in provider: expected an issuer (OpenID Connect discovery) or authorizationEndpoint, tokenEndpoint and userInfoEndpoint',
    });
    expect(found.get("social.acme")?.status).toBe("ok");
    expect(found.has("social.nowhere")).toBe(false);
    expect(JSON.parse(result.stderr)).toEqual({
      error: { code: "CHECK_FAILED", message: "1 check failed: social" },
    });
  });
});
