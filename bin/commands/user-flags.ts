/**
 * How `authd user` reads its arguments: durations, instants, booleans, page bounds,
 * and passwords from stdin or a file rather than the command line.
 */
import { readFile } from "node:fs/promises";
import { InvalidArgumentError } from "commander";
import { UsageError } from "../exit-codes.js";
import { note } from "../output.js";

/** `7d`, `12h`, `30m`, `45s`, or plain seconds, as seconds. */
export function parseDuration(value: string): number {
  const match = /^(\d+)\s*([smhdw]?)$/.exec(value.trim());
  const units: Record<string, number> = { "": 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
  const seconds = match ? Number(match[1]) * (units[match[2] ?? ""] ?? 1) : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds < 1) {
    throw new InvalidArgumentError("expected a duration like 30m, 12h or 7d");
  }
  return seconds;
}

export function parseBoolean(value: string): boolean {
  if (value === "true") return true;
  if (value === "false") return false;
  throw new InvalidArgumentError("expected true or false");
}

/** A flag's parser for a whole number from 1 to `maximum` (page sizes, batch sizes). */
export function wholeNumberUpTo(maximum: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > maximum) {
      throw new InvalidArgumentError(`expected a whole number from 1 to ${maximum}`);
    }
    return Number(value);
  };
}

export const parseLimit = wholeNumberUpTo(1000);

export function parseOffset(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("expected a whole number >= 0");
  return Number(value);
}

const ISO_INSTANT =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** `--created-after`: an ISO date/time, or a duration (`7d`) meaning that long ago. */
export function parseInstant(value: string): Date {
  const text = value.trim();
  if (/^\d+\s*[smhdw]$/.test(text)) return new Date(Date.now() - parseDuration(text) * 1000);
  const time = ISO_INSTANT.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) {
    throw new InvalidArgumentError(
      "expected an ISO date such as 2026-01-31 or 2026-01-31T12:00:00Z, or a duration such as 7d (within the last 7 days)",
    );
  }
  return new Date(time);
}

export function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk: string) => {
      text += chunk;
    });
    process.stdin.on("end", () => resolve(text));
    process.stdin.on("error", reject);
  });
}

/** One trailing newline is the shell's (`echo`), not the password's. */
function stripNewline(text: string): string {
  return text.replace(/\r?\n$/, "");
}

export interface PasswordFlags {
  password?: string | boolean;
  passwordStdin?: boolean;
  passwordFile?: string;
}

/**
 * The password from --password-stdin or --password-file; a plain --password value
 * works but warns (it lands in shell history and `ps`). Undefined when none is given.
 */
export async function readPassword(flags: PasswordFlags): Promise<string | undefined> {
  const given = [
    flags.passwordStdin === true,
    flags.passwordFile !== undefined,
    typeof flags.password === "string",
  ].filter(Boolean).length;
  if (given > 1) {
    throw new UsageError("give the password one way: --password-stdin or --password-file");
  }
  let password: string | undefined;
  if (flags.passwordStdin) {
    if (process.stdin.isTTY) throw new UsageError("--password-stdin needs the password piped in");
    password = stripNewline(await readStdin());
  } else if (flags.passwordFile !== undefined) {
    try {
      password = stripNewline(await readFile(flags.passwordFile, "utf8"));
    } catch (error) {
      throw new UsageError(
        `cannot read --password-file ${flags.passwordFile}: ${(error as Error).message}`,
      );
    }
  } else if (typeof flags.password === "string") {
    note(
      "warning: a password given on the command line is visible in shell history and process lists; use --password-stdin or --password-file",
    );
    password = flags.password;
  }
  if (password === "") throw new UsageError("the password is empty");
  return password;
}
