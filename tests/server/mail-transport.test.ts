/**
 * The mail transport against a real SMTP server (the `smtp-server` package as a sink)
 * and against a real outbox folder.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type LoadedConfig, loadConfig } from "../../server/config.js";
import {
  createMailTransport,
  MailDeliveryError,
  type MailTransport,
} from "../../server/mail/transport.js";

interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
  user: string | undefined;
}

interface SmtpSink {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** A loopback SMTP server that keeps every message; AUTH only as authd / right-pass. */
async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    hideSTARTTLS: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "authd" && auth.password === "right-pass") {
        callback(null, { user: auth.username });
      } else {
        callback(new Error("Invalid username or password"));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const mailFrom = session.envelope.mailFrom;
        received.push({
          mailFrom: mailFrom ? mailFrom.address : "",
          rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString("utf8"),
          user: typeof session.user === "string" ? session.user : undefined,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.server.address();
  if (typeof address !== "object" || !address) throw new Error("sink has no port");
  return {
    port: address.port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on: bound, read, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

let directory: string;
let sink: SmtpSink;
const transports: MailTransport[] = [];

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "authd-mail-"));
  sink = await startSmtpSink();
});

afterEach(() => {
  for (const transport of transports.splice(0)) transport.close();
});

afterAll(async () => {
  await sink.close();
  await rm(directory, { recursive: true, force: true });
});

async function configWith(
  env: Record<string, string>,
  mail: Record<string, unknown> = {},
): Promise<LoadedConfig> {
  return loadConfig({
    cwd: directory,
    env: { MAIL_FROM: "authd <no-reply@example.test>", ...env },
    overrides: { mail },
  });
}

