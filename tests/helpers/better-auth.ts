/**
 * A real Better Auth database for the import tests: a fresh PostgreSQL database, Better
 * Auth (email and password, the organization plugin with teams, the admin plugin) on a
 * `pg` pool, its own migrations, and data made through its own API.
 */
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { admin, organization } from "better-auth/plugins";
import pg from "pg";
import postgres from "postgres";
import { createTestDatabase, type TestDatabase } from "./database.js";

/** Better Auth's secret; authd is configured with it so Better Auth's cookies verify. */
export const BETTER_AUTH_SECRET = "better-auth-secret-0123456789-0123456789";

export const PASSWORDS = {
  alice: "alice-password-1",
  bob: "bob-password-2",
  carol: "carol-password-3",
  erin: "erin-password-4",
} as const;

/** A social account's provider tokens, as Better Auth stores them (in clear). */
export const GITHUB_TOKENS = {
  accessToken: "gho_imported_access_token",
  refreshToken: "ghr_imported_refresh_token",
  idToken: "imported.id.token",
};

export interface BetterAuthSource {
  database: TestDatabase;
  sql: postgres.Sql;
  ids: {
    alice: string;
    bob: string;
    carol: string;
    erin: string;
    acme: string;
    globex: string;
    core: string;
    invitation: string;
    githubAccount: string;
  };
  /** `better-auth.session_token=<token>.<signature>` from alice's sign-in. */
  aliceCookie: string;
  close(): Promise<void>;
}

const snake = (...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, name.replace(/([A-Z])/g, "_$1").toLowerCase()]));

/** Better Auth's `fields` options that give every column a snake_case name. */
function snakeCaseOptions() {
  return {
    user: { fields: snake("emailVerified", "createdAt", "updatedAt") },
    session: {
      fields: snake("expiresAt", "createdAt", "updatedAt", "ipAddress", "userAgent", "userId"),
    },
    account: {
      fields: snake(
        "accountId",
        "providerId",
        "userId",
        "accessToken",
        "refreshToken",
        "idToken",
        "accessTokenExpiresAt",
        "refreshTokenExpiresAt",
        "createdAt",
        "updatedAt",
      ),
    },
    verification: { fields: snake("expiresAt", "createdAt", "updatedAt") },
  };
}

function plugins(naming: "camel" | "snake") {
  if (naming === "camel") return [organization({ teams: { enabled: true } }), admin()];
  return [
    organization({
      teams: { enabled: true },
      schema: {
        organization: { fields: snake("createdAt") },
        member: { fields: snake("organizationId", "userId", "createdAt") },
        invitation: {
          fields: snake("organizationId", "inviterId", "expiresAt", "createdAt", "teamId"),
        },
        team: { fields: snake("organizationId", "createdAt", "updatedAt", "memberCount") },
        teamMember: {
          modelName: "team_member",
          fields: snake("teamId", "userId", "createdAt", "membershipKey"),
        },
        session: { fields: snake("activeOrganizationId", "activeTeamId") },
      },
    }),
    admin({
      schema: {
        user: { fields: snake("banReason", "banExpires") },
        session: { fields: snake("impersonatedBy") },
      },
    }),
  ];
}

/**
 * Builds the source: alice (platform admin), bob, carol (banned) and erin; acme (alice
 * owner, bob admin, teams Acme and Core with bob in Core, an invitation of dave to Core)
 * and globex (bob owner); bob's GitHub account with tokens.
 */
