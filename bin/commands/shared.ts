/** Flag parsing and confirmation rules shared by the command modules. */
import { InvalidArgumentError } from "commander";
import { UsageError } from "../exit-codes.js";
import { canPrompt, type GlobalOptions } from "../output.js";

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new InvalidArgumentError("expected a port number from 0 to 65535");
  }
  return port;
}

/** `30s`, `2m`, `500ms` or plain seconds, as seconds. */
export function parseTimeout(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(value.trim());
  const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  const seconds = match ? Number(match[1]) * (units[match[2] ?? "s"] ?? 1) : Number.NaN;
  if (!(seconds > 0) || !Number.isFinite(seconds)) {
    throw new InvalidArgumentError("expected a duration like 30s, 2m or 500ms");
  }
  return seconds;
}

export function parseCount(value: string): number {
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < 1) {
    throw new InvalidArgumentError("expected a whole number >= 1");
  }
  return count;
}

/**
 * Moderate actions: a prompt on a TTY, or
 * --yes; with neither, a usage error rather than a hang.
 */
export async function confirmModerate(question: string, globals: GlobalOptions): Promise<boolean> {
  // A dry run changes nothing, so there is nothing to confirm.
  if (globals.yes || globals.dryRun) return true;
  if (!canPrompt(globals)) {
    throw new UsageError(`${question} Pass --yes to confirm when not running in a terminal.`);
  }
  const { confirm } = await import("@inquirer/prompts");
  return confirm({ message: question, default: false });
}

/**
 * Severe actions (org delete, bulk user delete, db reset) need `--confirm=<value>`, even
 * with --yes. A dry run deletes nothing, so it may go without one and shows what would
 * go. Checked in two steps because some commands know the value only after a lookup.
 */
export function requireConfirm(
  confirm: string | undefined,
  dryRun: boolean,
  refusal: string,
): void {
  if (confirm === undefined && !dryRun) throw new UsageError(refusal);
}

/** A `--confirm` given must name what the severe action would act on. */
export function matchConfirm(confirm: string | undefined, expected: string, refusal: string): void {
  if (confirm !== undefined && confirm !== expected) throw new UsageError(refusal);
}
