/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps what it
 * receives, so tests read tokens out of delivered mail as a person would.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The message with quoted-printable soft breaks and escapes undone. */
  decoded: string;
}

export interface SmtpSink {
  url: string;
  messages: ReceivedMail[];
  /** Waits for the next message to `to` (received after the call or not yet read). */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The first link in a message that contains `fragment`. */
  linkIn(message: ReceivedMail, fragment: string): string;
  close(): Promise<void>;
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

export interface SmtpSinkOptions {
  /** Hold each message this long before accepting it (a slow mail server). */
  delayMs?: number;
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const read = new Set<ReceivedMail>();
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => {
        raw += chunk.toString("utf8");
      });
      stream.on("end", () => {
        const accept = () => {
          const decoded = decodeQuotedPrintable(raw);
          const subject = /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? "";
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((address) => address.address),
            raw,
            subject,
            decoded,
          });
          for (const wake of waiters.splice(0)) wake();
          callback();
        };
        if (options.delayMs) setTimeout(accept, options.delayMs);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((message) => !read.has(message) && message.to.includes(to));
        if (found) {
          read.add(found);
          return found;
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, remaining);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    linkIn(message, fragment) {
      const links = message.decoded.match(/https?:\/\/[^\s"<>]+/g) ?? [];
      const link = links.find((candidate) => candidate.includes(fragment));
      if (!link) throw new Error(`no link with ${fragment} in:\n${message.decoded}`);
      return link.replace(/&amp;/g, "&");
    },
    close() {
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
