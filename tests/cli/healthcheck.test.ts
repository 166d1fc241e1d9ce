/** `authd healthcheck` against a real `authd serve`, a closed port and a server that never answers. */
import { createServer as createHttpServer, type RequestListener, type Server } from "node:http";
import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthd, type ServeProcess, startServe } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let database: TestDatabase;
let server: ServeProcess;

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

async function listen(handler: RequestListener): Promise<{
  server: Server;
  url: string;
}> {
  const http = createHttpServer(handler);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
  const address = http.address();
  if (typeof address !== "object" || !address) throw new Error("no port");
  return { server: http, url: `http://127.0.0.1:${address.port}` };
}

beforeAll(async () => {
  database = await createTestDatabase();
  const migrated = await runAuthd(["migrate"], { env: { DATABASE_URL: database.url } });
  expect(migrated.code, migrated.stderr).toBe(0);
  server = await startServe([], { env: { DATABASE_URL: database.url } });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("authd healthcheck", () => {
  it("exits 0 and prints nothing when the server answers", async () => {
    const result = await runAuthd(["healthcheck", "--url", server.url]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("");
  });

  it("with -q is silent when healthy and says why on stderr when not", async () => {
    const healthy = await runAuthd(["healthcheck", "--url", server.url, "-q"]);
    expect(healthy.code, healthy.stderr).toBe(0);
    expect(healthy.stdout).toBe("");
    expect(healthy.stderr).toBe("");
    const port = await closedPort();
    const down = await runAuthd(["healthcheck", "--url", `http://127.0.0.1:${port}`, "-q"]);
    expect(down.code).toBe(1);
    expect(down.stdout).toBe("");
    expect(down.stderr).toContain("unhealthy");
  });

  it("probes 127.0.0.1 on the configured port without --url", async () => {
    const port = new URL(server.url).port;
    const result = await runAuthd(["healthcheck", "--ready", "--json"], {
      env: { PORT: port, DATABASE_URL: database.url },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: true,
      url: `http://127.0.0.1:${port}/readyz`,
      status: 200,
    });
  });

  it("exits 1 on a closed port", async () => {
    const port = await closedPort();
    const result = await runAuthd(["healthcheck", "--url", `http://127.0.0.1:${port}`, "--json"]);
    expect(result.code).toBe(1);
    const document = JSON.parse(result.stdout);
    expect(document).toMatchObject({ ok: false, status: null });
    expect(document.url).toBe(`http://127.0.0.1:${port}/api/auth/ok`);

    const human = await runAuthd(["healthcheck", "--url", `http://127.0.0.1:${port}`]);
    expect(human.code).toBe(1);
    expect(human.stdout).toBe("");
    expect(human.stderr).toContain("unhealthy");
  });

  it("exits 1 on any status but 200", async () => {
    const unavailable = await listen((_request, response) => {
      response.statusCode = 503;
      response.end("{}");
    });
    try {
      const result = await runAuthd(["healthcheck", "--ready", "--url", unavailable.url, "--json"]);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, status: 503 });
    } finally {
      unavailable.server.close();
    }
  });

  it("gives up at the timeout when the server never answers", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    const address = silent.address();
    if (typeof address !== "object" || !address) throw new Error("no port");
    try {
      const started = Date.now();
      const result = await runAuthd(
        ["healthcheck", "--url", `http://127.0.0.1:${address.port}`, "--timeout", "1"],
        { timeoutMs: 15_000 },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("no answer within 1 s");
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("refuses a malformed --url or --timeout as a usage error", async () => {
    expect((await runAuthd(["healthcheck", "--url", "nope"])).code).toBe(2);
    expect((await runAuthd(["healthcheck", "--timeout", "soon"])).code).toBe(2);
  });
});
