import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

let t: TestApp;
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

let counter = 0;
function uniqueEmail(tag = "user"): string {
  counter += 1;
  return `${tag}${counter}-${Date.now()}@example.com`;
}

interface SignedIn {
  client: Client;
  email: string;
  id: string;
}

async function signUp(email = uniqueEmail()): Promise<SignedIn> {
  const client = createClient(t.app);
  const response = await client.post("/sign-up/email", { name: "Ada", email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  return { client, email, id: response.json().user.id };
}

async function signUpAdmin(): Promise<SignedIn> {
  const admin = await signUp(uniqueEmail("admin"));
  await t.db.sql`update "user" set role = 'admin' where id = ${admin.id}`;
  return admin;
}

async function signIn(email: string, password = PASSWORD) {
  return createClient(t.app).post("/sign-in/email", { email, password });
}

async function auditRows(action: string, targetId: string) {
  return t.db.sql<
    {
      actorId: string | null;
      actorType: string;
      action: string;
      targetId: string;
      ipAddress: string | null;
    }[]
  >`select actor_id, actor_type, action, target_id, ip_address from audit_event
    where action = ${action} and target_id = ${targetId}`;
}

const ENDPOINTS: [
  method: "GET" | "POST",
  path: string,
  body: Record<string, unknown>,
  code: string,
][] = [
  [
    "POST",
    "/admin/create-user",
    { email: "x@example.com", name: "X" },
    "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS",
  ],
  ["GET", "/admin/list-users", {}, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS"],
  ["GET", "/admin/get-user", { id: "someone" }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER"],
  [
    "POST",
    "/admin/update-user",
    { userId: "someone", data: { name: "N" } },
    "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS",
  ],
  [
    "POST",
    "/admin/set-role",
    { userId: "someone", role: "admin" },
    "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE",
  ],
  ["POST", "/admin/ban-user", { userId: "someone" }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS"],
  ["POST", "/admin/unban-user", { userId: "someone" }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS"],
  [
    "POST",
    "/admin/impersonate-user",
    { userId: "someone" },
    "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS",
  ],
  [
    "POST",
    "/admin/list-user-sessions",
    { userId: "someone" },
    "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS",
  ],
  [
    "POST",
    "/admin/revoke-user-session",
    { sessionToken: "abc" },
    "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS",
  ],
  [
    "POST",
    "/admin/revoke-user-sessions",
    { userId: "someone" },
    "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS",
  ],
  ["POST", "/admin/remove-user", { userId: "someone" }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS"],
  [
    "POST",
    "/admin/set-user-password",
    { userId: "someone", newPassword: "x".repeat(12) },
    "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD",
  ],
];

function call(client: Client, method: "GET" | "POST", path: string, body: Record<string, unknown>) {
  return method === "GET"
    ? client.get(path, { query: body as Record<string, string> })
    : client.post(path, body);
}

describe("admin guard", () => {
  it("answers 401 UNAUTHORIZED signed out on every endpoint", async () => {
    const anonymous = createClient(t.app);
    for (const [method, path, body] of [
      ...ENDPOINTS,
      ["POST", "/admin/stop-impersonating", {}, ""] as const,
      ["POST", "/admin/has-permission", { permissions: { user: ["list"] } }, ""] as const,
    ]) {
      const response = await call(anonymous, method, path, body);
      expect(response.statusCode, path).toBe(401);
      expect(response.json(), path).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
    }
  });

  it("answers 403 with the endpoint's code to a non-admin on every endpoint", async () => {
    const { client } = await signUp();
    for (const [method, path, body, code] of ENDPOINTS) {
      const response = await call(client, method, path, body);
      expect(response.statusCode, path).toBe(403);
      expect(response.json().code, path).toBe(code);
    }
  });

  it("treats an id in admin.adminUserIds as an admin whatever its role", async () => {
    const other = await createTestApp({ config: { admin: { adminUserIds: ["fixed-admin"] } } });
    try {
      await other.db.sql`
        insert into "user" (id, email, name, role) values ('fixed-admin', 'fixed@example.com', 'F', 'user')`;
      const client = createClient(other.app);
      const up = await client.post("/sign-up/email", {
        name: "Z",
        email: "z@example.com",
        password: PASSWORD,
      });
      expect(up.statusCode).toBe(200);
      const forbidden = await client.get("/admin/list-users");
      expect(forbidden.statusCode).toBe(403);
      await other.db.sql`update session set user_id = 'fixed-admin'
        where user_id = ${up.json().user.id}`;
      const allowed = await client.get("/admin/list-users");
      expect(allowed.statusCode, allowed.body).toBe(200);
      expect(allowed.json().total).toBe(2);
    } finally {
      await other.close();
    }
  });

  it("has no /admin routes when admin.enabled is false", async () => {
    const other = await createTestApp({ config: { admin: { enabled: false } } });
    try {
      const response = await createClient(other.app).get("/admin/list-users");
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe("NOT_FOUND");
    } finally {
      await other.close();
    }
  });
});

describe("create-user, get-user, list-users", () => {
  it("creates a user with the default role, a password and an audit row", async () => {
    const admin = await signUpAdmin();
    const email = uniqueEmail("Created");
    const response = await admin.client.post("/admin/create-user", {
      email,
      name: "Created",
      password: PASSWORD,
    });
    expect(response.statusCode, response.body).toBe(200);
    const { user } = response.json();
    expect(user).toMatchObject({
      email: email.toLowerCase(),
      name: "Created",
      role: "user",
      banned: false,
      emailVerified: false,
    });
    expect((await signIn(email)).statusCode).toBe(200);
    const rows = await auditRows("admin.create_user", user.id);
    expect(rows).toEqual([
      {
        actorId: admin.id,
        actorType: "user",
        action: "admin.create_user",
        targetId: user.id,
        ipAddress: "127.0.0.1",
      },
    ]);
  });

  it("creates a user without a password (no credential account) and with a role", async () => {
    const admin = await signUpAdmin();
    const response = await admin.client.post("/admin/create-user", {
      email: uniqueEmail(),
      name: "NoPw",
      role: ["admin", "user"],
      data: { emailVerified: true },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { user } = response.json();
    expect(user.role).toBe("admin,user");
    expect(user.emailVerified).toBe(true);
    const accounts = await t.db.sql`select 1 from account where user_id = ${user.id}`;
    expect(accounts.count).toBe(0);
  });

  it("refuses a duplicate, a malformed email, an unknown role and ban fields", async () => {
    const admin = await signUpAdmin();
    const duplicate = await admin.client.post("/admin/create-user", {
      email: admin.email.toUpperCase(),
      name: "Dup",
    });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json()).toEqual({
      code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
      message: "User already exists. Use another email.",
    });
    const invalid = await admin.client.post("/admin/create-user", { email: "nope", name: "N" });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().code).toBe("INVALID_EMAIL");
    const role = await admin.client.post("/admin/create-user", {
      email: uniqueEmail(),
      name: "R",
      role: "superuser",
    });
    expect(role.statusCode).toBe(400);
    expect(role.json().code).toBe("YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE");
    const ban = await admin.client.post("/admin/create-user", {
      email: uniqueEmail(),
      name: "B",
      data: { banned: true },
    });
    expect(ban.statusCode).toBe(403);
    expect(ban.json().code).toBe("YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
  });

  it("gets a user by id and answers 404 for an unknown one", async () => {
    const admin = await signUpAdmin();
    const target = await signUp();
    const response = await admin.client.get("/admin/get-user", { query: { id: target.id } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: target.id, email: target.email });
    const missing = await admin.client.get("/admin/get-user", { query: { id: "nobody" } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: "USER_NOT_FOUND", message: "User not found" });
  });

  it("lists with search, filter, sort, limit and offset", async () => {
    const admin = await signUpAdmin();
    const tag = `list${Date.now()}`;
    for (const name of ["Carol", "Alice", "Bob"]) {
      const response = await admin.client.post("/admin/create-user", {
        email: `${name.toLowerCase()}-${tag}@example.org`,
        name,
      });
      expect(response.statusCode).toBe(200);
    }
    const all = await admin.client.get("/admin/list-users", {
      query: { searchValue: tag, sortBy: "name", sortDirection: "desc" },
    });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().total).toBe(3);
    expect(all.json().users.map((user: { name: string }) => user.name)).toEqual([
      "Carol",
      "Bob",
      "Alice",
    ]);
    expect(all.json()).not.toHaveProperty("limit");
    const page = await admin.client.get("/admin/list-users", {
      query: { searchValue: tag, sortBy: "name", limit: "1", offset: "1" },
    });
    expect(page.json()).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.json().users.map((user: { name: string }) => user.name)).toEqual(["Bob"]);
    const starts = await admin.client.get("/admin/list-users", {
      query: { searchValue: "Al", searchField: "name", searchOperator: "starts_with" },
    });
    expect(starts.json().users.map((user: { name: string }) => user.name)).toContain("Alice");
    expect(starts.json().users.every((user: { name: string }) => user.name.startsWith("Al"))).toBe(
      true,
    );
    const ends = await admin.client.get("/admin/list-users", {
      query: { searchValue: `${tag}@example.org`, searchOperator: "ends_with" },
    });
    expect(ends.json().total).toBe(3);
    const filtered = await admin.client.get("/admin/list-users", {
      query: { searchValue: tag, filterField: "name", filterValue: "Bob" },
    });
    expect(filtered.json().total).toBe(1);
    expect(filtered.json().users[0].name).toBe("Bob");
  });
});

describe("list-users filters on dates", () => {
  it("compares createdAt as an instant, to the millisecond it answers with", async () => {
    const admin = await signUpAdmin();
    const tag = `dates${Date.now()}`;
    const created: Array<{ name: string; createdAt: string }> = [];
    for (const name of ["First", "Second", "Third"]) {
      const response = await admin.client.post("/admin/create-user", {
        email: `${name.toLowerCase()}-${tag}@example.org`,
        name,
      });
      expect(response.statusCode).toBe(200);
      created.push(response.json().user);
    }
    // Three distinct instants, whatever the clock's resolution.
    await t.db.sql`
      update "user" set created_at = case name
        when 'First' then '2026-01-01T00:00:00.000Z'::timestamptz
        when 'Second' then '2026-01-01T00:00:00.250Z'::timestamptz + interval '17 microseconds'
        else '2026-06-01T12:00:00Z'::timestamptz end
      where email like ${`%-${tag}@example.org`}`;
    const names = async (operator: string, value: string) => {
      const response = await admin.client.get("/admin/list-users", {
        query: {
          searchValue: tag,
          filterField: "createdAt",
          filterOperator: operator,
          filterValue: value,
          sortBy: "name",
        },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().users.map((user: { name: string }) => user.name);
    };
    expect(await names("gt", "2026-01-01T00:00:00.000Z")).toEqual(["Second", "Third"]);
    expect(await names("gte", "2026-01-01T00:00:00.000Z")).toEqual(["First", "Second", "Third"]);
    expect(await names("lt", "2026-06-01T12:00:00Z")).toEqual(["First", "Second"]);
    expect(await names("lte", "2026-01-01T00:00:00.250Z")).toEqual(["First", "Second"]);
    // The instant an answer shows (milliseconds) finds the user it was shown for.
    expect(await names("eq", "2026-01-01T00:00:00.250Z")).toEqual(["Second"]);
    expect(await names("ne", "2026-01-01T00:00:00.250Z")).toEqual(["First", "Third"]);
    expect(await names("contains", "2026-06")).toEqual(["Third"]);
  });

  it("refuses a value that is not a date with 400 VALIDATION_ERROR", async () => {
    const admin = await signUpAdmin();
    for (const filterField of ["createdAt", "updatedAt"]) {
      const response = await admin.client.get("/admin/list-users", {
        query: { filterField, filterOperator: "lt", filterValue: "notadate" },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION_ERROR" });
    }
  });
});

describe("update-user and set-role", () => {
  it("updates name, email and emailVerified; refuses password, id, empty data, taken email", async () => {
    const admin = await signUpAdmin();
    const target = await signUp();
    const newEmail = uniqueEmail("Renamed");
    const response = await admin.client.post("/admin/update-user", {
      userId: target.id,
      data: { name: "Renamed", email: newEmail, emailVerified: true },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: target.id,
      name: "Renamed",
      email: newEmail.toLowerCase(),
      emailVerified: true,
    });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ password: "x" }, 400, "PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER"],
      [{ id: "x" }, 400, "USER_ID_CANNOT_BE_UPDATED"],
      [{}, 400, "NO_DATA_TO_UPDATE"],
      [{ email: admin.email }, 422, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"],
      [{ email: "bad" }, 400, "INVALID_EMAIL"],
      [{ role: "root" }, 400, "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE"],
      [{ nickname: "x" }, 400, "VALIDATION_ERROR"],
      // PostgreSQL stores no NUL: refused as input, never a 500.
      [{ name: "a\u0000b" }, 400, "VALIDATION_ERROR"],
      [{ image: "https://x.test/\u0000" }, 400, "VALIDATION_ERROR"],
      [{ banReason: "spam\u0000" }, 400, "VALIDATION_ERROR"],
      [{ email: `a\u0000${newEmail}` }, 400, "INVALID_EMAIL"],
    ];
    for (const [data, status, code] of cases) {
      const refused = await admin.client.post("/admin/update-user", { userId: target.id, data });
      expect(refused.statusCode, JSON.stringify(data)).toBe(status);
      expect(refused.json().code, JSON.stringify(data)).toBe(code);
    }
    const self = await admin.client.post("/admin/update-user", {
      userId: admin.id,
      data: { banned: true },
    });
    expect(self.json().code).toBe("YOU_CANNOT_BAN_YOURSELF");
    const missing = await admin.client.post("/admin/update-user", {
      userId: "nobody",
      data: { name: "N" },
    });
    expect(missing.statusCode).toBe(404);
    expect((await auditRows("admin.update_user", target.id)).length).toBe(1);
  });

  it("sets a known role (string or list) and refuses an unknown one", async () => {
    const admin = await signUpAdmin();
    const target = await signUp();
    const set = await admin.client.post("/admin/set-role", { userId: target.id, role: "admin" });
    expect(set.statusCode).toBe(200);
    expect(set.json().user.role).toBe("admin");
    const list = await admin.client.post("/admin/set-role", {
      userId: target.id,
      role: ["user", "admin"],
    });
    expect(list.json().user.role).toBe("user,admin");
    const unknown = await admin.client.post("/admin/set-role", { userId: target.id, role: "god" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe("YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE");
    const missing = await admin.client.post("/admin/set-role", { userId: "nobody", role: "user" });
    expect(missing.statusCode).toBe(404);
    const rows = await auditRows("admin.set_role", target.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]?.actorId).toBe(admin.id);
  });
});

describe("ban-user and unban-user", () => {
  it("bans: revokes sessions, blocks sign-in with the reason; unban restores sign-in", async () => {
    const admin = await signUpAdmin();
    const target = await signUp();
    const banned = await admin.client.post("/admin/ban-user", {
      userId: target.id,
      banReason: "spam",
    });
    expect(banned.statusCode, banned.body).toBe(200);
    expect(banned.json().user).toMatchObject({ banned: true, banReason: "spam", banExpires: null });
    const sessions = await t.db.sql`select 1 from session where user_id = ${target.id}`;
    expect(sessions.count).toBe(0);
    const getSession = await target.client.get("/get-session", {
      query: { disableCookieCache: "true" },
    });
    expect(getSession.json()).toBeNull();
    const signInAttempt = await signIn(target.email);
    expect(signInAttempt.statusCode).toBe(403);
    expect(signInAttempt.json()).toMatchObject({
      code: "BANNED_USER",
      details: { reason: "spam", expiresAt: null },
    });
    const rows = await auditRows("admin.ban_user", target.id);
    expect(rows).toEqual([
      expect.objectContaining({ actorId: admin.id, actorType: "user", targetId: target.id }),
    ]);

    const unbanned = await admin.client.post("/admin/unban-user", { userId: target.id });
    expect(unbanned.json().user).toMatchObject({
      banned: false,
      banReason: null,
      banExpires: null,
    });
    expect((await signIn(target.email)).statusCode).toBe(200);
    expect(await auditRows("admin.unban_user", target.id)).toHaveLength(1);
  });

  it("defaults the reason, sets an expiry; an expired ban lifts itself on sign-in", async () => {
    const admin = await signUpAdmin();
    const target = await signUp();
    const banned = await admin.client.post("/admin/ban-user", {
      userId: target.id,
      banExpiresIn: 60,
    });
    expect(banned.json().user.banReason).toBe("No reason");
    const expires = new Date(banned.json().user.banExpires).getTime();
    expect(Math.abs(expires - (Date.now() + 60_000))).toBeLessThan(5_000);
    expect((await signIn(target.email)).statusCode).toBe(403);
    await t.db
      .sql`update "user" set ban_expires = now() - interval '1 second' where id = ${target.id}`;
    const again = await signIn(target.email);
    expect(again.statusCode, again.body).toBe(200);
    const [row] = await t.db.sql<
      { banned: boolean }[]
    >`select banned from "user" where id = ${target.id}`;
    expect(row?.banned).toBe(false);
  });

  it("refuses to ban oneself and an unknown user", async () => {
    const admin = await signUpAdmin();
    const self = await admin.client.post("/admin/ban-user", { userId: admin.id });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({
      code: "YOU_CANNOT_BAN_YOURSELF",
      message: "You cannot ban yourself",
    });
    const missing = await admin.client.post("/admin/ban-user", { userId: "nobody" });
    expect(missing.statusCode).toBe(404);
    const unbanMissing = await admin.client.post("/admin/unban-user", { userId: "nobody" });
    expect(unbanMissing.statusCode).toBe(404);
  });
});

describe("impersonation", () => {
  it("round trip: impersonate sets cookies and impersonatedBy; stop restores the admin", async () => {
    const admin = await signUpAdmin();
    const target = await signUp();
    const adminToken = admin.client.cookies.get("authd.session_token");
    const response = await admin.client.post("/admin/impersonate-user", { userId: target.id });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.user.id).toBe(target.id);
    expect(body.session.impersonatedBy).toBe(admin.id);
    const lifetime = new Date(body.session.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(3590_000);
    expect(lifetime).toBeLessThanOrEqual(3600_000);
    const cookies = admin.client.setCookies(response);
    expect(cookies.get("authd.admin_session")).toMatch(
      /^authd\.admin_session=[^;]+; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(cookies.get("authd.session_token")).not.toContain("Max-Age");
    expect(admin.client.cookies.get("authd.session_token")).not.toBe(adminToken);

    const asTarget = await admin.client.get("/get-session");
    expect(asTarget.json().user.id).toBe(target.id);
    expect(asTarget.json().session.impersonatedBy).toBe(admin.id);
    // The impersonated user is no admin: admin endpoints are closed.
    const closed = await admin.client.get("/admin/list-users");
    expect(closed.statusCode).toBe(403);

    const stop = await admin.client.post("/admin/stop-impersonating");
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json().user.id).toBe(admin.id);
    expect(stop.json().session.impersonatedBy).toBeNull();
    expect(admin.client.cookies.get("authd.session_token")).toBe(adminToken);
    expect(admin.client.cookies.has("authd.admin_session")).toBe(false);
    const back = await admin.client.get("/get-session", { query: { disableCookieCache: "true" } });
    expect(back.json().user.id).toBe(admin.id);
    const left = await t.db.sql`select 1 from session where id = ${body.session.id}`;
    expect(left.count).toBe(0);
    expect(await auditRows("admin.impersonate_user", target.id)).toEqual([
      expect.objectContaining({ actorId: admin.id }),
    ]);
    expect(await auditRows("admin.stop_impersonating", target.id)).toHaveLength(1);
  });

  it("refuses to impersonate an admin, an unknown user; stop without impersonation is 400", async () => {
    const admin = await signUpAdmin();
    const other = await signUpAdmin();
    const refused = await admin.client.post("/admin/impersonate-user", { userId: other.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("YOU_CANNOT_IMPERSONATE_ADMINS");
    const missing = await admin.client.post("/admin/impersonate-user", { userId: "nobody" });
    expect(missing.statusCode).toBe(404);
    const stop = await admin.client.post("/admin/stop-impersonating");
    expect(stop.statusCode).toBe(400);
    expect(stop.json()).toEqual({
      code: "YOU_ARE_NOT_IMPERSONATING_ANYONE",
      message: "You are not impersonating anyone",
    });
  });

  it("allows impersonating admins when admin.allowImpersonatingAdmins is on", async () => {
    const other = await createTestApp({ config: { admin: { allowImpersonatingAdmins: true } } });
    try {
      const clients = [createClient(other.app), createClient(other.app)];
      const ids: string[] = [];
      for (const [index, client] of clients.entries()) {
        const up = await client.post("/sign-up/email", {
          name: "A",
          email: `a${index}@example.com`,
          password: PASSWORD,
        });
        ids.push(up.json().user.id);
      }
      await other.db.sql`update "user" set role = 'admin'`;
      const response = await clients[0]?.post("/admin/impersonate-user", { userId: ids[1] });
      expect(response?.statusCode, response?.body).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe("sessions, removal, passwords, permissions", () => {
  it("lists a user's sessions, revokes one, then all", async () => {
    const admin = await signUpAdmin();
    const target = await signUp();
    await signIn(target.email);
    const listed = await admin.client.post("/admin/list-user-sessions", { userId: target.id });
    expect(listed.statusCode).toBe(200);
    const { sessions } = listed.json();
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ userId: target.id, impersonatedBy: null });
    const revoke = await admin.client.post("/admin/revoke-user-session", {
      sessionToken: sessions[0].id,
    });
    expect(revoke.json()).toEqual({ success: true });
    const unknown = await admin.client.post("/admin/revoke-user-session", { sessionToken: "nope" });
    expect(unknown.json()).toEqual({ success: true });
    expect(await auditRows("admin.revoke_user_session", sessions[0].id)).toHaveLength(1);
    const after = await admin.client.post("/admin/list-user-sessions", { userId: target.id });
    expect(after.json().sessions).toHaveLength(1);
    const all = await admin.client.post("/admin/revoke-user-sessions", { userId: target.id });
    expect(all.json()).toEqual({ success: true });
    const none = await admin.client.post("/admin/list-user-sessions", { userId: target.id });
    expect(none.json().sessions).toEqual([]);
    expect(await auditRows("admin.revoke_user_sessions", target.id)).toHaveLength(1);
  });

  it("removes a user, not oneself, not an unknown one", async () => {
    const admin = await signUpAdmin();
    const target = await signUp();
    const removed = await admin.client.post("/admin/remove-user", { userId: target.id });
    expect(removed.json()).toEqual({ success: true });
    const gone = await t.db.sql`select 1 from "user" where id = ${target.id}`;
    expect(gone.count).toBe(0);
    expect(await auditRows("admin.remove_user", target.id)).toEqual([
      expect.objectContaining({ actorId: admin.id, actorType: "user" }),
    ]);
    const self = await admin.client.post("/admin/remove-user", { userId: admin.id });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({
      code: "YOU_CANNOT_REMOVE_YOURSELF",
      message: "You cannot remove yourself",
    });
    const missing = await admin.client.post("/admin/remove-user", { userId: target.id });
    expect(missing.statusCode).toBe(404);
  });

  it("sets a password (creating the credential account) without revoking sessions", async () => {
    const admin = await signUpAdmin();
    const created = await admin.client.post("/admin/create-user", {
      email: uniqueEmail(),
      name: "NoPw",
    });
    const { user } = created.json();
    const set = await admin.client.post("/admin/set-user-password", {
      userId: user.id,
      newPassword: "a brand new password",
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ status: true });
    expect((await signIn(user.email, "a brand new password")).statusCode).toBe(200);
    const target = await signUp();
    await admin.client.post("/admin/set-user-password", {
      userId: target.id,
      newPassword: "another new password",
    });
    expect((await target.client.get("/get-session")).json()?.user.id).toBe(target.id);
    expect((await signIn(target.email, "another new password")).statusCode).toBe(200);
    const short = await admin.client.post("/admin/set-user-password", {
      userId: target.id,
      newPassword: "short",
    });
    expect(short.json().code).toBe("PASSWORD_TOO_SHORT");
    const empty = await admin.client.post("/admin/set-user-password", {
      userId: target.id,
      newPassword: "",
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe("VALIDATION_ERROR");
    const missing = await admin.client.post("/admin/set-user-password", {
      userId: "nobody",
      newPassword: "long enough password",
    });
    expect(missing.statusCode).toBe(404);
    expect(await auditRows("admin.set_user_password", target.id)).toHaveLength(1);
  });

  it("has-permission evaluates the caller", async () => {
    const admin = await signUpAdmin();
    const plain = await signUp();
    const ask = (client: Client, permissions: unknown) =>
      client.post("/admin/has-permission", { permissions });
    expect((await ask(admin.client, { user: ["ban"], session: ["revoke"] })).json()).toEqual({
      error: null,
      success: true,
    });
    expect((await ask(admin.client, { user: ["impersonate-admins"] })).json().success).toBe(false);
    expect((await ask(plain.client, { user: ["list"] })).json()).toEqual({
      error: null,
      success: false,
    });
    const legacy = await plain.client.post("/admin/has-permission", {
      permission: { user: ["list"] },
    });
    expect(legacy.statusCode).toBe(400);
    expect(legacy.json().message).toBe("invalid permission check. no permission(s) were passed.");
  });
});
