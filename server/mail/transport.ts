/**
 * The mail transport: nodemailer over SMTP when `mail.smtpUrl` is
 * set, otherwise an outbox folder where each message is written as one `.eml` file, so
 * that development and tests can read the links authd sends without a mail server.
 */
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import { dataPath, type LoadedConfig } from "../config.js";
import { randomString } from "../crypto/random.js";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail {
  messageId: string;
  /** The `.eml` file written, in outbox mode. */
  file?: string;
}

export interface MailTransport {
  kind: "smtp" | "outbox";
  /** Where mail goes, for messages: `smtp://host:port` (never credentials) or the outbox path. */
  describe: string;
  send(message: MailMessage): Promise<SentMail>;
  /** SMTP: connect (and sign in) to the server; outbox: create the folder and write to it. */
  verify(): Promise<void>;
  close(): void;
}

/** A message could not be handed over. The message never carries the SMTP password. */
export class MailDeliveryError extends Error {
  /** nodemailer's or the file system's error code, e.g. ECONNECTION, EAUTH, ENOTDIR. */
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.name = "MailDeliveryError";
    this.code = code;
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `smtp://host:port`, with the default port nodemailer uses when the URL has none. */
export function describeSmtpUrl(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    const secure = url.protocol === "smtps:";
    const port = url.port || (secure ? "465" : "587");
    return `${url.protocol}//${url.hostname}:${port}`;
  } catch {
    return "the configured SMTP server";
  }
}

/** Removes the URL's password, in every spelling, from a text meant for people. */
function scrubber(smtpUrl: string): (text: string) => string {
  const secrets = new Set<string>();
  try {
    const { password } = new URL(smtpUrl);
    // One to three characters would also match ordinary words of the message.
    if (password.length >= 4) {
      secrets.add(password);
      try {
        secrets.add(decodeURIComponent(password));
      } catch {
        // A malformed escape: the raw spelling is all there is.
      }
    }
  } catch {
    // Not a URL: nothing to look for but the userinfo pattern below.
  }
  return (text) => {
    let result = text.replace(/(\/\/[^:/@\s]*):[^@/\s]*@/g, "$1:***@");
    for (const secret of secrets) result = result.split(secret).join("***");
    return result;
  };
}

function explainSmtpError(error: unknown, where: string): string {
  const code = errorCode(error);
  const reason = errorMessage(error);
  switch (code) {
    case "ECONNREFUSED":
    case "ECONNECTION":
    case "ESOCKET":
    case "EDNS":
      return `cannot reach the SMTP server at ${where}: ${reason}`;
    case "ETIMEDOUT":
      return `the SMTP server at ${where} did not answer in time: ${reason}`;
    case "EAUTH":
    case "ENOAUTH":
      return `cannot sign in to the SMTP server at ${where}: ${reason}`;
    case "ETLS":
      return `TLS with the SMTP server at ${where} failed: ${reason}`;
    case "EENVELOPE":
      return `the SMTP server at ${where} refused the sender or recipient: ${reason}`;
    default:
      return `SMTP at ${where} failed: ${reason}`;
  }
}

/** Rejects after `ms`, so that no caller waits on mail longer than `mail.timeout`. */
async function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The recipient as one address, never parsed as a list: given a string, the mailer
 * would read commas and angle brackets as address-list syntax and could send to a
 * different mailbox than the one authd checked.
 */
function oneRecipient(address: string): { name: string; address: string } {
  return { name: "", address };
}

interface LazyTransporter {
  get(): Promise<Transporter>;
  close(): void;
}

/**
 * nodemailer is loaded on the first message, not at start-up: a server that sends no
 * mail keeps ~15 MB less resident (bench/README.md).
 */
function lazyTransporter(options: Record<string, unknown>): LazyTransporter {
  let created: Promise<Transporter> | undefined;
  let ready: Transporter | undefined;
  return {
    get() {
      created ??= import("nodemailer").then((module) => {
        ready = module.default.createTransport(options) as Transporter;
        return ready;
      });
      return created;
    },
    close() {
      ready?.close();
    },
  };
}

function createSmtpTransport(loaded: LoadedConfig, smtpUrl: string): MailTransport {
  const { from, timeout } = loaded.config.mail;
  const timeoutMs = timeout * 1000;
  // A server that does not connect or greet within mail.timeout is down; one that is
  // slow to accept a message may take longer, in the background (server/mail/mailer.ts
  // answers the request after mail.timeout either way).
  const sendTimeoutMs = Math.max(60_000, 6 * timeoutMs);
  const where = describeSmtpUrl(smtpUrl);
  const scrub = scrubber(smtpUrl);
  const fail = (error: unknown) =>
    new MailDeliveryError(scrub(explainSmtpError(error, where)), errorCode(error));
  const transporter = lazyTransporter({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: sendTimeoutMs,
  });
  const timedOut = (what: string) => () =>
    new MailDeliveryError(
      `the SMTP server at ${where} did not ${what} within ${timeout} s (mail.timeout)`,
      "ETIMEDOUT",
    );

  return {
    kind: "smtp",
    describe: where,
    async send(message) {
      try {
        const info = await withDeadline(
          (await transporter.get()).sendMail({
            from,
            ...message,
            to: oneRecipient(message.to),
            // The SMTP transport cancels its own connection when the signal fires.
            signal: AbortSignal.timeout(sendTimeoutMs),
          }),
          sendTimeoutMs + 1000,
          () =>
            new MailDeliveryError(
              `the SMTP server at ${where} did not accept the message within ${sendTimeoutMs / 1000} s`,
              "ETIMEDOUT",
            ),
        );
        return { messageId: info.messageId };
      } catch (error) {
        if (error instanceof MailDeliveryError) throw error;
        if (errorCode(error) === "EABORT") {
          throw new MailDeliveryError(
            `the SMTP server at ${where} did not accept the message within ${sendTimeoutMs / 1000} s`,
            "ETIMEDOUT",
          );
        }
        throw fail(error);
      }
    },
    async verify() {
      try {
        await withDeadline(
          transporter.get().then((ready) => ready.verify()),
          timeoutMs,
          timedOut("answer"),
        );
      } catch (error) {
        if (error instanceof MailDeliveryError) throw error;
        throw fail(error);
      }
    },
    close() {
      transporter.close();
    },
  };
}

