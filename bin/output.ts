/**
 * The output contract (reference/cli.md): data on stdout, everything else on stderr;
 * `--json` prints exactly one JSON document; human output is an aligned table.
 */
import { readCliEnvironment } from "../server/config.js";
import { AuthError } from "../server/errors.js";
import { errorCodeFor } from "./exit-codes.js";

export interface GlobalOptions {
  config?: string;
  json?: boolean;
  output?: string;
  input?: boolean;
  yes?: boolean;
  color?: boolean;
  debug?: boolean;
}

export function wantsJson(options: GlobalOptions): boolean {
  return options.json === true || options.output === "json";
}

/** Prompts only on a TTY, never under --no-input or CI (clig.dev). */
export function canPrompt(options: GlobalOptions): boolean {
  return (
    options.input !== false &&
    !readCliEnvironment().noInput &&
    process.stdin.isTTY === true &&
    process.stdout.isTTY === true
  );
}

export function useColor(
  options: GlobalOptions,
  stream: NodeJS.WriteStream = process.stdout,
): boolean {
  return options.color !== false && !readCliEnvironment().noColor && stream.isTTY === true;
}

export function printJson(data: unknown): void {
  process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
}

/** A message for the person at the terminal: stderr, so stdout stays data. */
export function note(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Left-aligned columns separated by two spaces. */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

export function reportError(error: unknown, options: GlobalOptions): void {
  const message = error instanceof Error ? error.message : String(error);
  if (wantsJson(options)) {
    const body: Record<string, unknown> = { code: errorCodeFor(error), message };
    if (error instanceof AuthError) {
      body.status = error.status;
      if (error.details !== undefined) body.details = error.details;
    }
    process.stderr.write(`${JSON.stringify({ error: body })}\n`);
    return;
  }
  process.stderr.write(`authd: ${message}\n`);
  if (options.debug && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
  }
}
