/**
 * Sending authd's mail: render the template, hand it to the
 * transport, and never hold the response longer than `mail.timeout`. A send that is
 * still running then finishes in the background; every failure is logged with the
 * request id and recorded as an audit event, never silently dropped.
 */
import type { AuthdConfig } from "../config.js";
import { AuthError } from "../errors.js";
import type { LogSink } from "../logger.js";
import { createMailRenderer, type MailKind } from "./templates.js";
import type { MailTransport } from "./transport.js";

export interface MailRequest {
  kind: MailKind;
  to: string;
  /** The link the message exists to deliver. */
  url: string;
  variables?: Record<string, string>;
}

export type MailOutcome = "sent" | "pending" | "failed";

/** Told how a delivery ended, even when the answer went out before it did ("pending"). */
export type DeliveryObserver = (outcome: "sent" | "failed") => void;

export interface Mailer {
  transport: MailTransport;
  /** Resolves within `mail.timeout` seconds; never rejects. */
  send(request: MailRequest, logger: LogSink, observer?: DeliveryObserver): Promise<MailOutcome>;
}

/** `mailer`, with every delivery's end told to `observer` (the metrics count them). */
export function observeDeliveries(
  mailer: Mailer,
  observer: (kind: MailKind, outcome: "sent" | "failed") => void,
): Mailer {
  return {
    transport: mailer.transport,
    send: (request, logger) =>
      mailer.send(request, logger, (outcome) => observer(request.kind, outcome)),
  };
}

/** For a caller who asked for the mail: a failed hand-over is their error to see. */
export function assertDelivered(outcome: MailOutcome): void {
  if (outcome === "failed") throw new AuthError("MAIL_DELIVERY_FAILED");
}

export type MailFailureRecorder = (failure: {
  kind: MailKind;
  to: string;
  reason: string;
}) => Promise<void>;

function appName(config: AuthdConfig): string {
  if (!config.baseURL) return "authd";
  return new URL(config.baseURL).host;
}

export function createMailer(
  config: AuthdConfig,
  transport: MailTransport,
  recordFailure?: MailFailureRecorder,
): Mailer {
  const renderer = createMailRenderer();
  return {
    transport,
    async send(request, logger, observer) {
      const variables = {
        appName: appName(config),
        email: request.to,
        name: request.to,
        ...request.variables,
        url: request.url,
      };
      const failed = async (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        logger.error({ mail: request.kind, reason }, "mail delivery failed");
        await recordFailure?.({ kind: request.kind, to: request.to, reason }).catch(() => {});
      };
      const delivery = (async (): Promise<"sent" | "failed"> => {
        try {
          const message = await renderer.render(request.kind, request.to, variables);
          const sent = await transport.send(message);
          if (transport.kind === "outbox") {
            // Development convenience: with no mail server, the link is in the log.
            logger.info(
              { mail: request.kind, file: sent.file, link: request.url },
              "mail written to outbox",
            );
          } else {
            logger.info({ mail: request.kind, messageId: sent.messageId }, "mail sent");
          }
          return "sent";
        } catch (error) {
          await failed(error);
          return "failed";
        }
      })();
      if (observer) void delivery.then(observer);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<MailOutcome>((resolve) => {
        timer = setTimeout(() => resolve("pending"), config.mail.timeout * 1000);
        timer.unref();
      });
      const outcome = await Promise.race([delivery, timeout]);
      clearTimeout(timer);
      if (outcome === "pending") {
        logger.warn(
          { mail: request.kind, timeoutSeconds: config.mail.timeout },
          "mail is still being sent; answering without waiting",
        );
      }
      return outcome;
    },
  };
}