/**
 * `mkdir -p` that always ends: Node's own recursive mkdir loops forever when a file
 * system answers ENOENT for a directory whose parent exists (e.g. under /proc).
 */
async function ensureDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir);
    return;
  } catch (error) {
    const code = errorCode(error);
    if (code === "EEXIST") {
      if ((await stat(dir)).isDirectory()) return;
      throw Object.assign(new Error(`ENOTDIR: ${dir} exists and is not a directory`), {
        code: "ENOTDIR",
      });
    }
    const parent = path.dirname(dir);
    if (code !== "ENOENT" || parent === dir) throw error;
  }
  await ensureDirectory(path.dirname(dir));
  await mkdir(dir).catch(async (error: unknown) => {
    if (errorCode(error) !== "EEXIST" || !(await stat(dir)).isDirectory()) throw error;
  });
}

/**
 * Names that sort by time: an ISO timestamp, then a counter for messages of the same
 * millisecond (kept by each outbox transport for itself).
 */
function outboxFileNames(): () => string {
  let lastStamp = "";
  let sameStampCount = 0;
  return () => {
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    sameStampCount = stamp === lastStamp ? sameStampCount + 1 : 0;
    lastStamp = stamp;
    // Lower-case only: case-insensitive file systems must not see two names as one.
    const random = randomString(10, "abcdefghijklmnopqrstuvwxyz0123456789");
    return `${stamp}-${String(sameStampCount).padStart(4, "0")}-${random}.eml`;
  };
}

function createOutboxTransport(loaded: LoadedConfig): MailTransport {
  const { from, outboxDir } = loaded.config.mail;
  const dir = outboxDir ? path.resolve(loaded.cwd, outboxDir) : dataPath(loaded, "outbox");
  const outboxFileName = outboxFileNames();
  const composer = lazyTransporter({
    streamTransport: true,
    buffer: true,
    // RFC 5322 lines end with CRLF; the file is the message exactly as SMTP would carry it.
    newline: "windows",
  });
  const fail = (doing: string, error: unknown) =>
    new MailDeliveryError(
      `cannot ${doing} the mail outbox ${dir}: ${errorMessage(error)}`,
      errorCode(error),
    );

  /** Writes under a hidden temporary name first, so readers never see half a message. */
  async function writeAtomically(name: string, content: Buffer | string): Promise<string> {
    const file = path.join(dir, name);
    const temporary = path.join(dir, `.${name}.tmp`);
    await writeFile(temporary, content, { flag: "wx", mode: 0o600 });
    await rename(temporary, file);
    return file;
  }

  return {
    kind: "outbox",
    describe: dir,
    async send(message) {
      const info = await (await composer.get())
        .sendMail({ from, ...message, to: oneRecipient(message.to) })
        .catch((error: unknown) => {
          throw new MailDeliveryError(`cannot compose the message: ${errorMessage(error)}`);
        });
      if (!Buffer.isBuffer(info.message)) {
        throw new MailDeliveryError("cannot compose the message: expected a buffer");
      }
      try {
        await ensureDirectory(dir);
        const file = await writeAtomically(outboxFileName(), info.message);
        return { messageId: info.messageId, file };
      } catch (error) {
        throw fail("write to", error);
      }
    },
    async verify() {
      try {
        await ensureDirectory(dir);
      } catch (error) {
        throw fail("create", error);
      }
      const probe = path.join(dir, `.probe-${randomString(10, "abcdefghijklmnopqrstuvwxyz")}`);
      try {
        await writeFile(probe, "authd outbox probe\n", { flag: "wx" });
      } catch (error) {
        throw fail("write to", error);
      } finally {
        await rm(probe, { force: true }).catch(() => {});
      }
    },
    close() {
      composer.close();
    },
  };
}

/** SMTP when `mail.smtpUrl` is configured, the outbox folder otherwise. */
export function createMailTransport(loaded: LoadedConfig): MailTransport {
  const smtpUrl = loaded.config.mail.smtpUrl;
  return smtpUrl ? createSmtpTransport(loaded, smtpUrl) : createOutboxTransport(loaded);
}
