/**
 * `authd import better-auth`: a real Better Auth database, made by the better-auth
 * package through its own API and migrations (bob's social account by a round trip
 * through a real OpenID provider on loopback), imported by the built CLI into migrated
 * authd databases, then served by `authd serve` and used over HTTP, where bob signs in
 * at the same provider.
 * About 15 s: Better Auth's scrypt sign-ups, twenty CLI runs and one server.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTokenCipher } from "../../server/social/token-crypto.js";
import {
  BETTER_AUTH_ORIGIN,
  BETTER_AUTH_SECRET,
  type BetterAuthSource,
  BOB_AT_PROVIDER,
  createBetterAuthSource,
  PASSWORDS,
  SOCIAL_PROVIDER_ID,
  SOCIAL_REDIRECT_URI,
} from "../helpers/better-auth.js";
import {
  type CliResult,
  runAuthd,
  runAuthdInTerminal,
  type ServeProcess,
  startServe,
} from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { startOidcProvider, type TestOidcProvider } from "../helpers/oidc.js";

interface TableCounts {
  table: string;
  source: number;
  imported: number;
  unchanged: number;
  skipped: number;
}

interface Report {
  source: { database: string; schema: string; naming: string };
  dryRun: boolean;
  sessions: boolean;
  refused: boolean;
  items: TableCounts[];
  conflicts: Array<{ table: string; key: string; sourceId: string; authdId?: string }>;
  warnings: Array<{ table: string; message: string; count: number }>;
}

interface Target {
  database: TestDatabase;
  sql: postgres.Sql;
}

const ORIGIN = BETTER_AUTH_ORIGIN;
let idp: TestOidcProvider;
let source: BetterAuthSource;
const targets: Target[] = [];
let dir: string;

/** A migrated, empty authd database. */
async function createTarget(): Promise<Target> {
  const database = await createTestDatabase();
  const migrated = await runAuthd(["migrate"], { env: { DATABASE_URL: database.url } });
  expect(migrated.code, migrated.stderr).toBe(0);
  const target = { database, sql: postgres(database.url, { max: 1, onnotice: () => {} }) };
  targets.push(target);
  return target;
}

function importInto(target: Target, args: string[]) {
  return runAuthd(["import", "better-auth", "--from", source.database.url, ...args], {
    env: { DATABASE_URL: target.database.url, AUTHD_SECRET: BETTER_AUTH_SECRET },
  });
}

/** The `{"error": …}` line `--json` ends stderr with (progress lines come before it). */
function cliError(result: CliResult): { code: string; message: string; details?: unknown } {
  return JSON.parse(result.stderr.trim().split("\n").at(-1) ?? "").error;
}

function countsOf(report: Report): Record<string, Omit<TableCounts, "table">> {
  return Object.fromEntries(report.items.map(({ table, ...counts }) => [table, counts]));
}

const TABLES = [
  "user",
  "account",
  "session",
  "organization",
  "member",
  "team",
  "team_member",
  "invitation",
  "audit_event",
];

/** Every row of every table, as one digest: anything written changes it. */
async function fullDigest(sql: postgres.Sql): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES) {
    const [row] = await sql<Array<{ digest: string | null; count: number }>>`
      select md5(string_agg(t::text, '|' order by t::text)) as digest, count(*)::int as count
      from ${sql(table)} t`;
    parts.push(`${table}:${row?.count}:${row?.digest}`);
  }
  return parts.join("\n");
}

/**
 * What the import brings, without what differs between two correct imports: sealed
 * tokens (a fresh IV each time), audit rows and the organizations' change counters.
 */
