/**
 * The global output flags end to end, through real
 * commands: `-o json|yaml|jsonl|csv|env`, `--fields`, `-q`, $AUTHD_OUTPUT, `--timeout`
 * and `--profile`. Records: `version`, `secret generate`; lists: `config show`
 * (settings) and `migrate status` (migrations) against a test database.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { listMigrationFiles } from "../../server/db/migrations.js";
import { AUTHD_BIN, type CliResult, runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let db: Record<string, string>;
let files: string[];
let cwd: string;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  db = { DATABASE_URL: testDatabase.url };
  files = await listMigrationFiles();
  // No config file here: config show lists defaults and the environment only.
  cwd = await mkdtemp(path.join(tmpdir(), "authd-output-"));
  const migrated = await runAuthd(["migrate", "up", "-q"], { env: db });
  expect(migrated.code, migrated.stderr).toBe(0);
  // -q on a record prints each element of the quiet field's array: the applied names.
  expect(migrated.stdout).toBe(files.map((name) => `${name}\n`).join(""));
});

afterAll(async () => {
  await testDatabase?.drop();
  await rm(cwd, { recursive: true, force: true });
});

function ok(result: CliResult): string {
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

/** A usage error: exit 2, nothing on stdout, the error as JSON on stderr when asked. */
function usageError(result: CliResult): string {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe("");
  return result.stderr;
}

