import { randomBytes, scryptSync } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import bcrypt from "bcryptjs";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthd } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

let testDatabase: TestDatabase;
let env: Record<string, string>;
let sql: postgres.Sql;
let dir: string;
const SECRET = "cli-test-secret-0123456789-0123456789";
const PASSWORD = "imported password";
const BCRYPT = bcrypt.hashSync(PASSWORD, 4);
const SCRYPT = (() => {
  const salt = randomBytes(16).toString("hex");
  const key = scryptSync(PASSWORD, salt, 64, { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 });
  return `${salt}:${key.toString("hex")}`;
})();

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  env = { DATABASE_URL: testDatabase.url, AUTHD_SECRET: SECRET };
  const migrated = await runAuthd(["migrate"], { env });
  expect(migrated.code, migrated.stderr).toBe(0);
  sql = postgres(testDatabase.url, { max: 1, onnotice: () => {} });
  dir = await mkdtemp(path.join(tmpdir(), "authd-user-import-"));
});

afterAll(async () => {
  await sql?.end();
  await testDatabase?.drop();
});

function authd(args: string[], input?: string) {
  return runAuthd(args, { env, input });
}

async function file(name: string, content: string): Promise<string> {
  const target = path.join(dir, name);
  await writeFile(target, content);
  return target;
}

const jsonl = (records: unknown[]) =>
  `${records.map((record) => JSON.stringify(record)).join("\n")}\n`;

interface Row {
  email: string;
  name: string;
  role: string | null;
  email_verified: boolean;
  created_at: Date;
  password: string | null;
}

async function usersOf(domain: string): Promise<Row[]> {
  return sql<Row[]>`
    select u.email, u.name, u.role, u.email_verified, u.created_at, a.password
    from "user" u left join account a on a.user_id = u.id and a.provider_id = 'credential'
    where u.email like ${`%@${domain}`} order by u.email`;
}

