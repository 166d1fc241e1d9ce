/**
 * `authd secret rotate|list|prune` and the start-up check of stored signing keys, as
 * operators run them: the built binary against a fresh migrated PostgreSQL database.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSealer } from "../../server/crypto/seal.js";
import { SIGNING_KEY_PURPOSE } from "../../server/keys/keys.js";
import { type CliResult, cliError, runAuthd, startServe, successJson } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let database: TestDatabase;
let sql: postgres.Sql;
let dir: string;
let config: string;
const SECRET = "cli-secret-test-0123456789-0123456789-a";
const NEWER_SECRET = "cli-secret-test-9876543210-9876543210-b";

interface KeyItem {
  kid: string;
  algorithm: string;
  createdAt: string;
  status: string;
  expiresAt: string | null;
}

function authd(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runAuthd(["--config", config, ...args], {
    env: { DATABASE_URL: database.url, AUTHD_SECRET: SECRET, ...env },
  });
}

async function json<T>(args: string[]): Promise<T> {
  return successJson<T>(await authd([...args, "--json"]), args.join(" "));
}

async function keyRows() {
  return sql<{ id: string; expiresAt: Date | null; privateKey: string }[]>`
    select id, expires_at, private_key from jwks order by created_at, id`;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const migrated = await runAuthd(["migrate"], { env: { DATABASE_URL: database.url } });
  expect(migrated.code, migrated.stderr).toBe(0);
  sql = postgres(database.url, { max: 1, onnotice: () => {}, transform: postgres.camel });
  dir = await mkdtemp(path.join(tmpdir(), "authd-secret-"));
  config = path.join(dir, "authd.config.json");
  await writeFile(config, JSON.stringify({ jwt: { enabled: true, expiresIn: 600 } }));
});

afterAll(async () => {
  await sql?.end();
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("authd secret rotate, list and prune", () => {
  let first: string;
  let second: string;

  it("rotate makes a signing key; a second rotation retires the first for the grace", async () => {
    const made = await json<{ kid: string; algorithm: string; retired: unknown[] }>([
      "secret",
      "rotate",
    ]);
    expect(made).toEqual({ kid: expect.any(String), algorithm: "EdDSA", retired: [] });
    first = made.kid;

    const startedAt = Date.now();
    const rotated = await json<{
      kid: string;
      algorithm: string;
      retired: { kid: string; expiresAt: string }[];
    }>(["secret", "rotate", "--grace", "2h"]);
    second = rotated.kid;
    expect(second).not.toBe(first);
    expect(rotated.retired.map((key) => key.kid)).toEqual([first]);
    const until = Date.parse(rotated.retired[0]?.expiresAt ?? "");
    expect(until - startedAt).toBeGreaterThan(7200_000 - 60_000);
    expect(until - startedAt).toBeLessThan(7200_000 + 60_000);
    const rows = await keyRows();
    expect(rows.map((row) => row.id)).toEqual([first, second]);
    for (const row of rows) expect(row.privateKey).toMatch(/^v1:/);
  });

  it("list shows the current key and the retiring one", async () => {
    const listed = await json<{ items: KeyItem[] }>(["secret", "list"]);
    expect(listed.items).toEqual([
      {
        kid: second,
        algorithm: "EdDSA",
        createdAt: expect.any(String),
        status: "current",
        expiresAt: null,
      },
      {
        kid: first,
        algorithm: "EdDSA",
        createdAt: expect.any(String),
        status: "retiring",
        expiresAt: expect.any(String),
      },
    ]);
    const human = await authd(["secret", "list"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^KID\s+ALGORITHM\s+CREATED\s+STATUS/);
    expect(human.stdout).toContain(`${first}`);
    expect(human.stdout).toMatch(/retiring until \d{4}-/);
  });

  it("--dry-run changes nothing", async () => {
    const before = await keyRows();
    const rotated = await json<{ kid: string; retired: { kid: string }[] }>([
      "secret",
      "rotate",
      "--dry-run",
    ]);
    expect(rotated.retired.map((key) => key.kid)).toEqual([second]);
    await sql`update jwks set expires_at = now() - interval '1 second' where id = ${first}`;
    const pruned = await json<{ items: { kid: string }[] }>(["secret", "prune", "--dry-run"]);
    expect(pruned.items.map((key) => key.kid)).toEqual([first]);
    const after = await keyRows();
    expect(after.map((row) => row.id)).toEqual(before.map((row) => row.id));
    expect(after.find((row) => row.id === second)?.expiresAt).toBeNull();
  });

  it("refuses a grace shorter than the token lifetime (usage error)", async () => {
    const before = await keyRows();
    const refused = await authd(["secret", "rotate", "--grace", "5m", "--json"]);
    expect(refused.code).toBe(2);
    expect(cliError(refused).message).toMatch(/shorter than the token lifetime.*expiresIn 600s/);
    // An instance may sign with the old key for up to 30 s more, and those tokens live
    // the whole lifetime too: a grace of the lifetime alone is still too short.
    const lifetime = await authd(["secret", "rotate", "--grace", "10m", "--json"]);
    expect(lifetime.code).toBe(2);
    expect(cliError(lifetime).message).toContain("600s + 30s = 630s");
    expect((await keyRows()).length).toBe(before.length);
  });

  it("refuses to rotate with secrets that do not open the current key (exit 78)", async () => {
    const before = await keyRows();
    const refused = await authd(["secret", "rotate", "--json"], { AUTHD_SECRET: NEWER_SECRET });
    expect(refused.code, refused.stderr).toBe(78);
    expect(cliError(refused).message).toContain(second);
    expect((await keyRows()).map((row) => row.id)).toEqual(before.map((row) => row.id));
  });

  it("prune deletes the keys whose grace has ended, never the current key", async () => {
    const listed = await json<{ items: KeyItem[] }>(["secret", "list"]);
    expect(listed.items.find((key) => key.kid === first)?.status).toBe("expired");
    const pruned = await json<{ items: { kid: string; expiresAt: string }[] }>(["secret", "prune"]);
    expect(pruned.items.map((key) => key.kid)).toEqual([first]);
    expect((await keyRows()).map((row) => row.id)).toEqual([second]);
    // Nothing left past its grace: the current key stays.
    const again = await json<{ items: unknown[] }>(["secret", "prune"]);
    expect(again.items).toEqual([]);
    expect((await keyRows()).map((row) => row.id)).toEqual([second]);
  });
});

describe("authd serve checks the stored signing keys", () => {
  const publicKey = (kid: string) =>
    JSON.stringify({ kty: "OKP", crv: "Ed25519", x: "AAAA", alg: "EdDSA", use: "sig", kid });

  async function serveFails(env: Record<string, string> = {}): Promise<CliResult> {
    const result = await authd(["serve", "--port", "0", "--host", "127.0.0.1"], env);
    expect(result.code, result.stderr).toBe(78);
    return result;
  }

  it("exits 78 naming a key whose contents are corrupt", async () => {
    const sealed = createSealer([SECRET], SIGNING_KEY_PURPOSE).seal("{not a key");
    await sql`insert into jwks (id, public_key, private_key)
              values ('corrupt-kid', ${publicKey("corrupt-kid")}, ${sealed})`;
    await sql`insert into jwks (id, public_key, private_key)
              values ('unsealed-kid', ${publicKey("unsealed-kid")}, 'plain text')`;
    try {
      const result = await serveFails();
      expect(result.stderr).toContain("corrupt-kid");
      expect(result.stderr).toContain("unsealed-kid");
      expect(result.stderr).toMatch(/corrupt/);
    } finally {
      await sql`delete from jwks where id in ('corrupt-kid', 'unsealed-kid')`;
    }
  });

  it("exits 78 naming the key when no configured secret opens it", async () => {
    const [current] = await keyRows();
    const result = await serveFails({ AUTHD_SECRET: NEWER_SECRET });
    expect(result.stderr).toContain(current?.id as string);
    expect(result.stderr).toMatch(/no configured secret opens it/);
  });

  it("seals the keys again under the newest secret, so the old one can go", async () => {
    const [current] = await keyRows();
    const rotating = await startServe(["--config", config], {
      env: { DATABASE_URL: database.url, AUTHD_SECRET: `${NEWER_SECRET},${SECRET}` },
    });
    expect(await rotating.stop()).toBe(0);
    const newest = createSealer([NEWER_SECRET], SIGNING_KEY_PURPOSE);
    const [resealed] = await keyRows();
    expect(resealed?.id).toBe(current?.id);
    expect(newest.open(resealed?.privateKey as string)?.stale).toBe(false);

    const alone = await startServe(["--config", config], {
      env: { DATABASE_URL: database.url, AUTHD_SECRET: NEWER_SECRET },
    });
    expect(await alone.stop()).toBe(0);
  });
});