async function transportFor(
  env: Record<string, string>,
  mail: Record<string, unknown> = {},
): Promise<MailTransport> {
  const transport = createMailTransport(await configWith(env, mail));
  transports.push(transport);
  return transport;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

describe("SMTP transport", () => {
  it("delivers a message with the configured sender to the SMTP server", async () => {
    const transport = await transportFor({ SMTP_URL: `smtp://127.0.0.1:${sink.port}` });
    expect(transport.kind).toBe("smtp");
    expect(transport.describe).toBe(`smtp://127.0.0.1:${sink.port}`);

    const before = sink.received.length;
    const sent = await transport.send({
      to: "ada@example.test",
      subject: "Verify your email",
      text: "Open http://localhost:3000/verify?token=abc to verify.",
      html: "<p>Open the link to verify.</p>",
    });

    expect(sink.received).toHaveLength(before + 1);
    const mail = sink.received.at(-1);
    expect(mail?.mailFrom).toBe("no-reply@example.test");
    expect(mail?.rcptTo).toEqual(["ada@example.test"]);
    expect(mail?.raw).toMatch(/^From: authd <no-reply@example\.test>\r$/m);
    expect(mail?.raw).toMatch(/^To: ada@example\.test\r$/m);
    expect(mail?.raw).toMatch(/^Subject: Verify your email\r$/m);
    expect(mail?.raw).toContain("Open http://localhost:3000/verify?token=abc to verify.");
    expect(mail?.raw).toContain("<p>Open the link to verify.</p>");
    expect(mail?.raw).toContain(`Message-ID: ${sent.messageId}`);
    expect(sent.file).toBeUndefined();
  });

  it("sends to the one address it is given, never reading it as a list", async () => {
    const transport = await transportFor({ SMTP_URL: `smtp://127.0.0.1:${sink.port}` });
    const before = sink.received.length;
    // The address checks refuse this long before a mailer sees it; the transport holds
    // the line on its own too.
    // As one address it is not one the server takes: refused, and no one gets mail.
    const error = await rejection(
      transport.send({ to: "mallory@example.test,ada@example.test", subject: "s", text: "t" }),
    );
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(sink.received).toHaveLength(before);
  });

  it("verifies against a reachable server", async () => {
    const transport = await transportFor({ SMTP_URL: `smtp://127.0.0.1:${sink.port}` });
    await expect(transport.verify()).resolves.toBeUndefined();
  });

  it("signs in with the credentials of the URL and describes it without them", async () => {
    const transport = await transportFor({
      SMTP_URL: `smtp://authd:right-pass@127.0.0.1:${sink.port}`,
    });
    expect(transport.describe).toBe(`smtp://127.0.0.1:${sink.port}`);
    await transport.verify();
    const before = sink.received.length;
    await transport.send({ to: "bob@example.test", subject: "Hello", text: "Signed in." });
    expect(sink.received).toHaveLength(before + 1);
    expect(sink.received.at(-1)?.user).toBe("authd");
  });

  it("fails to sign in with a wrong password without printing it", async () => {
    const transport = await transportFor({
      SMTP_URL: `smtp://authd:wr0ng-secret@127.0.0.1:${sink.port}`,
    });
    const error = await rejection(transport.verify());
    expect(error).toBeInstanceOf(MailDeliveryError);
    const message = (error as MailDeliveryError).message;
    expect((error as MailDeliveryError).code).toBe("EAUTH");
    expect(message).toContain(`cannot sign in to the SMTP server at smtp://127.0.0.1:${sink.port}`);
    expect(message).not.toContain("wr0ng-secret");

    const sendError = await rejection(
      transport.send({ to: "x@example.test", subject: "s", text: "t" }),
    );
    expect(sendError).toBeInstanceOf(MailDeliveryError);
    expect((sendError as Error).message).not.toContain("wr0ng-secret");
  });

  it("fails verify and send against a closed port, naming it and not the password", async () => {
    const port = await closedPort();
    const transport = await transportFor(
      { SMTP_URL: `smtp://mailer:hunter2-secret@127.0.0.1:${port}` },
      { timeout: 2 },
    );
    expect(transport.describe).toBe(`smtp://127.0.0.1:${port}`);

    const error = await rejection(transport.verify());
    expect(error).toBeInstanceOf(MailDeliveryError);
    const message = (error as Error).message;
    expect(message).toContain(`cannot reach the SMTP server at smtp://127.0.0.1:${port}`);
    expect(message).not.toContain("hunter2");

    const sendError = await rejection(
      transport.send({ to: "x@example.test", subject: "s", text: "t" }),
    );
    expect(sendError).toBeInstanceOf(MailDeliveryError);
    expect((sendError as Error).message).toContain(`smtp://127.0.0.1:${port}`);
    expect((sendError as Error).message).not.toContain("hunter2");
  });

  it("gives up on a server that never greets after mail.timeout", async () => {
    // Accepts the TCP connection and then says nothing.
    const sockets = new Set<import("node:net").Socket>();
    const silent: Server = createServer((socket) => {
      socket.on("error", () => {});
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    const address = silent.address();
    if (typeof address !== "object" || !address) throw new Error("no port");
    try {
      const transport = await transportFor(
        { SMTP_URL: `smtps://mailer:hunter2-secret@127.0.0.1:${address.port}` },
        { timeout: 1 },
      );
      expect(transport.describe).toBe(`smtps://127.0.0.1:${address.port}`);
      const error = await rejection(transport.verify());
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect((error as MailDeliveryError).code).toBe("ETIMEDOUT");
      expect((error as Error).message).toContain(`smtps://127.0.0.1:${address.port}`);
      expect((error as Error).message).not.toContain("hunter2");
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 15_000);
});

describe("outbox transport", () => {
  it("writes one .eml file per message, named in the order they were sent", async () => {
    const transport = await transportFor({});
    const outbox = path.join(directory, ".authd", "outbox");
    expect(transport.kind).toBe("outbox");
    expect(transport.describe).toBe(outbox);

    const subjects = ["first", "second", "third", "fourth", "fifth"];
    const sent = [];
    for (const subject of subjects) {
      sent.push(
        await transport.send({
          to: "ada@example.test",
          subject: `Message ${subject}`,
          text: `Body of the ${subject} message.`,
        }),
      );
    }

    const files = (await readdir(outbox)).sort();
    expect(files).toHaveLength(subjects.length);
    for (const file of files)
      expect(file).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z-\d{4}-[a-z0-9]{10}\.eml$/);
    expect(sent.map((item) => item.file)).toEqual(files.map((file) => path.join(outbox, file)));

    for (const [index, file] of files.entries()) {
      const content = await readFile(path.join(outbox, file), "utf8");
      expect(content).toMatch(/^From: authd <no-reply@example\.test>\r$/m);
      expect(content).toMatch(/^To: ada@example\.test\r$/m);
      expect(content).toMatch(new RegExp(`^Subject: Message ${subjects[index]}\\r$`, "m"));
      expect(content).toContain(`Message-ID: ${sent[index]?.messageId}`);
      expect(content).toContain(`Body of the ${subjects[index]} message.`);
    }
  });

  it("writes the HTML part next to the text", async () => {
    const outbox = path.join(directory, "html-outbox");
    const transport = await transportFor({}, { outboxDir: "html-outbox" });
    expect(transport.describe).toBe(outbox);
    const sent = await transport.send({
      to: "ada@example.test",
      subject: "Reset your password",
      text: "Plain reset text.",
      html: "<p>HTML reset text.</p>",
    });
    expect(sent.file && path.dirname(sent.file)).toBe(outbox);
    const content = await readFile(sent.file ?? "", "utf8");
    expect(content).toContain("Content-Type: multipart/alternative");
    expect(content).toContain("Plain reset text.");
    expect(content).toContain("<p>HTML reset text.</p>");
  });

  it("verifies by creating the folder and leaves nothing behind", async () => {
    const outbox = path.join(directory, "nested", "outbox");
    const transport = await transportFor({}, { outboxDir: outbox });
    await transport.verify();
    expect(await readdir(outbox)).toEqual([]);
  });

  it("fails clearly when the folder cannot be created", async () => {
    const blocker = path.join(directory, "not-a-folder");
    await writeFile(blocker, "a regular file\n");
    const outbox = path.join(blocker, "outbox");
    const transport = await transportFor({}, { outboxDir: outbox });

    const error = await rejection(transport.verify());
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^cannot create the mail outbox ${outbox.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: ENOTDIR`,
      ),
    );
    expect((error as MailDeliveryError).code).toBe("ENOTDIR");

    const sendError = await rejection(
      transport.send({ to: "ada@example.test", subject: "s", text: "t" }),
    );
    expect(sendError).toBeInstanceOf(MailDeliveryError);
    expect((sendError as Error).message).toContain(`cannot write to the mail outbox ${outbox}`);

    // The configured folder is itself a regular file.
    const onFile = await transportFor({}, { outboxDir: blocker });
    const fileError = await rejection(onFile.verify());
    expect(fileError).toBeInstanceOf(MailDeliveryError);
    expect((fileError as Error).message).toContain(`cannot create the mail outbox ${blocker}`);
    expect((fileError as MailDeliveryError).code).toBe("ENOTDIR");
  });
});