async function importAudits(): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from audit_event where action = 'admin.import_users'`;
  return row?.count ?? 0;
}

describe("authd user import", () => {
  it("imports jsonl with bcrypt, scrypt and plain passwords, roles and createdAt (exit 0)", async () => {
    const input = await file(
      "users.jsonl",
      jsonl([
        {
          email: "Bcrypt@ok.test",
          name: "B",
          passwordHash: BCRYPT,
          emailVerified: true,
          createdAt: "2021-03-04T05:06:07Z",
        },
        { email: "scrypt@ok.test", passwordHash: SCRYPT, role: "admin" },
        { email: "plain@ok.test", password: PASSWORD },
        { email: "nopass@ok.test", name: null },
      ]),
    );
    const auditsBefore = await importAudits();
    const result = await authd(["user", "import", input, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ created: 4, updated: 0, skipped: 0, failed: [] });
    expect(result.stderr).toContain("batch 1/1: 4/4 records written (through record 4)");
    const rows = await usersOf("ok.test");
    expect(rows.map((row) => row.email)).toEqual([
      "bcrypt@ok.test",
      "nopass@ok.test",
      "plain@ok.test",
      "scrypt@ok.test",
    ]);
    const [b, nopass, plain, s] = rows;
    expect(b).toMatchObject({ name: "B", role: "user", email_verified: true, password: BCRYPT });
    expect(b?.created_at.toISOString()).toBe("2021-03-04T05:06:07.000Z");
    expect(s).toMatchObject({ role: "admin", email_verified: false, password: SCRYPT });
    expect(plain?.password).toMatch(/^\$argon2id\$/);
    expect(nopass?.password).toBeNull();
    expect(await importAudits()).toBe(auditsBefore + 1);
    const [audit] = await sql<{ actor_type: string; details: { created: string[] } }[]>`
      select actor_type, details from audit_event where action = 'admin.import_users'
      order by created_at desc limit 1`;
    expect(audit?.actor_type).toBe("cli");
    expect(audit?.details.created).toHaveLength(4);
  });

  it("validates every record first: errors with record and line numbers, exit 2, nothing written", async () => {
    const input = await file(
      "bad.jsonl",
      [
        JSON.stringify({ email: "good@bad.test", passwordHash: BCRYPT }),
        JSON.stringify({ email: "not-an-email" }),
        "",
        "{not json",
        JSON.stringify({ email: "extra@bad.test", passwordhash: BCRYPT }),
        JSON.stringify({ email: "scrypt@bad.test", passwordHash: SCRYPT }),
        JSON.stringify({ email: "GOOD@bad.test" }),
        JSON.stringify({ email: "short@bad.test", password: "x" }),
        JSON.stringify({ email: "role@bad.test", role: "root" }),
        JSON.stringify({ email: "hash@bad.test", passwordHash: "md5:abc" }),
        "",
      ].join("\n"),
    );
    const result = await authd(["user", "import", input, "--hash", "bcrypt", "--json"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const { error } = JSON.parse(result.stderr.trim().split("\n").at(-1) ?? "");
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.message).toContain("8 of 9 records are invalid; nothing was imported");
    expect(
      error.details.map((failure: { record: number; line: number; code: string }) => [
        failure.record,
        failure.line,
        failure.code,
      ]),
    ).toEqual([
      [2, 2, "INVALID_EMAIL"],
      [3, 4, "VALIDATION_ERROR"],
      [4, 5, "VALIDATION_ERROR"],
      [5, 6, "VALIDATION_ERROR"],
      [6, 7, "VALIDATION_ERROR"],
      [7, 8, "PASSWORD_TOO_SHORT"],
      [8, 9, "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE"],
      [9, 10, "VALIDATION_ERROR"],
    ]);
    const messages = error.details.map((failure: { message: string }) => failure.message);
    expect(messages[1]).toContain("not valid JSON");
    expect(messages[2]).toContain("unknown field passwordhash");
    expect(messages[3]).toContain("not a bcrypt hash as --hash declares (it looks like scrypt)");
    expect(messages[4]).toContain("appears twice in the file (also record 1)");
    expect(messages[7]).toContain("no supported format");
    expect(await usersOf("bad.test")).toEqual([]);

    const human = await authd(["user", "import", input, "--hash", "bcrypt"]);
    expect(human.code).toBe(2);
    expect(human.stderr).toContain("record 2 (line 2): INVALID_EMAIL: Invalid email");
  });

  it("--continue-on-error writes the good records, reports the bad ones and exits 6", async () => {
    const input = await file(
      "mixed.jsonl",
      jsonl([
        { email: "one@mixed.test", passwordHash: BCRYPT },
        { email: "broken" },
        { email: "two@mixed.test", emailVerified: "yes" },
        { email: "three@mixed.test", password: PASSWORD },
      ]),
    );
    const result = await authd(["user", "import", input, "--continue-on-error", "--json"]);
    expect(result.code).toBe(6);
    expect(JSON.parse(result.stdout)).toEqual({
      created: 2,
      updated: 0,
      skipped: 0,
      failed: [
        {
          record: 2,
          line: 2,
          email: "broken",
          code: "INVALID_EMAIL",
          message: "Invalid email",
        },
        {
          record: 3,
          line: 3,
          email: "two@mixed.test",
          code: "VALIDATION_ERROR",
          message: "emailVerified: expected true or false",
        },
      ],
    });
    expect((await usersOf("mixed.test")).map((row) => row.email)).toEqual([
      "one@mixed.test",
      "three@mixed.test",
    ]);
    // jsonl: one line per record, with the id of each user written.
    const again = await authd([
      "user",
      "import",
      input,
      "--continue-on-error",
      "--if-exists",
      "skip",
      "-o",
      "jsonl",
    ]);
    expect(again.code).toBe(6);
    const lines = again.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(
      lines.map((line: { record: number; status: string }) => [line.record, line.status]),
    ).toEqual([
      [1, "skipped"],
      [2, "failed"],
      [3, "failed"],
      [4, "skipped"],
    ]);
    expect(lines[0].id).toMatch(/^\S+$/);
  });

  it("--if-exists: fail exits 4, skip skips, update changes fields and the password", async () => {
    const input = await file(
      "again.jsonl",
      jsonl([
        { email: "bcrypt@ok.test", name: "Renamed", passwordHash: SCRYPT },
        { email: "new@again.test", passwordHash: BCRYPT },
      ]),
    );
    const fail = await authd(["user", "import", input, "--json"]);
    expect(fail.code).toBe(4);
    const { error } = JSON.parse(fail.stderr.trim().split("\n").at(-1) ?? "");
    expect(error.code).toBe("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
    expect(error.details).toEqual([
      {
        record: 1,
        line: 1,
        email: "bcrypt@ok.test",
        code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
        message: "bcrypt@ok.test already exists (--if-exists skip or update to accept it)",
      },
    ]);
    expect(await usersOf("again.test")).toEqual([]);

    const skip = await authd(["user", "import", input, "--if-exists", "skip", "--json"]);
    expect(skip.code, skip.stderr).toBe(0);
    expect(JSON.parse(skip.stdout)).toEqual({ created: 1, updated: 0, skipped: 1, failed: [] });
    const [kept] = await usersOf("ok.test");
    expect(kept).toMatchObject({ email: "bcrypt@ok.test", name: "B", password: BCRYPT });

    const update = await authd(["user", "import", input, "--if-exists", "update", "--json"]);
    expect(update.code, update.stderr).toBe(0);
    expect(JSON.parse(update.stdout)).toEqual({ created: 0, updated: 2, skipped: 0, failed: [] });
    const [changed] = await usersOf("ok.test");
    expect(changed).toMatchObject({ email: "bcrypt@ok.test", name: "Renamed", password: SCRYPT });
    // createdAt is history: an update keeps it.
    expect(changed?.created_at.toISOString()).toBe("2021-03-04T05:06:07.000Z");
  });

  it("reads RFC 4180 CSV (format from the extension) and JSON from stdin", async () => {
    const csv = await file(
      "people.csv",
      [
        "email,name,emailVerified,passwordHash,role",
        `ann@csv.test,"Smith, Ann",true,${BCRYPT},`,
        `bob@csv.test,"Bob ""B""\r\nJones",false,,admin`,
        "",
        "cid@csv.test,Cid,1,,",
      ].join("\r\n"),
    );
    const result = await authd(["user", "import", csv, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ created: 3, failed: [] });
    const rows = await usersOf("csv.test");
    expect(rows.map((row) => [row.email, row.name, row.email_verified, row.role])).toEqual([
      ["ann@csv.test", "Smith, Ann", true, "user"],
      ["bob@csv.test", 'Bob "B"\r\nJones', false, "admin"],
      ["cid@csv.test", "Cid", true, "user"],
    ]);
    expect(rows[0]?.password).toBe(BCRYPT);

    const broken = await file("broken.csv", 'email,name\nx@csv2.test,"never closed\n');
    const bad = await authd(["user", "import", broken, "--json"]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error.message).toContain(
      "line 2: a quoted field is never closed",
    );

    const stdin = await authd(
      ["user", "import", "-", "-q"],
      JSON.stringify([{ email: "one@stdin.test" }, { email: "two@stdin.test" }]),
    );
    expect(stdin.code, stdin.stderr).toBe(0);
    expect(stdin.stderr).toBe("");
    const ids = await sql<{ id: string }[]>`
      select id from "user" where email like '%@stdin.test' order by email`;
    expect(stdin.stdout).toBe(`${ids[0]?.id}\n${ids[1]?.id}\n`);

    const unknown = await authd(["user", "import", await file("users.txt", "email\n")]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("give --format");
  });

  it("--batch-size and --resume-from: one transaction and one audit row per batch", async () => {
    const input = await file(
      "batches.jsonl",
      jsonl([1, 2, 3, 4, 5, 6, 7].map((n) => ({ email: `u${n}@batch.test` }))),
    );
    const auditsBefore = await importAudits();
    const result = await authd([
      "user",
      "import",
      input,
      "--batch-size",
      "2",
      "--resume-from",
      "2",
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ created: 5, updated: 0, skipped: 0, failed: [] });
    expect(result.stderr).toContain("Skipping the first 2 record(s)");
    expect(result.stderr.match(/^batch \d\/3: .*$/gm)).toEqual([
      "batch 1/3: 2/5 records written (through record 4)",
      "batch 2/3: 4/5 records written (through record 6)",
      "batch 3/3: 5/5 records written (through record 7)",
    ]);
    expect((await usersOf("batch.test")).map((row) => row.email)).toEqual([
      "u3@batch.test",
      "u4@batch.test",
      "u5@batch.test",
      "u6@batch.test",
      "u7@batch.test",
    ]);
    expect(await importAudits()).toBe(auditsBefore + 3);
  });

  it("--dry-run prints the result and writes nothing", async () => {
    const input = await file(
      "dry.jsonl",
      jsonl([
        { email: "a@dry.test", password: PASSWORD },
        { email: "b@dry.test", passwordHash: BCRYPT },
      ]),
    );
    const auditsBefore = await importAudits();
    const result = await authd(["user", "import", input, "--dry-run", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ created: 2, updated: 0, skipped: 0, failed: [] });
    expect(result.stderr).toContain("Dry run: nothing was written.");
    expect(await usersOf("dry.test")).toEqual([]);
    expect(await importAudits()).toBe(auditsBefore);
  });
});
