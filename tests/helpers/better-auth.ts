/**
 * A real Better Auth database for the import tests: a fresh PostgreSQL database, Better
 * Auth (email and password, the organization plugin with teams, the admin plugin, and an
 * OpenID provider through its generic OAuth plugin) on a `pg` pool, its own migrations,
 * and data made through its own API, the social account by a real round trip through
 * the test provider.
 */
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { admin, genericOAuth, organization } from "better-auth/plugins";
import pg from "pg";
import postgres from "postgres";
import { createTestDatabase, type TestDatabase } from "./database.js";
import type { OidcUser, TestOidcProvider } from "./oidc.js";

/** Better Auth's secret; authd is configured with it so Better Auth's cookies verify. */
export const BETTER_AUTH_SECRET = "better-auth-secret-0123456789-0123456789";

export const PASSWORDS = {
  alice: "alice-password-1",
  bob: "bob-password-2",
  carol: "carol-password-3",
  erin: "erin-password-4",
} as const;

/** Better Auth's base URL; authd is served under the same one. */
export const BETTER_AUTH_ORIGIN = "http://localhost:3000";

/** The OpenID provider's id, in Better Auth and in authd alike. */
export const SOCIAL_PROVIDER_ID = "idp";

/** Where the provider sends the browser back: the same path in Better Auth and authd. */
export const SOCIAL_REDIRECT_URI = `${BETTER_AUTH_ORIGIN}/api/auth/callback/${SOCIAL_PROVIDER_ID}`;

/** Bob at the OpenID provider: the identity Better Auth links to him. */
export const BOB_AT_PROVIDER: OidcUser = {
  sub: "bob-at-the-provider",
  email: "bob@example.test",
  email_verified: true,
  name: "Bob",
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
    /** Bob's account at the OpenID provider, as Better Auth's callback wrote it. */
    socialAccount: string;
  };
  /** `better-auth.session_token=<token>.<signature>` from alice's sign-in. */
  aliceCookie: string;
  close(): Promise<void>;
}

/** What Better Auth's handler needs: it answers Fetch requests. */
interface FetchHandler {
  handler(request: Request): Promise<Response>;
}

/** `name=value` of each cookie a response sets. */
function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => line.split(";")[0] ?? "");
}

/**
 * Links BOB_AT_PROVIDER to the user signed in by `cookie` as a browser would: Better
 * Auth's link-social, the provider's login and consent pages, then Better Auth's
 * callback, which exchanges the code and stores the account. Answers the account's id.
 */
async function linkAtProvider(
  auth: FetchHandler,
  idp: TestOidcProvider,
  cookie: string,
): Promise<string> {
  idp.users.set(BOB_AT_PROVIDER.sub, BOB_AT_PROVIDER);
  const started = await auth.handler(
    new Request(`${BETTER_AUTH_ORIGIN}/api/auth/link-social`, {
      method: "POST",
      headers: { cookie, origin: BETTER_AUTH_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ provider: SOCIAL_PROVIDER_ID, callbackURL: "/linked" }),
    }),
  );
  if (started.status !== 200) {
    throw new Error(`link-social answered ${started.status}: ${await started.text()}`);
  }
  const { url } = (await started.json()) as { url: string };
  const back = await idp.authorize(url, { login: BOB_AT_PROVIDER.sub });
  const callback = await auth.handler(
    new Request(back, {
      headers: { cookie: [cookie, ...cookiesOf(started)].join("; ") },
      redirect: "manual",
    }),
  );
  const location = new URL(callback.headers.get("location") ?? "", BETTER_AUTH_ORIGIN);
  if (callback.status !== 302 || location.pathname !== "/linked" || location.search !== "") {
    throw new Error(`Better Auth's callback answered ${callback.status} to ${location}`);
  }
  const accounts = await auth.handler(
    new Request(`${BETTER_AUTH_ORIGIN}/api/auth/list-accounts`, { headers: { cookie } }),
  );
  const linked = ((await accounts.json()) as Array<{ id: string; providerId: string }>).find(
    (account) => account.providerId === SOCIAL_PROVIDER_ID,
  );
  if (!linked) throw new Error("Better Auth's callback stored no account");
  return linked.id;
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

/** The test provider, found by discovery, asked for a refresh token too. */
function socialPlugin(idp: TestOidcProvider) {
  return genericOAuth({
    config: [
      {
        providerId: SOCIAL_PROVIDER_ID,
        discoveryUrl: `${idp.issuer}/.well-known/openid-configuration`,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        authentication: "basic",
        scopes: ["openid", "email", "profile", "offline_access"],
        prompt: "consent",
        pkce: true,
      },
    ],
  });
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
 * and globex (bob owner); bob's account at `idp` (BOB_AT_PROVIDER), linked by Better
 * Auth's link-social through the provider's login and consent pages, with the tokens it
 * gave. The provider must accept SOCIAL_REDIRECT_URI and refresh tokens.
 */
export async function createBetterAuthSource(
  idp: TestOidcProvider,
  naming: "camel" | "snake" = "camel",
): Promise<BetterAuthSource> {
  const database = await createTestDatabase("authd_test_better_auth");
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  const options = {
    database: pool,
    secret: BETTER_AUTH_SECRET,
    baseURL: BETTER_AUTH_ORIGIN,
    logger: { disabled: true },
    emailAndPassword: { enabled: true },
    ...(naming === "snake" ? snakeCaseOptions() : {}),
    plugins: [...plugins(naming), socialPlugin(idp)],
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

  const socialAccount = await linkAtProvider(auth, idp, asBob.cookie);

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
      socialAccount,
    },
    aliceCookie: asAlice.cookie,
    async close() {
      await sql.end();
      await pool.end();
      await database.drop();
    },
  };
}