async function contentDigest(sql: postgres.Sql): Promise<Record<string, string[]>> {
  return {
    user: (await sql`select * from "user" order by id`).map((row) => JSON.stringify(row)),
    account: (
      await sql`
        select id, user_id, provider_id, account_id, password, scope, created_at, updated_at,
               access_token is not null as sealed
        from account order by id`
    ).map((row) => JSON.stringify(row)),
    organization: (
      await sql`select id, name, slug, logo, metadata, created_at from organization order by id`
    ).map((row) => JSON.stringify(row)),
    rest: (
      await sql`
        select 'member' as t, to_jsonb(m)::text as row from member m
        union all select 'team', to_jsonb(t)::text from team t
        union all select 'team_member', to_jsonb(tm)::text from team_member tm
        union all select 'invitation', to_jsonb(i)::text from invitation i
        union all select 'session', to_jsonb(s)::text from session s
        order by 1, 2`
    ).map((row) => `${row.t} ${row.row}`),
  };
}

beforeAll(async () => {
  // One provider for Better Auth and for authd: both come back to the same callback path.
  idp = await startOidcProvider({
    redirectUris: [SOCIAL_REDIRECT_URI],
    refreshTokens: { rotate: false },
  });
  source = await createBetterAuthSource(idp, "camel");
  dir = await mkdtemp(path.join(tmpdir(), "authd-import-better-auth-"));
}, 60_000);

