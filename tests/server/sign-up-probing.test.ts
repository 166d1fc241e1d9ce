/**
 * Sign-up must not tell which addresses have an account: where no session would be
 * issued (verification required, or autoSignIn off), a sign-up for a taken address
 * answers like one for a new address, in the same shape, without the existing user's id,
 * without writing a row and without mailing the address's owner.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";

const PASSWORD = "probing sign-up 123";

let t: TestApp;
let counter = 0;

function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}-${Date.now()}@example.com`;
}

/** Every key with the JSON type of its value (null stays null). */
function shapeOf(value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [key, field === null ? "null" : typeof field]),
  );
}

beforeAll(async () => {
  t = await createTestApp({
    config: { emailAndPassword: { requireEmailVerification: true } },
  });
});

afterAll(async () => {
  await t?.close();
});

describe("sign-up for an address that already has an account", () => {
  it("answers like a new user, and reveals, writes and mails nothing", async () => {
    const taken = uniqueEmail("taken");
    const first = await createClient(t.app).post("/sign-up/email", {
      name: "Owner",
      email: taken,
      password: PASSWORD,
    });
    expect(first.statusCode, first.body).toBe(200);
    const existingId = first.json().user.id as string;
    await t.smtp.waitFor(taken);

    const fresh = uniqueEmail("fresh");
    const newUser = await createClient(t.app).post("/sign-up/email", {
      name: "Prober",
      email: fresh,
      password: PASSWORD,
      image: "https://img.example.com/p.png",
    });
    const probe = await createClient(t.app).post("/sign-up/email", {
      name: "Prober",
      email: taken.toUpperCase(),
      password: "another password 456",
      image: "https://img.example.com/p.png",
    });
    expect(newUser.statusCode, newUser.body).toBe(200);
    expect(probe.statusCode, probe.body).toBe(200);
    expect(probe.headers["set-cookie"]).toBeUndefined();
    expect(newUser.headers["set-cookie"]).toBeUndefined();

    const genuine = newUser.json();
    const lookAlike = probe.json();
    // The same keys, in the same order, with the same types.
    expect(Object.keys(lookAlike)).toEqual(Object.keys(genuine));
    expect(Object.keys(lookAlike.user)).toEqual(Object.keys(genuine.user));
    expect(shapeOf(lookAlike.user)).toEqual(shapeOf(genuine.user));
    expect(lookAlike.token).toBeNull();

    // The content a new user would have: the request's values, nothing of the account.
    expect(lookAlike.user).toMatchObject({
      name: "Prober",
      email: taken,
      emailVerified: false,
      image: "https://img.example.com/p.png",
      role: genuine.user.role,
      banned: false,
      banReason: null,
      banExpires: null,
    });
    expect(genuine.user).toMatchObject({ role: "user", banned: false, banReason: null });
    expect(lookAlike.user.id).not.toBe(existingId);
    expect(lookAlike.user.id).toHaveLength(genuine.user.id.length);
    expect(lookAlike.user.id).toMatch(/^[A-Za-z0-9]+$/);
    expect(probe.body).not.toContain(existingId);
    expect(lookAlike.user.createdAt).toBe(lookAlike.user.updatedAt);
    expect(Math.abs(Date.parse(lookAlike.user.createdAt) - Date.now())).toBeLessThan(60_000);

    // A second probe gets another id: nothing stable to recognise an account by.
    const again = await createClient(t.app).post("/sign-up/email", {
      name: "Prober",
      email: taken,
      password: PASSWORD,
    });
    expect(again.json().user.id).not.toBe(lookAlike.user.id);
    expect(again.body).not.toContain(existingId);

    // Nothing was written: one user, one credential account, the first password.
    const users = await t.db.sql<{ id: string; name: string }[]>`
      select id, name from "user" where email = ${taken}`;
    expect(users).toEqual([{ id: existingId, name: "Owner" }]);
    const [accounts] = await t.db.sql<{ count: number }[]>`
      select count(*)::int as count from account where user_id = ${existingId}`;
    expect(accounts?.count).toBe(1);
    const [lookedAlike] = await t.db.sql<{ count: number }[]>`
      select count(*)::int as count from "user" where id = ${lookAlike.user.id}`;
    expect(lookedAlike?.count).toBe(0);
    const signIn = await createClient(t.app).post("/sign-in/email", {
      email: taken,
      password: "another password 456",
    });
    expect(signIn.json().code).toBe("INVALID_EMAIL_OR_PASSWORD");

    // The new address gets its verification mail; the taken one gets nothing more.
    await t.smtp.waitFor(fresh);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.smtp.messages.filter((message) => message.to.includes(taken))).toHaveLength(1);
  });

  it("spends a password hash on a taken address, as on a new one", async () => {
    const taken = uniqueEmail("hashed");
    await createClient(t.app).post("/sign-up/email", {
      name: "Owner",
      email: taken,
      password: PASSWORD,
    });
    const { passwords } = t.app.authContext;
    const hash = passwords.hash.bind(passwords);
    let hashed = 0;
    passwords.hash = async (password: string) => {
      hashed += 1;
      return hash(password);
    };
    try {
      const probe = await createClient(t.app).post("/sign-up/email", {
        name: "Prober",
        email: taken,
        password: PASSWORD,
      });
      expect(probe.statusCode).toBe(200);
      expect(hashed).toBe(1);
      await createClient(t.app).post("/sign-up/email", {
        name: "New",
        email: uniqueEmail("new"),
        password: PASSWORD,
      });
      expect(hashed).toBe(2);
    } finally {
      passwords.hash = hash;
    }
  });

  it("still refuses a taken address with 422 where sign-up signs in", async () => {
    const open = await createTestApp();
    try {
      const email = uniqueEmail("open");
      await createClient(open.app).post("/sign-up/email", { name: "A", email, password: PASSWORD });
      const again = await createClient(open.app).post("/sign-up/email", {
        name: "B",
        email,
        password: PASSWORD,
      });
      expect(again.statusCode).toBe(422);
      expect(again.json().code).toBe("USER_ALREADY_EXISTS");
    } finally {
      await open.close();
    }
  });
});