describe("a record (version, secret generate)", () => {
  it("prints the same document as JSON, YAML and one JSON line", async () => {
    const json = JSON.parse(ok(await runAuthd(["version", "--json"])));
    expect(json).toEqual({
      authd: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      node: process.versions.node,
    });
    expect(parseYaml(ok(await runAuthd(["version", "-o", "yaml"])))).toEqual(json);
    expect(ok(await runAuthd(["version", "--output", "jsonl"]))).toBe(`${JSON.stringify(json)}\n`);
    expect(ok(await runAuthd(["version", "-o", "csv"]))).toBe(
      `authd,node\r\n${json.authd},${json.node}\r\n`,
    );
    expect(ok(await runAuthd(["version", "-o", "env"]))).toBe(
      `AUTHD=${json.authd}\nNODE=${json.node}\n`,
    );
    // Global flags go anywhere on the line.
    expect(JSON.parse(ok(await runAuthd(["-o", "json", "version"])))).toEqual(json);
  });

  it("--fields selects, in every format; an unknown field exits 2 naming the known ones", async () => {
    const node = process.versions.node;
    expect(JSON.parse(ok(await runAuthd(["version", "--json", "--fields", "node"])))).toEqual({
      node,
    });
    expect(ok(await runAuthd(["version", "-o", "csv", "--fields", "node,authd"]))).toMatch(
      new RegExp(`^node,authd\\r\\n${node.replaceAll(".", "\\.")},\\d+\\.\\d+\\.\\d+\\r\\n$`),
    );
    expect(ok(await runAuthd(["version", "--fields", "node"]))).toBe(
      `FIELD  VALUE\nnode   ${node}\n`,
    );
    const unknown = usageError(await runAuthd(["version", "--fields", "node,nope", "--json"]));
    expect(JSON.parse(unknown)).toEqual({
      error: {
        code: "USAGE_ERROR",
        message: "unknown field nope for --fields: use authd, node",
      },
    });
    const empty = usageError(await runAuthd(["version", "--fields", " , "]));
    expect(empty).toContain("expected field names");
  });

  it("-q prints the command's key value alone", async () => {
    expect(ok(await runAuthd(["version", "-q"]))).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(ok(await runAuthd(["secret", "generate", "--quiet"]))).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    expect(ok(await runAuthd(["secret", "generate", "-o", "env"]))).toMatch(
      /^SECRET=[A-Za-z0-9_-]{43}\n$/,
    );
    const yaml = parseYaml(
      ok(await runAuthd(["secret", "generate", "-o", "yaml", "--bytes", "48"])),
    );
    expect(Object.keys(yaml)).toEqual(["secret"]);
    expect(yaml.secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
  });

  it("$AUTHD_OUTPUT sets the default format; flags win; a bad value exits 2 before any work", async () => {
    const json = ok(await runAuthd(["version"], { env: { AUTHD_OUTPUT: "json" } }));
    expect(JSON.parse(json)).toMatchObject({ node: process.versions.node });
    const yaml = ok(await runAuthd(["version", "-o", "yaml"], { env: { AUTHD_OUTPUT: "json" } }));
    expect(parseYaml(yaml)).toMatchObject({ node: process.versions.node });
    const aliased = ok(await runAuthd(["version", "--json"], { env: { AUTHD_OUTPUT: "csv" } }));
    expect(JSON.parse(aliased)).toMatchObject({ node: process.versions.node });
    const bad = usageError(
      await runAuthd(["migrate", "down", "--yes"], { env: { ...db, AUTHD_OUTPUT: "xml" } }),
    );
    expect(bad).toContain('unknown output format "xml"');
    // Refused before the command ran: nothing was reverted.
    const status = JSON.parse(ok(await runAuthd(["migrate", "status", "--json"], { env: db })));
    expect(status.upToDate).toBe(true);
  });

  it("$AUTHD_OUTPUT counts from ./.env too, under the shell's own", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "authd-output-env-"));
    try {
      await writeFile(path.join(dir, ".env"), "AUTHD_OUTPUT=json\n");
      const json = ok(await runAuthd(["version"], { cwd: dir }));
      expect(JSON.parse(json)).toMatchObject({ node: process.versions.node });
      const yaml = ok(await runAuthd(["version"], { cwd: dir, env: { AUTHD_OUTPUT: "yaml" } }));
      expect(parseYaml(yaml)).toMatchObject({ node: process.versions.node });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("an unknown -o value or --profile value is a usage error", async () => {
    expect(usageError(await runAuthd(["version", "-o", "xml"]))).toContain(
      "Allowed choices are human, json, jsonl, yaml, csv, env",
    );
    expect(usageError(await runAuthd(["--profile", "prod", "version"]))).toContain(
      "Allowed choices are dev, test, production",
    );
  });
});

interface Setting {
  key: string;
  value: unknown;
  source: string;
  variable?: string;
}

describe("a list: config show (settings)", () => {
  const env = { PORT: "5000", AUTHD_SECRET: "output-test-secret-0123456789-abcdefghij" };
  let document: { file: string | null; revealed: boolean; settings: Setting[] };

  beforeAll(async () => {
    document = JSON.parse(ok(await runAuthd(["config", "show", "--json"], { cwd, env })));
    expect(document.settings.find((setting) => setting.key === "server.port")).toEqual({
      key: "server.port",
      value: 5000,
      source: "env",
      variable: "PORT",
    });
  });

  it("YAML is the same document; jsonl one setting per line; csv a header and rows", async () => {
    const yaml = ok(await runAuthd(["config", "show", "-o", "yaml"], { cwd, env }));
    expect(parseYaml(yaml)).toEqual(document);
    const jsonl = ok(await runAuthd(["config", "show", "-o", "jsonl"], { cwd, env }));
    expect(
      jsonl
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual(document.settings);
    const csv = ok(await runAuthd(["config", "show", "-o", "csv"], { cwd, env }));
    const rows = csv.trimEnd().split("\r\n");
    expect(rows[0]).toBe("key,value,source,variable");
    expect(rows).toHaveLength(document.settings.length + 1);
    expect(rows).toContain("server.port,5000,env,PORT");
    expect(rows).toContain("secret,***,env,AUTHD_SECRET");
    expect(rows).toContain("basePath,/api/auth,default,");
    expect(csv).not.toContain(env.AUTHD_SECRET);
  });

  it("-q prints the keys; --fields narrows each setting; -o env refuses a list", async () => {
    expect(ok(await runAuthd(["config", "show", "-q"], { cwd, env }))).toBe(
      document.settings.map((setting) => `${setting.key}\n`).join(""),
    );
    const narrowed = JSON.parse(
      ok(await runAuthd(["config", "show", "--json", "--fields", "key,source"], { cwd, env })),
    );
    expect(narrowed).toEqual({
      ...document,
      settings: document.settings.map(({ key, source }) => ({ key, source })),
    });
    const table = ok(await runAuthd(["config", "show", "--fields", "source,key"], { cwd, env }));
    expect(table).toMatch(/^SOURCE\s+KEY\n/);
    expect(table).toMatch(/\nenv\s+server\.port\n/);
    const unknown = usageError(
      await runAuthd(["config", "show", "--fields", "key,colour"], { cwd, env }),
    );
    expect(unknown).toBe(
      "authd: unknown field colour for --fields: use key, value, source, variable\nsee 'authd config show --help'\n",
    );
    const listAsEnv = usageError(await runAuthd(["config", "show", "-o", "env"], { cwd, env }));
    expect(JSON.parse(listAsEnv)).toEqual({
      error: {
        code: "USAGE_ERROR",
        message: "-o env prints a single record; use -o csv or -o jsonl for lists",
      },
    });
  });

  it("a reader that leaves early (| head -1, | true) is no error", () => {
    const pipe = (command: string) =>
      spawnSync(
        "bash",
        ["-o", "pipefail", "-c", `"${process.execPath}" "${AUTHD_BIN}" ${command}`],
        {
          cwd,
          encoding: "utf8",
          env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        },
      );
    const head = pipe("config show -q | head -1");
    expect(head.status, head.stderr).toBe(0);
    expect(head.stdout).toBe(`${document.settings[0]?.key}\n`);
    // `true` reads nothing and is gone before authd writes: every write meets EPIPE.
    for (const command of ["config show | true", "config show -o csv | true"]) {
      const gone = pipe(command);
      expect(gone.status, `${command}: ${gone.stderr}`).toBe(0);
      expect(gone.stderr).not.toContain("EPIPE");
    }
  });
});

describe("a list from the database: migrate status", () => {
  let document: {
    database: string;
    upToDate: boolean;
    migrations: { name: string; status: string; runOn: string | null }[];
  };

  beforeAll(async () => {
    document = JSON.parse(ok(await runAuthd(["migrate", "status", "--json"], { env: db })));
    expect(document.migrations.map((row) => row.name)).toEqual(files);
    expect(document.migrations.every((row) => row.status === "applied")).toBe(true);
  });

  it("YAML, jsonl and csv carry the same rows", async () => {
    const yaml = ok(await runAuthd(["migrate", "status", "-o", "yaml"], { env: db }));
    expect(parseYaml(yaml)).toEqual(document);
    const jsonl = ok(await runAuthd(["migrate", "status", "-o", "jsonl"], { env: db }));
    expect(jsonl).toBe(document.migrations.map((row) => `${JSON.stringify(row)}\n`).join(""));
    const csv = ok(await runAuthd(["migrate", "status", "-o", "csv"], { env: db }));
    expect(csv).toBe(
      [
        "name,status,runOn",
        ...document.migrations.map((row) => `${row.name},${row.status},${row.runOn}`),
        "",
      ].join("\r\n"),
    );
  });

  it("-q, --fields and -o env", async () => {
    expect(ok(await runAuthd(["migrate", "status", "-q"], { env: db }))).toBe(
      files.map((name) => `${name}\n`).join(""),
    );
    const csv = ok(
      await runAuthd(["migrate", "status", "-o", "csv", "--fields", "status,name"], { env: db }),
    );
    expect(csv).toBe(["status,name", ...files.map((name) => `applied,${name}`), ""].join("\r\n"));
    const json = JSON.parse(
      ok(await runAuthd(["migrate", "status", "--json", "--fields", "name"], { env: db })),
    );
    expect(json).toEqual({ ...document, migrations: files.map((name) => ({ name })) });
    const unknown = usageError(
      await runAuthd(["migrate", "status", "--fields", "when", "--json"], { env: db }),
    );
    expect(JSON.parse(unknown).error.message).toBe(
      "unknown field when for --fields: use name, status, runOn",
    );
    usageError(await runAuthd(["migrate", "status", "-o", "env"], { env: db }));
  });
});

describe("--timeout", () => {
  let server: net.Server;
  let port: number;
  const sockets = new Set<net.Socket>();

  beforeAll(async () => {
    // Accepts and never answers: a database that hangs.
    server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it("gives up with exit 75 and the TIMEOUT code", async () => {
    const started = Date.now();
    const result = await runAuthd(["migrate", "status", "--timeout", "1", "--json"], {
      env: { DATABASE_URL: `postgres://authd@127.0.0.1:${port}/authd` },
      timeoutMs: 20_000,
    });
    expect(result.code, result.stderr).toBe(75);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(result.stdout).toBe("");
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: "TIMEOUT",
        message:
          "timed out after 1 s (--timeout); an open transaction is rolled back; safe to retry",
      },
    });
    const human = await runAuthd(["migrate", "status", "--timeout", "500ms"], {
      env: { DATABASE_URL: `postgres://authd@127.0.0.1:${port}/authd` },
      timeoutMs: 20_000,
    });
    expect(human.code).toBe(75);
    expect(human.stderr).toBe(
      "authd: timed out after 0.5 s (--timeout); an open transaction is rolled back; safe to retry\n",
    );
    expect(usageError(await runAuthd(["version", "--timeout", "soon"]))).toContain(
      "expected a duration like 30s, 2m or 500ms",
    );
  });
});