export async function createBetterAuthSource(
  naming: "camel" | "snake" = "camel",
): Promise<BetterAuthSource> {
  const database = await createTestDatabase("authd_test_better_auth");
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  const options = {
    database: pool,
    secret: BETTER_AUTH_SECRET,
    baseURL: "http://localhost:3000",
    logger: { disabled: true },
    emailAndPassword: { enabled: true },
    ...(naming === "snake" ? snakeCaseOptions() : {}),
    plugins: plugins(naming),
  };
  const auth = betterAuth(options);
  const { runMigrations } = await getMigrations(options);
  await runMigrations();

  const signUp = async (name: keyof typeof PASSWORDS) =>
    (
      await auth.api.signUpEmail({
        body: {
          email: `${name}@example.test`,
          password: PASSWORDS[name],
          name: name[0]?.toUpperCase() + name.slice(1),
        },
      })
    ).user.id;
  const signIn = async (name: keyof typeof PASSWORDS) => {
    const { headers } = await auth.api.signInEmail({
      body: { email: `${name}@example.test`, password: PASSWORDS[name] },
      returnHeaders: true,
    });
    const cookie = (headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    return { cookie, headers: new Headers({ cookie }) };
  };

  const alice = await signUp("alice");
  const bob = await signUp("bob");
  const carol = await signUp("carol");
  const erin = await signUp("erin");
  // The first platform admin is made in the database, as Better Auth's docs suggest.
  await sql`update "user" set role = 'admin' where id = ${alice}`;

  const asAlice = await signIn("alice");
  const acme = await auth.api.createOrganization({
    body: { name: "Acme", slug: "acme", metadata: { plan: "pro" } },
    headers: asAlice.headers,
  });
  if (!acme) throw new Error("createOrganization answered nothing");
  await auth.api.addMember({ body: { userId: bob, role: "admin", organizationId: acme.id } });
  const core = await auth.api.createTeam({
    body: { name: "Core", organizationId: acme.id },
    headers: asAlice.headers,
  });
  await auth.api.addTeamMember({
    body: { teamId: core.id, userId: bob },
    headers: asAlice.headers,
  });
  const invitation = await auth.api.createInvitation({
    body: { email: "dave@example.test", role: "member", organizationId: acme.id, teamId: core.id },
    headers: asAlice.headers,
  });
  await auth.api.setRole({ body: { userId: bob, role: "admin" }, headers: asAlice.headers });
  await auth.api.banUser({
    body: { userId: carol, banReason: "spam" },
    headers: asAlice.headers,
  });
  const asBob = await signIn("bob");
  const globex = await auth.api.createOrganization({
    body: { name: "Globex", slug: "globex" },
    headers: asBob.headers,
  });
  if (!globex) throw new Error("createOrganization answered nothing");

  // A social account is written directly: driving a real OAuth round trip through Better
  // Auth would need a provider; the row is what its callback would store.
  const githubAccount = "github-account-of-bob";
  const now = new Date();
  const columns =
    naming === "camel"
      ? {
          accountId: "accountId",
          providerId: "providerId",
          userId: "userId",
          accessToken: "accessToken",
          refreshToken: "refreshToken",
          idToken: "idToken",
          accessTokenExpiresAt: "accessTokenExpiresAt",
          scope: "scope",
          createdAt: "createdAt",
          updatedAt: "updatedAt",
        }
      : snake(
          "accountId",
          "providerId",
          "userId",
          "accessToken",
          "refreshToken",
          "idToken",
          "accessTokenExpiresAt",
          "scope",
          "createdAt",
          "updatedAt",
        );
  const row = {
    id: githubAccount,
    [columns.accountId as string]: "4242",
    [columns.providerId as string]: "github",
    [columns.userId as string]: bob,
    [columns.accessToken as string]: GITHUB_TOKENS.accessToken,
    [columns.refreshToken as string]: GITHUB_TOKENS.refreshToken,
    [columns.idToken as string]: GITHUB_TOKENS.idToken,
    [columns.accessTokenExpiresAt as string]: new Date(now.getTime() + 3600_000),
    [columns.scope as string]: "read:user,user:email",
    [columns.createdAt as string]: now,
    [columns.updatedAt as string]: now,
  };
  await sql`insert into account ${sql(row)}`;

  return {
    database,
    sql,
    ids: {
      alice,
      bob,
      carol,
      erin,
      acme: acme.id,
      globex: globex.id,
      core: core.id,
      invitation: invitation.id,
      githubAccount,
    },
    aliceCookie: asAlice.cookie,
    async close() {
      await sql.end();
      await pool.end();
      await database.drop();
    },
  };
}
