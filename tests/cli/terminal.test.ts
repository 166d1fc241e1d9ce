/**
 * The confirmation policy on a terminal: moderate actions prompt
 * and do nothing unless confirmed; severe ones need --confirm= even there. The non-TTY
 * rules are tested with each command.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthd, runAuthdInTerminal } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let env: Record<string, string>;
let sql: postgres.Sql;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  env = { DATABASE_URL: testDatabase.url, AUTHD_SECRET: "tty-test-secret-0123456789-0123456789" };
  expect((await runAuthd(["migrate"], { env })).code).toBe(0);
  sql = postgres(testDatabase.url, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await testDatabase?.drop();
});

async function applied(): Promise<boolean> {
  const status = await runAuthd(["migrate", "status", "--json"], { env });
  return JSON.parse(status.stdout).upToDate === true;
}

describe("prompts on a terminal", () => {
  it("migrate down asks; no keeps everything, yes reverts", async () => {
    const declined = await runAuthdInTerminal(
      ["migrate", "down"],
      [{ waitFor: "(y/N)", keys: "n\r" }],
      {
        env,
      },
    );
    expect(declined.code).toBe(0);
    expect(declined.stdout).toContain("Revert 1 migration(s)?");
    expect(declined.stdout).toContain("Nothing reverted.");
    expect(await applied()).toBe(true);

    const confirmed = await runAuthdInTerminal(
      ["migrate", "down"],
      [{ waitFor: "(y/N)", keys: "y\r" }],
      {
        env,
      },
    );
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toContain("Reverted 1 migration(s)");
    expect(await applied()).toBe(false);
    expect((await runAuthd(["migrate"], { env })).code).toBe(0);
  });

  it("user delete asks before deleting one user", async () => {
    const created = await runAuthd(
      ["user", "create", "--email", "tty@example.test", "--no-password", "--json"],
      {
        env,
      },
    );
    expect(created.code, created.stderr).toBe(0);
    const declined = await runAuthdInTerminal(
      ["user", "delete", "tty@example.test"],
      [{ waitFor: "(y/N)", keys: "n\r" }],
      { env },
    );
    expect(declined.code).toBe(0);
    expect(await sql`select id from "user" where email = 'tty@example.test'`).toHaveLength(1);
    const confirmed = await runAuthdInTerminal(
      ["user", "delete", "tty@example.test"],
      [{ waitFor: "(y/N)", keys: "y\r" }],
      { env },
    );
    expect(confirmed.code).toBe(0);
    expect(await sql`select id from "user" where email = 'tty@example.test'`).toHaveLength(0);
  });

  it("AUTHD_NO_INPUT in ./.env turns prompts off, on a terminal too", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "authd-no-input-"));
    try {
      await writeFile(path.join(dir, ".env"), "AUTHD_NO_INPUT=1\n");
      const created = await runAuthd(
        ["user", "create", "--email", "tty-env@example.test", "--no-password", "--json"],
        { env },
      );
      expect(created.code, created.stderr).toBe(0);
      const refused = await runAuthdInTerminal(["user", "delete", "tty-env@example.test"], [], {
        env,
        cwd: dir,
      });
      expect(refused.code).toBe(2);
      expect(refused.stdout).toContain("--yes");
      expect(await sql`select id from "user" where email = 'tty-env@example.test'`).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("--no-color and AUTHD_NO_COLOR take the colour out of prompts", async () => {
    const created = await runAuthd(
      ["user", "create", "--email", "tty-plain@example.test", "--no-password", "--json"],
      { env },
    );
    expect(created.code, created.stderr).toBe(0);
    const coloured = await runAuthdInTerminal(
      ["user", "delete", "tty-plain@example.test"],
      [{ waitFor: "y/N)", keys: "n\r" }],
      { env },
    );
    // The check below means something only if prompts are coloured by default.
    expect(coloured.stdout).toContain("\u001b[1m");
    for (const [args, extra] of [
      [["--no-color"], {}],
      [[], { AUTHD_NO_COLOR: "1" }],
    ] as const) {
      const plain = await runAuthdInTerminal(
        ["user", "delete", "tty-plain@example.test", ...args],
        [{ waitFor: "y/N)", keys: "n\r" }],
        { env: { ...env, ...extra } },
      );
      expect(plain.code).toBe(0);
      expect(plain.stdout).toContain("Delete tty-plain@example.test");
      expect(plain.stdout).not.toContain("\u001b[2m");
      expect(plain.stdout).not.toContain("\u001b[1m");
    }
  });

  it("a severe action still needs --confirm= on a terminal", async () => {
    await sql`insert into "user" (id, email, name) values ('tty-owner', 'tty-owner@example.test', 'O')`;
    const org = await runAuthd(
      ["org", "create", "--name", "TTY", "--slug", "tty-org", "--owner", "tty-owner@example.test"],
      { env },
    );
    expect(org.code, org.stderr).toBe(0);
    const refused = await runAuthdInTerminal(["org", "delete", "tty-org", "--yes"], [], { env });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain("needs --confirm=<slug> (even with --yes)");
    expect(await sql`select id from organization where slug = 'tty-org'`).toHaveLength(1);
  });
});
