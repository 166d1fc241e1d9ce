/**
 * authd outside its checkout: the tarball `npm pack` makes installs into an empty
 * folder, where `init`, `config validate`, `migrate` and `serve` work and answer /ok
 * and a sign-up; installed globally, it loads the config file `init` wrote (whose
 * `import … from "authd"` has no authd beside it to resolve to). Real npm, real
 * registry (its cache first), real PostgreSQL.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, ROOT, runAuthd, runProcess, startServe } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

/** npm reaches the registry as the machine does; nothing else of the shell leaks in. */
function npmEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
  for (const key of ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "npm_config_registry"]) {
    if (process.env[key]) env[key] = process.env[key];
  }
  return env;
}

function npm(args: string[], cwd: string): Promise<CliResult> {
  return runProcess("npm", args, { cwd, env: npmEnv(), timeoutMs: 240_000 });
}

function expectSuccess(result: CliResult, label: string): void {
  expect(result.code, `${label}\n${result.stdout}\n${result.stderr}`).toBe(0);
}

let work: string;
let tarball: string;
let testDatabase: TestDatabase;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "authd-package-"));
  testDatabase = await createTestDatabase();
  // dist/ is built by `npm test` already: packing must not rebuild it under the other tests.
  const packed = await npm(["pack", "--ignore-scripts", "--pack-destination", work], ROOT);
  expectSuccess(packed, "npm pack");
  const name = (await readdir(work)).find((file) => /^authd-.*\.tgz$/.test(file));
  if (!name) throw new Error(`no tarball in ${work}: ${packed.stdout}`);
  tarball = path.join(work, name);
}, 120_000);

afterAll(async () => {
  await testDatabase?.drop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  it("holds the built program, migrations and templates, and nothing of the checkout's own", async () => {
    const listed = await runProcess("tar", ["-tzf", tarball], { cwd: work });
    expectSuccess(listed, "tar");
    const files = listed.stdout.split("\n").filter(Boolean);
    for (const needed of [
      "package/dist/bin/authd.cjs",
      "package/dist/server/index.js",
      "package/dist/server/define-config.js",
      "package/migrations/0001_initial-schema.sql",
      "package/templates/init/authd.config.ts.template",
      "package/templates/email/invitation.html",
      "package/README.md",
    ]) {
      expect(files).toContain(needed);
    }
    expect(files.filter((file) => /^package\/(tests|bench|patches|\.ci)\//.test(file))).toEqual([]);
  });

  it("installs into an empty folder, where init, config validate, migrate and serve work", async () => {
    const app = path.join(work, "app");
    await mkdir(app);
    await writeFile(
      path.join(app, "package.json"),
      JSON.stringify({ name: "my-app", version: "1.0.0", private: true }),
    );
    expectSuccess(
      await npm(["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], app),
      "npm install",
    );
    const bin = path.join(app, "node_modules", ".bin", "authd");
    const authd = (args: string[], env: Record<string, string> = {}) =>
      runProcess(bin, args, { cwd: app, env, timeoutMs: 60_000 });

    const init = await authd(["init", "--no-input"]);
    expectSuccess(init, "authd init");
    const written = await readFile(path.join(app, "authd.config.ts"), "utf8");
    expect(written).toContain('import { defineConfig } from "authd";');

    const validated = await authd(["config", "validate"]);
    expectSuccess(validated, "authd config validate");
    expect(validated.stdout).toContain(`valid (${path.join(app, "authd.config.ts")})`);

    const env = { DATABASE_URL: testDatabase.url };
    expectSuccess(await authd(["migrate"], env), "authd migrate");

    const server = await startServe([], { bin, cwd: app, env });
    try {
      const ok = await fetch(`${server.url}/api/auth/ok`);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ ok: true });
      // The origin init wrote as baseURL (localhost) is trusted from 127.0.0.1 alike.
      const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        body: JSON.stringify({
          email: "first@example.com",
          password: "a-long-password",
          name: "First User",
        }),
      });
      expect(signUp.status, await signUp.clone().text()).toBe(200);
      const body = (await signUp.json()) as { user: { email: string } };
      expect(body.user.email).toBe("first@example.com");
      expect(server.output()).toContain('"config":');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("installed globally, loads the config file init wrote where no authd is installed", async () => {
    const prefix = path.join(work, "global");
    expectSuccess(
      await npm(
        [
          "install",
          "--global",
          "--prefix",
          prefix,
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
          tarball,
        ],
        work,
      ),
      "npm install --global",
    );
    const project = path.join(work, "project");
    await mkdir(project);
    const bin = path.join(prefix, "bin", "authd");
    const init = await runProcess(bin, ["init", "--no-input"], { cwd: project });
    expectSuccess(init, "global authd init");
    const validated = await runProcess(bin, ["config", "validate"], { cwd: project });
    expectSuccess(validated, "global authd config validate");
    expect(validated.stdout).toContain("valid (");

    // The checkout's own executable, run from a folder outside it, loads it too.
    const elsewhere = path.join(work, "elsewhere");
    await mkdir(elsewhere);
    await copyFile(path.join(project, "authd.config.ts"), path.join(elsewhere, "authd.config.ts"));
    const fromCheckout = await runAuthd(["config", "validate"], { cwd: elsewhere });
    expectSuccess(fromCheckout, "checkout authd config validate");
  });
});
