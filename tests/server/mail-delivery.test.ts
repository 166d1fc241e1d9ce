import net from "node:net";
import { describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";

const PASSWORD = "mail delivery 123";

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function signedIn(t: TestApp, email: string) {
  const client = createClient(t.app);
  const response = await client.post("/sign-up/email", { name: "M", email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  return client;
}

async function auditRows(t: TestApp, email: string) {
  return t.db.sql<{ action: string; targetId: string; details: { kind: string } }[]>`
    select action, target_id, details from audit_event
    where action = 'mail.delivery_failed' and target_id = ${email}`;
}

async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await probe();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return probe();
}

describe("mail that cannot be delivered", () => {
  it("tells a signed-in caller, records it, and keeps the generic answer elsewhere", async () => {
    const port = await closedPort();
    const t = await createTestApp({
      config: { mail: { smtpUrl: `smtp://127.0.0.1:${port}`, timeout: 5 } },
    });
    try {
      const email = `fail-${Date.now()}@example.com`;
      const client = await signedIn(t, email);
      const response = await client.post("/send-verification-email", { email });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({
        code: "MAIL_DELIVERY_FAILED",
        message: "The email could not be sent. Please try again later.",
      });
      const rows = await auditRows(t, email);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.details.kind).toBe("verification");

      // Password reset must not reveal that the address exists: same answer, still recorded.
      const reset = await createClient(t.app).post("/request-password-reset", { email });
      expect(reset.statusCode).toBe(200);
      expect(reset.json().status).toBe(true);
      const after = await eventually(
        () => auditRows(t, email),
        (found) => found.length === 2,
      );
      expect(after.map((row) => row.details.kind).sort()).toEqual([
        "reset-password",
        "verification",
      ]);
    } finally {
      await t.close();
    }
  });
});

describe("a slow mail server", () => {
  it("does not hold the answer longer than mail.timeout; the mail still arrives", async () => {
    const t = await createTestApp({ config: { mail: { timeout: 1 } }, smtpDelayMs: 2500 });
    try {
      const email = `slow-${Date.now()}@example.com`;
      const client = createClient(t.app);
      await client.post("/sign-up/email", { name: "S", email, password: PASSWORD });
      const response = await client.post("/send-verification-email", { email });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: true });
      // Answered while the server was still holding the message...
      expect(t.smtp.messages.filter((message) => message.to.includes(email))).toHaveLength(0);
      // ...which it then accepts: nothing was dropped.
      const message = await t.smtp.waitFor(email, 10_000);
      expect(message.subject).toBe("Verify your email address");
      expect(await auditRows(t, email)).toHaveLength(0);
    } finally {
      await t.close();
    }
  });
});
