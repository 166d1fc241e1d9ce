/**
 * POST /admin/has-permission with the `{actions, connector}` form of a resource
 * (as in Better Auth): connector "OR" lets any one listed action suffice, "AND" (the
 * default) needs them all, and every resource listed must pass.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

let t: TestApp;
let admin: Client;
let plain: Client;
const PASSWORD = "correct horse battery";

async function signUp(email: string): Promise<{ client: Client; id: string }> {
  const client = createClient(t.app);
  const response = await client.post("/sign-up/email", { name: "Ada", email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  return { client, id: response.json().user.id };
}

beforeAll(async () => {
  t = await createTestApp();
  const adminUser = await signUp("admin@example.com");
  await t.db.sql`update "user" set role = 'admin' where id = ${adminUser.id}`;
  admin = adminUser.client;
  plain = (await signUp("plain@example.com")).client;
});

afterAll(async () => {
  await t?.close();
});

async function ask(client: Client, permissions: unknown): Promise<boolean> {
  const response = await client.post("/admin/has-permission", { permissions });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  expect(body).toEqual({ error: null, success: expect.any(Boolean) });
  return body.success;
}

describe("POST /admin/has-permission with a connector", () => {
  it("OR: any one listed action suffices", async () => {
    // An admin holds ban but never impersonate-admins (as in Better Auth).
    expect(await ask(admin, { user: ["ban", "impersonate-admins"] })).toBe(false);
    expect(
      await ask(admin, { user: { actions: ["impersonate-admins", "ban"], connector: "OR" } }),
    ).toBe(true);
    expect(await ask(admin, { user: { actions: ["impersonate-admins"], connector: "OR" } })).toBe(
      false,
    );
    // Nothing to choose from: OR is false, as in the established API.
    expect(await ask(admin, { user: { actions: [], connector: "OR" } })).toBe(false);
  });

  it("AND, or no connector, needs every listed action", async () => {
    expect(
      await ask(admin, { user: { actions: ["ban", "impersonate-admins"], connector: "AND" } }),
    ).toBe(false);
    expect(await ask(admin, { user: { actions: ["ban", "impersonate-admins"] } })).toBe(false);
    expect(await ask(admin, { user: { actions: ["ban", "list"], connector: "AND" } })).toBe(true);
    expect(await ask(admin, { user: { actions: ["ban", "list"] } })).toBe(true);
  });

  it("every resource listed must pass, whatever each one's connector", async () => {
    const orUser = { actions: ["impersonate-admins", "list"], connector: "OR" };
    expect(await ask(admin, { user: orUser, session: ["revoke"] })).toBe(true);
    expect(await ask(admin, { user: orUser, session: ["revoke", "nope"] })).toBe(false);
    expect(
      await ask(admin, {
        user: orUser,
        session: { actions: ["nope", "list"], connector: "OR" },
      }),
    ).toBe(true);
    expect(
      await ask(admin, {
        user: { actions: ["impersonate-admins"], connector: "OR" },
        session: ["list"],
      }),
    ).toBe(false);
  });

  it("OR grants nothing a role does not hold", async () => {
    expect(await ask(plain, { user: { actions: ["list", "ban", "get"], connector: "OR" } })).toBe(
      false,
    );
    expect(await ask(plain, { session: { actions: ["list"], connector: "OR" } })).toBe(false);
  });

  it("refuses a connector other than OR or AND, and a form without actions (400)", async () => {
    for (const permissions of [
      { user: { actions: ["ban"], connector: "XOR" } },
      { user: { actions: ["ban"], connector: "or" } },
      { user: { connector: "OR" } },
      { user: { actions: "ban", connector: "OR" } },
    ]) {
      const response = await admin.post("/admin/has-permission", { permissions });
      expect(response.statusCode, JSON.stringify(permissions)).toBe(400);
      expect(response.json().code, JSON.stringify(permissions)).toBe("VALIDATION_ERROR");
    }
  });

  it("is still 401 signed out", async () => {
    const response = await createClient(t.app).post("/admin/has-permission", {
      permissions: { user: { actions: ["list"], connector: "OR" } },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
  });
});
