/**
 * Addresses with control, invisible or direction-changing characters are refused with
 * 400 INVALID_EMAIL wherever an email enters over HTTP, and nothing is created: such
 * characters make one address look like another on screen. So are malformed ones
 * (dots out of place, address-list syntax): a mailer reads `alice@example.com,` as a
 * list and would deliver to alice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISGUISED_EMAILS, MALFORMED_EMAILS } from "../fixtures/disguised-emails.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

let t: TestApp;

let owner: Client;
let admin: Client;
let organizationId: string;

async function signUp(client: Client, email: string) {
  const response = await client.post("/sign-up/email", {
    email,
    password: "password-1234",
    name: "Someone",
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().user as { id: string };
}

async function userCount(): Promise<number> {
  const [row] = await t.db.sql<{ count: number }[]>`select count(*)::int as count from "user"`;
  return row?.count ?? 0;
}

beforeAll(async () => {
  t = await createTestApp({ config: { user: { changeEmail: { enabled: true } } } });
  owner = createClient(t.app);
  await signUp(owner, "owner@example.com");
  const created = await owner.post("/organization/create", { name: "Acme", slug: "acme" });
  expect(created.statusCode, created.body).toBe(200);
  organizationId = created.json().id;
  admin = createClient(t.app);
  const adminUser = await signUp(admin, "admin@example.com");
  await t.db.sql`update "user" set role = 'admin' where id = ${adminUser.id}`;
});

afterAll(async () => {
  await t?.close();
});

function expectInvalidEmail(response: { statusCode: number; json(): unknown }, label: string) {
  expect(response.statusCode, label).toBe(400);
  expect(response.json(), label).toMatchObject({ code: "INVALID_EMAIL", message: "Invalid email" });
}

type Addresses = ReadonlyArray<readonly [string, string]>;

/** Each address is refused at sign-up, and no user is created. */
async function expectSignUpsRefused(addresses: Addresses, name: string): Promise<void> {
  const before = await userCount();
  for (const [label, email] of addresses) {
    const response = await createClient(t.app).post("/sign-up/email", {
      email,
      password: "password-1234",
      name,
    });
    expectInvalidEmail(response, label);
  }
  expect(await userCount()).toBe(before);
}

/** Each address is refused at sign-in and by a password-reset request. */
async function expectSignInsAndResetsRefused(addresses: Addresses): Promise<void> {
  for (const [label, email] of addresses) {
    const client = createClient(t.app);
    expectInvalidEmail(
      await client.post("/sign-in/email", { email, password: "password-1234" }),
      `sign-in: ${label}`,
    );
    expectInvalidEmail(await client.post("/request-password-reset", { email }), `reset: ${label}`);
  }
}

describe("disguised addresses", () => {
  it("are refused at sign-up, and no user is created", async () => {
    await expectSignUpsRefused(DISGUISED_EMAILS, "Eve");
    const [stored] = await t.db.sql`select 1 from "user" where email like '%eve%'`;
    expect(stored).toBeUndefined();
  });

  it("are refused at sign-in, password reset and verification requests", async () => {
    await expectSignInsAndResetsRefused(DISGUISED_EMAILS);
  });

  it("are refused by change-email, and the address stays", async () => {
    for (const [label, email] of DISGUISED_EMAILS) {
      expectInvalidEmail(await owner.post("/change-email", { newEmail: email }), label);
    }
    const session = await owner.get("/get-session", { query: { disableCookieCache: "true" } });
    expect(session.json().user.email).toBe("owner@example.com");
  });

  it("are refused by invite-member, and no invitation is created", async () => {
    for (const [label, email] of DISGUISED_EMAILS) {
      expectInvalidEmail(
        await owner.post("/organization/invite-member", { email, role: "member", organizationId }),
        label,
      );
    }
    const [row] = await t.db.sql<{ count: number }[]>`
      select count(*)::int as count from invitation where organization_id = ${organizationId}`;
    expect(row?.count).toBe(0);
  });

  it("are refused by the admin API's create-user and update-user", async () => {
    const before = await userCount();
    for (const [label, email] of DISGUISED_EMAILS) {
      expectInvalidEmail(
        await admin.post("/admin/create-user", {
          email,
          password: "password-1234",
          name: "Eve",
        }),
        `create: ${label}`,
      );
    }
    expect(await userCount()).toBe(before);
    const target = await signUp(createClient(t.app), "target@example.com");
    for (const [label, email] of DISGUISED_EMAILS) {
      expectInvalidEmail(
        await admin.post("/admin/update-user", { userId: target.id, data: { email } }),
        `update: ${label}`,
      );
    }
    const [row] = await t.db.sql`select email from "user" where id = ${target.id}`;
    expect(row?.email).toBe("target@example.com");
  });

  it("leaves ordinary addresses alone: spaces around them are trimmed, case is folded", async () => {
    const client = createClient(t.app);
    const user = await signUp(client, "  Plain.Person+tag@Example.COM ");
    const [row] = await t.db.sql`select email from "user" where id = ${user.id}`;
    expect(row?.email).toBe("plain.person+tag@example.com");
    // International addresses are not disguised ones.
    await signUp(createClient(t.app), "jürgen@exämple.de");
  });
});

describe("malformed addresses", () => {
  it("are refused at sign-up, and no user is created", async () => {
    await expectSignUpsRefused(MALFORMED_EMAILS, "Mallory");
  });

  it("are refused at sign-in, password reset and verification requests, and mail no one", async () => {
    // The address a list-syntax look-alike would reach, were it read as a list.
    await signUp(createClient(t.app), "alice@example.com");
    const mailedBefore = t.smtp.messages.length;
    await expectSignInsAndResetsRefused(MALFORMED_EMAILS);
    for (const [label, email] of MALFORMED_EMAILS) {
      expectInvalidEmail(
        await createClient(t.app).post("/send-verification-email", { email }),
        `verification: ${label}`,
      );
    }
    expect(t.smtp.messages.slice(mailedBefore)).toEqual([]);
  });

  it("are refused by change-email, invite-member and the admin API", async () => {
    for (const [label, email] of MALFORMED_EMAILS) {
      expectInvalidEmail(await owner.post("/change-email", { newEmail: email }), label);
      expectInvalidEmail(
        await owner.post("/organization/invite-member", { email, role: "member", organizationId }),
        `invite: ${label}`,
      );
      expectInvalidEmail(
        await admin.post("/admin/create-user", { email, password: "password-1234", name: "M" }),
        `create: ${label}`,
      );
    }
    const session = await owner.get("/get-session", { query: { disableCookieCache: "true" } });
    expect(session.json().user.email).toBe("owner@example.com");
    const [row] = await t.db.sql<{ count: number }[]>`
      select count(*)::int as count from invitation where organization_id = ${organizationId}`;
    expect(row?.count).toBe(0);
  });

  it("leaves well-formed ones alone: apostrophes, plus tags, one-letter labels", async () => {
    for (const email of ["o'brien@example.com", "a+b@x.io", "q@a.b.c"]) {
      await signUp(createClient(t.app), email);
    }
  });
});
