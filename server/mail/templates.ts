/**
 * Email templates (templates/email/<kind>.txt and .html): `{{placeholders}}` filled
 * from variables, HTML-escaped in the HTML part. The first line of the text template
 * is `Subject: …`.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { packageRoot } from "../db/migrations.js";
import { escapeHtml } from "../escape-html.js";
import type { MailMessage } from "./transport.js";

export type MailKind =
  | "verification"
  | "reset-password"
  | "change-email"
  | "delete-account"
  | "invitation";

function fill(template: string, variables: Record<string, string>, asHtml: boolean): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = variables[name] ?? "";
    return asHtml ? escapeHtml(value) : value;
  });
}

interface Template {
  subject: string;
  text: string;
  html: string;
}

async function loadTemplate(kind: MailKind): Promise<Template> {
  const dir = path.join(packageRoot(), "templates", "email");
  const [text, html] = await Promise.all([
    readFile(path.join(dir, `${kind}.txt`), "utf8"),
    readFile(path.join(dir, `${kind}.html`), "utf8"),
  ]);
  const match = /^Subject: (.*)\r?\n\r?\n?/.exec(text);
  if (!match?.[1]) throw new Error(`templates/email/${kind}.txt must start with a Subject: line`);
  return { subject: match[1], text: text.slice(match[0].length), html };
}

/** A seconds count in words for "the link expires in …". */
export function describeDuration(seconds: number): string {
  if (seconds % 86400 === 0) return `${seconds / 86400} day${seconds === 86400 ? "" : "s"}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? "" : "s"}`;
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? "" : "s"}`;
  return `${seconds} seconds`;
}

/** What a mailer renders messages with: the templates, each read from disk once. */
export interface MailRenderer {
  render(kind: MailKind, to: string, variables: Record<string, string>): Promise<MailMessage>;
}

/** A renderer of its own for each mailer: two apps in one process share no cache. */
export function createMailRenderer(): MailRenderer {
  const loaded = new Map<MailKind, Promise<Template>>();
  return {
    async render(kind, to, variables) {
      let template = loaded.get(kind);
      if (!template) {
        template = loadTemplate(kind);
        loaded.set(kind, template);
        template.catch(() => loaded.delete(kind));
      }
      const { subject, text, html } = await template;
      return {
        to,
        // Header values never carry markup, and a newline would inject a header.
        subject: fill(subject, variables, false).replace(/[\r\n]+/g, " "),
        text: fill(text, variables, false),
        html: fill(html, variables, true),
      };
    },
  };
}