afterAll(async () => {
  for (const target of targets) {
    await target.sql.end();
    await target.database.drop();
  }
  await source?.close();
  await idp?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("authd import better-auth", () => {
  let main: Target;
  let imported: Record<string, string[]>;

  it("--dry-run reports what it would import and writes nothing", async () => {
    main = await createTarget();
    const result = await importInto(main, ["--dry-run", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report).toMatchObject({ dryRun: true, refused: false, sessions: false, conflicts: [] });
    expect(report.source).toMatchObject({ schema: "public", naming: "camelCase" });
    const counts = countsOf(report);
    expect(counts.user).toEqual({ source: 4, imported: 4, unchanged: 0, skipped: 0 });
    expect(counts.account).toEqual({ source: 5, imported: 5, unchanged: 0, skipped: 0 });
    expect(counts.organization).toEqual({ source: 2, imported: 2, unchanged: 0, skipped: 0 });
    // Acme's and Globex's default teams, and Core.
    expect(counts.team).toEqual({ source: 3, imported: 3, unchanged: 0, skipped: 0 });
    expect(counts.member).toEqual({ source: 3, imported: 3, unchanged: 0, skipped: 0 });
    expect(counts.team_member).toEqual({ source: 3, imported: 3, unchanged: 0, skipped: 0 });
    expect(counts.invitation).toEqual({ source: 1, imported: 1, unchanged: 0, skipped: 0 });
    // Sessions only with --sessions.
    expect(counts.session?.imported).toBe(0);
    expect(counts.session?.skipped).toBe(counts.session?.source);
    expect(result.stderr).toContain("Dry run: nothing was written.");
    const [row] = await main.sql<Array<{ users: number; audits: number }>>`
      select (select count(*)::int from "user") as users,
             (select count(*)::int from audit_event) as audits`;
    expect(row).toEqual({ users: 0, audits: 0 });
  });

  it("imports every table, with progress on stderr and one audit event per batch", async () => {
    const result = await importInto(main, ["--sessions", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report).toMatchObject({ dryRun: false, refused: false, sessions: true });
    const counts = countsOf(report);
    for (const table of ["user", "account", "organization", "team", "member", "invitation"]) {
      expect(counts[table]?.imported, table).toBe(counts[table]?.source);
    }
    // Every Better Auth sign-up and sign-in left a live session.
    expect(counts.session?.imported).toBeGreaterThanOrEqual(4);
    expect(result.stderr).toContain("importing user: 4/4");
    expect(result.stderr).toContain("checking organization: 2/2");

    const { sql } = main;
    const [alice] = await sql`select * from "user" where email = 'alice@example.test'`;
    expect(alice).toMatchObject({ id: source.ids.alice, role: "admin", banned: false });
    const [sourceAlice] = await source.sql`select * from "user" where id = ${source.ids.alice}`;
    expect(alice?.created_at).toEqual(sourceAlice?.createdAt);
    expect(alice?.updated_at).toEqual(sourceAlice?.updatedAt);
    const [carol] = await sql`select * from "user" where id = ${source.ids.carol}`;
    expect(carol).toMatchObject({ banned: true, ban_reason: "spam", role: "user" });
    const [bob] = await sql`select role from "user" where id = ${source.ids.bob}`;
    expect(bob?.role).toBe("admin");
    // Password hashes as Better Auth wrote them (scrypt), the same strings.
    const [sourceHash] = await source.sql`
      select password from account where "userId" = ${source.ids.alice} and "providerId" = 'credential'`;
    const [targetHash] = await sql`
      select password from account where user_id = ${source.ids.alice} and provider_id = 'credential'`;
    expect(targetHash?.password).toBe(sourceHash?.password);
    expect(targetHash?.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    // The provider's tokens, as Better Auth's callback stored them (in clear), sealed as
    // social sign-in seals them, under the server's secret.
    const [given] = await source.sql`select * from account where id = ${source.ids.socialAccount}`;
    expect(given).toMatchObject({
      userId: source.ids.bob,
      providerId: SOCIAL_PROVIDER_ID,
      accountId: BOB_AT_PROVIDER.sub,
    });
    for (const token of ["accessToken", "refreshToken", "idToken"]) {
      expect(given?.[token], token).toEqual(expect.any(String));
    }
    const [social] = await sql`select * from account where id = ${source.ids.socialAccount}`;
    expect(social).toMatchObject({
      user_id: source.ids.bob,
      provider_id: SOCIAL_PROVIDER_ID,
      account_id: BOB_AT_PROVIDER.sub,
      scope: given?.scope,
      access_token_expires_at: given?.accessTokenExpiresAt,
    });
    expect(social?.access_token).toMatch(/^v1:/);
    const cipher = createTokenCipher(BETTER_AUTH_SECRET);
    expect(cipher.decrypt(social?.access_token)).toBe(given?.accessToken);
    expect(cipher.decrypt(social?.refresh_token)).toBe(given?.refreshToken);
    expect(cipher.decrypt(social?.id_token)).toBe(given?.idToken);
    // Sessions: digests only, never the token.
    const [sourceSession] = await source.sql`select id, token from session limit 1`;
    const [targetSession] = await sql`select * from session where id = ${sourceSession?.id}`;
    expect(targetSession?.token_hash).not.toBe(sourceSession?.token);
    expect(JSON.stringify(await sql`select * from session`)).not.toContain(sourceSession?.token);
    const [organization] = await sql`select * from organization where id = ${source.ids.acme}`;
    expect(organization).toMatchObject({ slug: "acme", metadata: { plan: "pro" } });
    const [invitation] = await sql`select * from invitation where id = ${source.ids.invitation}`;
    expect(invitation).toMatchObject({
      email: "dave@example.test",
      status: "pending",
      team_id: source.ids.core,
      inviter_id: source.ids.alice,
    });

    const audits = await sql<Array<{ target_type: string; actor_type: string }>>`
      select target_type, actor_type from audit_event where action = 'import.better_auth'`;
    // Batches of 1000: one per table that had rows.
    expect(audits.map((audit) => audit.target_type).sort()).toEqual(
      [
        "account",
        "invitation",
        "member",
        "organization",
        "session",
        "team",
        "team_member",
        "user",
      ].sort(),
    );
    expect(new Set(audits.map((audit) => audit.actor_type))).toEqual(new Set(["cli"]));
    imported = await contentDigest(sql);
  });

  it("a second run changes nothing", async () => {
    const before = await fullDigest(main.sql);
    const result = await importInto(main, ["--sessions", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    for (const item of report.items) {
      expect(item.imported, item.table).toBe(0);
      expect(item.unchanged, item.table).toBe(item.source);
    }
    expect(await fullDigest(main.sql)).toBe(before);
  });

  it("draws its progress on a terminal, one line per table", async () => {
    const result = await runAuthdInTerminal(
      ["import", "better-auth", "--from", source.database.url, "--dry-run"],
      [],
      { env: { DATABASE_URL: main.database.url, AUTHD_SECRET: BETTER_AUTH_SECRET } },
    );
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain(`importing user [${"#".repeat(30)}] 4/4\r\n`);
    expect(result.stdout).toMatch(/Would import from .*\(camelCase columns\):/);
  });

  it("--verify compares the tables and lists hashes authd cannot verify", async () => {
    const ok = await importInto(main, ["--verify", "--sessions", "--json"]);
    expect(ok.code, ok.stderr).toBe(0);
    const report = JSON.parse(ok.stdout);
    expect(report.ok).toBe(true);
    expect(report.passwords).toEqual({ checked: 4, verifiable: 4, problems: [] });
    expect(report.items.find((item: { table: string }) => item.table === "user")).toEqual({
      table: "user",
      source: 4,
      inAuthd: 4,
      missing: 0,
    });

    const { sql } = main;
    const [erin] = await sql`
      select password from account where user_id = ${source.ids.erin} and provider_id = 'credential'`;
    await sql`update account set password = 'md5:0123' where user_id = ${source.ids.erin}`;
    await sql`delete from invitation where id = ${source.ids.invitation}`;
    try {
      const bad = await importInto(main, ["--verify", "--json"]);
      expect(bad.code).toBe(6);
      expect(cliError(bad).code).toBe("VERIFY_FAILED");
      const found = JSON.parse(bad.stdout);
      expect(found.ok).toBe(false);
      expect(found.passwords.problems).toEqual([
        {
          userId: source.ids.erin,
          accountId: expect.any(String),
          problem: "in no format authd accepts (argon2id, bcrypt, scrypt)",
        },
      ]);
      expect(found.items.find((item: { table: string }) => item.table === "invitation")).toEqual({
        table: "invitation",
        source: 1,
        inAuthd: 0,
        missing: 1,
      });
    } finally {
      await sql`update account set password = ${erin?.password} where user_id = ${source.ids.erin}`;
      // The rerun brings the deleted invitation back: the import resumes whatever is missing.
      const again = await importInto(main, []);
      expect(again.code, again.stderr).toBe(0);
    }
    expect(await contentDigest(sql)).toEqual(imported);
  });

  describe("served by authd", () => {
    let serve: ServeProcess;

    beforeAll(async () => {
      const file = path.join(dir, "authd.config.json");
      // Better Auth's cookie name and secret: its signed session cookies keep working.
      await writeFile(
        file,
        JSON.stringify({
          baseURL: ORIGIN,
          session: { cookiePrefix: "better-auth" },
          organization: { teams: { enabled: true } },
          socialProviders: {
            [SOCIAL_PROVIDER_ID]: {
              clientId: idp.clientId,
              clientSecret: idp.clientSecret,
              issuer: idp.issuer,
            },
          },
          rateLimit: { enabled: false },
          log: { requests: false },
        }),
      );
      serve = await startServe(["--config", file], {
        env: { DATABASE_URL: main.database.url, AUTHD_SECRET: BETTER_AUTH_SECRET },
      });
    }, 60_000);

    afterAll(async () => {
      await serve?.stop();
    });

    interface Answer {
      status: number;
      // biome-ignore lint/suspicious/noExplicitAny: JSON of many shapes, read field by field
      body: any;
      cookie: string;
    }

    async function call(
      method: "GET" | "POST",
      route: string,
      options: { cookie?: string; body?: unknown } = {},
    ): Promise<Answer> {
      const response = await fetch(`${serve.url}/api/auth${route}`, {
        method,
        headers: {
          origin: ORIGIN,
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await response.text();
      const cookie = response.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .filter((pair) => pair?.startsWith("better-auth.session_token="))
        .join("; ");
      return { status: response.status, body: text ? JSON.parse(text) : null, cookie };
    }

    async function signIn(name: keyof typeof PASSWORDS): Promise<Answer> {
      return call("POST", "/sign-in/email", {
        body: { email: `${name}@example.test`, password: PASSWORDS[name] },
      });
    }

    it("signs users in with their Better Auth passwords, rehashed to argon2id", async () => {
      const alice = await signIn("alice");
      expect(alice.status, JSON.stringify(alice.body)).toBe(200);
      expect(alice.body.user.id).toBe(source.ids.alice);
      expect(alice.cookie).toMatch(/^better-auth\.session_token=/);
      const [row] = await main.sql`
        select password from account where user_id = ${source.ids.alice} and provider_id = 'credential'`;
      expect(row?.password).toMatch(/^\$argon2id\$/);
      const wrong = await call("POST", "/sign-in/email", {
        body: { email: "erin@example.test", password: "not erin's password" },
      });
      expect(wrong.status).toBe(401);
      // The ban came along.
      const carol = await signIn("carol");
      expect(carol.status).toBe(403);
      expect(carol.body.code).toBe("BANNED_USER");
    });

    it("keeps Better Auth's session cookies working (--sessions, same cookie name and secret)", async () => {
      const session = await call("GET", "/get-session", { cookie: source.aliceCookie });
      expect(session.status).toBe(200);
      expect(session.body?.user?.email).toBe("alice@example.test");
    });

    it("signs bob in at the provider Better Auth linked him to, as the same user", async () => {
      // A new address at the provider: only the imported identity (its sub) says this is
      // bob; by the address authd would make a new user.
      idp.users.set(BOB_AT_PROVIDER.sub, { ...BOB_AT_PROVIDER, email: "bob@elsewhere.test" });
      const [before] = await main.sql`select count(*)::int as count from "user"`;
      const started = await fetch(`${serve.url}/api/auth/sign-in/social`, {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ provider: SOCIAL_PROVIDER_ID, callbackURL: "/signed-in" }),
      });
      expect(started.status).toBe(200);
      const { url } = (await started.json()) as { url: string };
      const back = await idp.authorize(url, { login: BOB_AT_PROVIDER.sub });
      expect(`${back.origin}${back.pathname}`).toBe(SOCIAL_REDIRECT_URI);
      const callback = await fetch(`${serve.url}${back.pathname}${back.search}`, {
        headers: {
          cookie: started.headers
            .getSetCookie()
            .map((line) => line.split(";")[0])
            .join("; "),
        },
        redirect: "manual",
      });
      expect(callback.status).toBe(302);
      const location = new URL(callback.headers.get("location") ?? "", ORIGIN);
      expect(location.searchParams.get("error")).toBeNull();
      expect(location.pathname).toBe("/signed-in");
      const cookie = callback.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .filter((pair) => pair?.startsWith("better-auth.session_token="))
        .join("; ");
      const session = await call("GET", "/get-session", { cookie });
      expect(session.status).toBe(200);
      expect(session.body?.user?.id).toBe(source.ids.bob);
      const [after] = await main.sql`select count(*)::int as count from "user"`;
      expect(after?.count).toBe(before?.count);
    });

    it("lists organizations, members and teams, with roles", async () => {
      const { cookie } = await signIn("alice");
      const list = await call("GET", "/organization/list", { cookie });
      expect(list.status).toBe(200);
      expect(list.body.map((organization: { slug: string }) => organization.slug)).toEqual([
        "acme",
      ]);
      const members = await call(
        "GET",
        `/organization/list-members?organizationId=${source.ids.acme}`,
        { cookie },
      );
      expect(members.status).toBe(200);
      const roles = Object.fromEntries(
        members.body.members.map((member: { userId: string; role: string }) => [
          member.userId,
          member.role,
        ]),
      );
      expect(roles).toEqual({ [source.ids.alice]: "owner", [source.ids.bob]: "admin" });
      const teams = await call(
        "GET",
        `/organization/list-teams?organizationId=${source.ids.acme}`,
        {
          cookie,
        },
      );
      expect(teams.body.map((team: { name: string }) => team.name).sort()).toEqual([
        "Acme",
        "Core",
      ]);
      // Bob's platform role and his account at the provider came along.
      const bob = await signIn("bob");
      const users = await call("GET", "/admin/list-users", { cookie: bob.cookie });
      expect(users.status).toBe(200);
      const accounts = await call("GET", "/list-accounts", { cookie: bob.cookie });
      expect(
        accounts.body.map((account: { providerId: string }) => account.providerId).sort(),
      ).toEqual(["credential", SOCIAL_PROVIDER_ID].sort());
    });

    it("accepts an imported invitation", async () => {
      const dave = await call("POST", "/sign-up/email", {
        body: { email: "dave@example.test", password: "dave-password-5", name: "Dave" },
      });
      expect(dave.status, JSON.stringify(dave.body)).toBe(200);
      const accepted = await call("POST", "/organization/accept-invitation", {
        cookie: dave.cookie,
        body: { invitationId: source.ids.invitation },
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      const [member] = await main.sql`
        select role from member where organization_id = ${source.ids.acme} and user_id = ${dave.body.user.id}`;
      expect(member?.role).toBe("member");
      const [inCore] = await main.sql`
        select count(*)::int as count from team_member
        where team_id = ${source.ids.core} and user_id = ${dave.body.user.id}`;
      expect(inCore?.count).toBe(1);
    });
  });

  it("refuses conflicts as a whole (exit 4, nothing written) unless --on-conflict skip", async () => {
    const target = await createTarget();
    const env = { DATABASE_URL: target.database.url };
    const created = await runAuthd(["user", "create", "--email", "bob@example.test", "--json"], {
      env,
    });
    expect(created.code, created.stderr).toBe(0);
    const authdBob = JSON.parse(created.stdout).id as string;
    // Another user under erin's id (two sources with serial ids would do this).
    await target.sql`
      insert into "user" (id, email, name) values (${source.ids.erin}, 'other@example.test', 'Other')`;
    const before = await fullDigest(target.sql);

    for (const args of [["--json"], ["--dry-run", "--json"]]) {
      const refused = await importInto(target, args);
      expect(refused.code, refused.stderr).toBe(4);
      const error = cliError(refused);
      expect(error.code).toBe("IMPORT_CONFLICT");
      const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
      expect((error.details as Array<{ key: string }>).sort(byKey)).toEqual([
        {
          table: "user",
          key: "bob@example.test",
          sourceId: source.ids.bob,
          authdId: authdBob,
          reason: "authd already has it for another user",
        },
        {
          table: "user",
          key: "erin@example.test",
          sourceId: source.ids.erin,
          authdId: source.ids.erin,
          reason: "authd has this id for another user (other@example.test)",
        },
      ]);
      const report = JSON.parse(refused.stdout) as Report;
      expect(report.refused).toBe(true);
      expect(countsOf(report).user).toEqual({ source: 4, imported: 0, unchanged: 0, skipped: 0 });
      expect(await fullDigest(target.sql)).toBe(before);
    }

    const skipped = await importInto(target, ["--on-conflict", "skip", "--json"]);
    expect(skipped.code, skipped.stderr).toBe(0);
    const counts = countsOf(JSON.parse(skipped.stdout) as Report);
    expect(counts.user).toEqual({ source: 4, imported: 2, unchanged: 0, skipped: 2 });
    // Bob's password and provider accounts and erin's password, bob's memberships (Acme,
    // Globex) and his team places.
    expect(counts.account).toEqual({ source: 5, imported: 2, unchanged: 0, skipped: 3 });
    expect(counts.member).toEqual({ source: 3, imported: 1, unchanged: 0, skipped: 2 });
    expect(counts.invitation).toEqual({ source: 1, imported: 1, unchanged: 0, skipped: 0 });
    const [bob] = await target.sql`select id, name from "user" where email = 'bob@example.test'`;
    expect(bob?.id).toBe(authdBob);
    const memberships = await target.sql`select 1 from member where user_id = ${authdBob}`;
    expect(memberships).toHaveLength(0);
    // The other user under erin's id got nothing of erin's.
    const [other] = await target.sql`
      select u.email, (select count(*)::int from account a where a.user_id = u.id) as accounts
      from "user" u where u.id = ${source.ids.erin}`;
    expect(other).toEqual({ email: "other@example.test", accounts: 0 });
  });

  it("resumes an interrupted import and ends with the full, correct result", async () => {
    const target = await createTarget();
    // The second membership written fails its batch: a fault in the middle of the run.
    await target.sql.unsafe(`
      create function fail_import() returns trigger language plpgsql as $$
      begin raise exception 'injected failure'; end $$;
      create trigger fail_import before insert on member for each row
        when (new.user_id = '${source.ids.bob}') execute function fail_import();`);
    const interrupted = await importInto(target, ["--sessions", "--batch-size", "1"]);
    expect(interrupted.code).toBe(1);
    expect(interrupted.stderr).toContain("injected failure");
    expect(interrupted.stderr).toContain("run the same command again");
    const [partial] = await target.sql<Array<{ users: number; members: number }>>`
      select (select count(*)::int from "user") as users,
             (select count(*)::int from member) as members`;
    expect(partial?.users).toBe(4);
    expect(partial?.members).toBeLessThan(3);

    await target.sql.unsafe("drop trigger fail_import on member; drop function fail_import();");
    const resumed = await importInto(target, ["--sessions", "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const counts = countsOf(JSON.parse(resumed.stdout) as Report);
    expect(counts.user).toEqual({ source: 4, imported: 0, unchanged: 4, skipped: 0 });
    expect(counts.member?.imported).toBeGreaterThan(0);
    // The same rows as the import that never failed (before anyone used the server).
    const digest = await contentDigest(target.sql);
    expect(digest.user).toEqual(imported.user);
    expect(digest.account).toEqual(imported.account);
    expect(digest.organization).toEqual(imported.organization);
    const withoutSessions = (rows: string[] | undefined) =>
      (rows ?? []).filter((row) => !row.startsWith("session"));
    expect(withoutSessions(digest.rest)).toEqual(withoutSessions(imported.rest));
  });

  it("reads snake_case columns as Better Auth's fields options create them", async () => {
    const snake = await createBetterAuthSource(idp, "snake");
    try {
      const target = await createTarget();
      const result = await runAuthd(
        ["import", "better-auth", "--from", snake.database.url, "--json"],
        { env: { DATABASE_URL: target.database.url, AUTHD_SECRET: BETTER_AUTH_SECRET } },
      );
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as Report;
      expect(report.source.naming).toBe("snake_case");
      const counts = countsOf(report);
      expect(counts.user).toEqual({ source: 4, imported: 4, unchanged: 0, skipped: 0 });
      expect(counts.team_member).toEqual({ source: 3, imported: 3, unchanged: 0, skipped: 0 });
      expect(counts.invitation).toEqual({ source: 1, imported: 1, unchanged: 0, skipped: 0 });
      const [sourceHash] = await snake.sql`
        select password from account where user_id = ${snake.ids.carol} and provider_id = 'credential'`;
      const [row] = await target.sql`
        select u.banned, u.ban_reason, a.password from "user" u
        join account a on a.user_id = u.id and a.provider_id = 'credential'
        where u.id = ${snake.ids.carol}`;
      expect(row).toEqual({ banned: true, ban_reason: "spam", password: sourceHash?.password });
      const verified = await runAuthd(
        ["import", "better-auth", "--from", snake.database.url, "--verify", "--json"],
        { env: { DATABASE_URL: target.database.url } },
      );
      expect(verified.code, verified.stderr).toBe(0);
      expect(JSON.parse(verified.stdout).ok).toBe(true);

      // Rows Better Auth holds but authd would not have written as they are.
      const { acme } = snake.ids;
      await snake.sql`
        insert into "user" (id, name, email, email_verified, created_at, updated_at)
        values ('erin-again', 'Erin', 'ERIN@example.test', false, now(), now())`;
      await snake.sql`
        insert into team (id, name, organization_id, member_count, created_at)
        values ('core-again', 'Core', ${acme}, 0, now()), ('nameless', '', ${acme}, 0, now())`;
      // JSON text with an escaped NUL: PostgreSQL's jsonb cannot hold it.
      await snake.sql`
        insert into organization (id, name, slug, metadata, created_at)
        values ('odd-org', 'Odd', 'odd', ${'{"a":"\\u0000"}'}, now())`;
      await snake.sql`
        update invitation set status = 'expired', id = 'odd-status'`;
      const again = await runAuthd(
        ["import", "better-auth", "--from", snake.database.url, "--on-conflict", "skip", "--json"],
        { env: { DATABASE_URL: target.database.url, AUTHD_SECRET: BETTER_AUTH_SECRET } },
      );
      expect(again.code, again.stderr).toBe(0);
      const odd = JSON.parse(again.stdout) as Report;
      expect(odd.conflicts).toEqual([
        {
          table: "user",
          key: "erin@example.test",
          sourceId: "erin-again",
          reason: "another user of the source has this email (differing only in case)",
        },
      ]);
      expect(countsOf(odd).team).toEqual({ source: 5, imported: 2, unchanged: 3, skipped: 0 });
      expect(odd.warnings.map((warning) => `${warning.table}: ${warning.message}`)).toEqual([
        "organization: metadata must not contain NUL characters: imported without it",
        'team: a team name repeated within its organization was renamed "<name> (<n>)"',
        'team: a team without a name was named "Unnamed team"',
        'invitation: status "expired" is not one authd knows: not imported',
      ]);
      const teams = await target.sql`
        select name from team where organization_id = ${acme} order by name`;
      expect(teams.map((team) => team.name)).toEqual(["Acme", "Core", "Core (2)", "Unnamed team"]);
      const [organization] =
        await target.sql`select slug, metadata from organization where id = 'odd-org'`;
      expect(organization).toEqual({ slug: "odd", metadata: null });
    } finally {
      await snake.close();
    }
  }, 60_000);

  it("refuses a database that is not Better Auth's (exit 2)", async () => {
    const target = targets[0] as Target;
    const result = await runAuthd(
      ["import", "better-auth", "--from", target.database.url, "--schema", "nowhere", "--json"],
      { env: { DATABASE_URL: target.database.url } },
    );
    expect(result.code).toBe(2);
    expect(cliError(result).code).toBe("SOURCE_NOT_RECOGNIZED");
  });

  it("refuses a --from URL that does not parse (exit 2), never repeating it", async () => {
    // Checked before any database is opened: none needs to be reachable.
    for (const from of ["postgres://ba:FR#MPW@127.0.0.1:5432/ba", "mysql://ba@127.0.0.1/ba"]) {
      const result = await runAuthd(["import", "better-auth", "--from", from, "--json"], {
        env: { DATABASE_URL: "postgres://postgres@127.0.0.1:9/nowhere" },
      });
      expect(result.code, result.stderr).toBe(2);
      expect(cliError(result)).toMatchObject({ code: "USAGE_ERROR" });
      expect(cliError(result).message).toContain("percent-encode");
      expect(result.stderr).not.toContain("FR#MPW");
    }
  });
});
