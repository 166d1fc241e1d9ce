/**
 * The CLI's ways in for an email (user create and update, org invitations, seed
 * files, user import) refuse disguised addresses as HTTP does, and write nothing.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISGUISED_EMAILS } from "../fixtures/disguised-emails.js";
import { cliError, runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

/**
 * The HTTP tests try every range; here each way in shows it applies the same rule,
 * with one sample of each kind (every spawn costs a start of authd).
 */
const SAMPLES = DISGUISED_EMAILS.filter(([label]) =>
  [
    "backspace (C0)",
    "next line (C1)",
    "zero-width space",
    "right-to-left override",
    "byte-order mark at the start",
  ].includes(label),
);

let testDatabase: TestDatabase;
let sql: postgres.Sql;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  env = { DATABASE_URL: testDatabase.url };
  dir = await mkdtemp(path.join(os.tmpdir(), "authd-cli-email-"));
  expect((await runAuthd(["migrate"], { env })).code).toBe(0);
  sql = postgres(testDatabase.url, { max: 1, onnotice: () => {} });
  const owner = await runAuthd(
    ["user", "create", "--email", "owner@example.test", "--no-password"],
    {
      env,
    },
  );
  expect(owner.code, owner.stderr).toBe(0);
  const org = await runAuthd(
    ["org", "create", "--name", "Acme", "--slug", "acme", "--owner", "owner@example.test"],
    { env },
  );
  expect(org.code, org.stderr).toBe(0);
});

afterAll(async () => {
  await sql?.end();
  if (dir) await rm(dir, { recursive: true, force: true });
  await testDatabase?.drop();
});

async function counts(): Promise<{ users: number; invitations: number }> {
  const [row] = await sql<{ users: number; invitations: number }[]>`
    select (select count(*)::int from "user") as users,
           (select count(*)::int from invitation) as invitations`;
  return row ?? { users: -1, invitations: -1 };
}

describe("disguised addresses on the command line", () => {
  it("user create, user update and org invite create answer INVALID_EMAIL (exit 2)", async () => {
    const before = await counts();
    expect(SAMPLES).toHaveLength(5);
    for (const [label, email] of SAMPLES) {
      const created = await runAuthd(
        ["user", "create", "--email", email, "--no-password", "--json"],
        { env },
      );
      expect(created.code, label).toBe(2);
      expect(cliError(created).code, label).toBe("INVALID_EMAIL");
      const updated = await runAuthd(
        ["user", "update", "owner@example.test", "--email", email, "--json"],
        { env },
      );
      expect(updated.code, label).toBe(2);
      expect(cliError(updated).code, label).toBe("INVALID_EMAIL");
      const invited = await runAuthd(
        [
          "org",
          "invite",
          "create",
          "acme",
          "--email",
          email,
          "--role",
          "member",
          "--no-send",
          "--json",
        ],
        { env },
      );
      expect(invited.code, label).toBe(2);
      expect(cliError(invited).code, label).toBe("INVALID_EMAIL");
    }
    expect(await counts()).toEqual(before);
    const [owner] = await sql`select email from "user" where email = 'owner@example.test'`;
    expect(owner).toBeDefined();
  });

  it("a seed file with one refuses the whole file, naming where", async () => {
    const before = await counts();
    for (const [label, email] of SAMPLES) {
      const file = path.join(dir, "seed.json");
      await writeFile(
        file,
        JSON.stringify({
          version: 1,
          users: [{ email: "fine@example.test" }, { email }],
        }),
      );
      const result = await runAuthd(["db", "seed", file, "--json"], { env });
      expect(result.code, label).toBe(2);
      expect(cliError(result).details).toMatchObject({
        issues: [{ path: "users[1].email", message: "not a valid email address" }],
      });
    }
    expect(await counts()).toEqual(before);
  });

  it("user import refuses the record, naming its line, and writes nothing", async () => {
    const before = await counts();
    for (const [label, email] of SAMPLES) {
      const file = path.join(dir, "users.jsonl");
      await writeFile(
        file,
        `${JSON.stringify({ email: "fine@example.test" })}\n${JSON.stringify({ email })}\n`,
      );
      const result = await runAuthd(["user", "import", file, "--json"], { env });
      expect(result.code, label).toBe(2);
      expect(JSON.stringify(cliError(result)), label).toContain("INVALID_EMAIL");
    }
    expect(await counts()).toEqual(before);
  });
});
