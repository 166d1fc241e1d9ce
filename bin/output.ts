/**
 * The output contract: data on stdout, everything else on stderr.
 * Every command hands its result to `emit`, which prints it in the format chosen by
 * `-o human|json|jsonl|yaml|csv|env` (`--json` is `-o json`), narrowed by `--fields`,
 * or as bare ids with `-q`. Lists are `{items: […], …}` documents.
 */
import { createRequire } from "node:module";
import { type CliEnvironment, readCliEnvironment } from "../server/config.js";
import { AuthError } from "../server/errors.js";
import { ExitError, errorCodeFor, UsageError } from "./exit-codes.js";

// The YAML library is loaded only when `-o yaml` prints: `serve` and most commands never
// print YAML, and it would otherwise stay in their heap for the process's lifetime.
const require = createRequire(import.meta.url);

export const OUTPUT_FORMATS = ["human", "json", "jsonl", "yaml", "csv", "env"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

// `authd … | head -1`: the reader may leave early. That is no failure of authd: stop
// quietly (with the exit code so far) instead of dying on an unhandled EPIPE.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
});

export interface GlobalOptions {
  config?: string;
  databaseUrl?: string;
  json?: boolean;
  output?: string;
  quiet?: boolean;
  fields?: string[];
  input?: boolean;
  yes?: boolean;
  dryRun?: boolean;
  color?: boolean;
  debug?: boolean;
  verbose?: boolean;
  timeout?: number;
  profile?: string;
  /**
   * What the CLI reads of the environment (the shell's variables over ./.env), set once
   * before a command runs; before that (a usage error) the shell's variables alone.
   */
  cliEnvironment?: CliEnvironment;
}

function environmentOf(options: GlobalOptions): CliEnvironment {
  return options.cliEnvironment ?? readCliEnvironment();
}

/** The chosen format: `--json` > `-o` > $AUTHD_OUTPUT > human. */
export function outputFormat(options: GlobalOptions): OutputFormat {
  if (options.json === true) return "json";
  const chosen = options.output ?? environmentOf(options).output ?? "human";
  if (!(OUTPUT_FORMATS as readonly string[]).includes(chosen)) {
    throw new UsageError(`unknown output format "${chosen}": use ${OUTPUT_FORMATS.join(", ")}`);
  }
  return chosen as OutputFormat;
}

/**
 * The verb of a human summary line: what was done, or under --dry-run what would be
 * done ("Deleted …" / "Would delete …"): a dry run never reports a change as made.
 */
export function didOrWould(options: GlobalOptions, did: string, would: string): string {
  return options.dryRun ? would : did;
}

/** Any format but human: errors are printed as JSON on stderr too. */
export function wantsJson(options: GlobalOptions): boolean {
  try {
    return outputFormat(options) !== "human";
  } catch {
    return false;
  }
}

/** Prompts only on a TTY, never under --no-input or CI (clig.dev). */
export function canPrompt(options: GlobalOptions): boolean {
  return (
    options.input !== false &&
    !environmentOf(options).noInput &&
    process.stdin.isTTY === true &&
    process.stdout.isTTY === true
  );
}

export function useColor(
  options: GlobalOptions,
  stream: NodeJS.WriteStream = process.stdout,
): boolean {
  return options.color !== false && !environmentOf(options).noColor && stream.isTTY === true;
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

type Plain = Record<string, unknown>;

/** Dates become ISO strings, undefined disappears: the JSON view of a value. */
function toPlain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function isRecord(value: unknown): value is Plain {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Nested objects become dotted keys: `{session: {id}}` -> `session.id`. */
function flatten(record: Plain, prefix = "", into: Plain = {}): Plain {
  for (const [key, value] of Object.entries(record)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isRecord(value) && Object.keys(value).length > 0) flatten(value, name, into);
    else into[name] = value;
  }
  return into;
}

function cellText(value: unknown, empty: string): string {
  if (value === null || value === undefined) return empty;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function csvCell(value: unknown): string {
  const text = cellText(value, "");
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** `createdAt` / `session.expiresAt` -> `CREATED_AT` / `SESSION_EXPIRES_AT`. */
function envName(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .toUpperCase();
}

/** Single-quoted for sh unless the value is plainly safe. */
function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]*$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Keeps the named fields (dotted names reach into nested objects) in the given order. */
function pick(record: Plain, fields: string[]): Plain {
  const flat = flatten(record);
  const picked: Plain = {};
  for (const field of fields) {
    if (field in record) picked[field] = record[field];
    else if (field in flat) picked[field] = flat[field];
  }
  return picked;
}

function checkFields(fields: string[], records: Plain[], columns: string[] = []): void {
  // An empty list names no fields: only the declared columns can be checked then.
  if (records.length === 0 && columns.length === 0) return;
  const known = new Set<string>(columns);
  for (const record of records) {
    for (const key of Object.keys(record)) known.add(key);
    for (const key of Object.keys(flatten(record))) known.add(key);
  }
  const unknown = fields.filter((field) => !known.has(field));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown field${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} for --fields: use ${[...known].join(", ")}`,
    );
  }
}

export interface EmitOptions {
  /** The human rendering; without it lists print as a table and records as FIELD/VALUE. */
  human?: () => void;
  /** Table and CSV columns of a list when --fields is not given (default: every field). */
  columns?: string[];
  /** The field `-q` prints per item (default `id`); an array value prints one line per element. */
  quietField?: string;
  /**
   * The array that makes the document a list when it is not `items` (e.g. `migrations`
   * of `migrate status`): its elements are the rows of jsonl, csv, tables and `-q`.
   */
  listField?: string;
}

/** A column's value: a flattened (dotted) key, else the field itself (an object prints as JSON). */
function valueAt(flat: Plain, item: Plain, column: string): unknown {
  return column in flat ? flat[column] : item[column];
}

/**
 * Prints a command's result. A document with an `items` array is a list: jsonl prints
 * one item per line, csv one row per item, `-q` one id per line; anything else is a
 * single record.
 */
export function emit(data: unknown, globals: GlobalOptions, options: EmitOptions = {}): void {
  const format = outputFormat(globals);
  const plain = toPlain(data);
  const listField = options.listField ?? "items";
  const list = isRecord(plain) && Array.isArray(plain[listField]) ? plain : undefined;
  const items: Plain[] = list
    ? (list[listField] as unknown[]).filter(isRecord)
    : isRecord(plain)
      ? [plain]
      : [];
  const fields = globals.fields;
  if (fields) checkFields(fields, items, list ? options.columns : undefined);

  if (globals.quiet) {
    const field = options.quietField ?? "id";
    const lines: string[] = [];
    for (const item of items) {
      const value = valueAt(flatten(item), item, field);
      for (const one of Array.isArray(value) ? value : [value]) {
        if (one !== undefined && one !== null) lines.push(cellText(one, ""));
      }
    }
    if (lines.length > 0) process.stdout.write(`${lines.join("\n")}\n`);
    return;
  }

  const selected = fields ? items.map((item) => pick(item, fields)) : items;
  const document: unknown = fields
    ? list
      ? { ...list, [listField]: selected }
      : selected[0]
    : plain;

  switch (format) {
    case "json":
      printJson(document);
      return;
    case "yaml":
      process.stdout.write((require("yaml") as typeof import("yaml")).stringify(document));
      return;
    case "jsonl":
      if (list || isRecord(document)) {
        const lines = selected.map((item) => `${JSON.stringify(item)}\n`);
        if (lines.length > 0) process.stdout.write(lines.join(""));
      } else {
        process.stdout.write(`${JSON.stringify(document)}\n`);
      }
      return;
    case "csv": {
      const flat = selected.map((item) => flatten(item));
      const columns = fields ?? options.columns ?? unionKeys(flat);
      const lines = [columns.map(csvCell).join(",")];
      selected.forEach((item, index) => {
        const row = flat[index] ?? {};
        lines.push(columns.map((column) => csvCell(valueAt(row, item, column))).join(","));
      });
      process.stdout.write(`${lines.join("\r\n")}\r\n`);
      return;
    }
    case "env": {
      if (list) {
        throw new UsageError("-o env prints a single record; use -o csv or -o jsonl for lists");
      }
      const flat = flatten(selected[0] ?? {});
      const lines = Object.entries(flat).map(
        ([key, value]) => `${envName(key)}=${shellQuote(cellText(value, ""))}\n`,
      );
      if (lines.length > 0) process.stdout.write(lines.join(""));
      return;
    }
    case "human": {
      if (options.human && !fields) {
        options.human();
        return;
      }
      const flat = selected.map((item) => flatten(item));
      if (list) {
        const columns = fields ?? options.columns ?? unionKeys(flat);
        process.stdout.write(
          `${formatTable(
            columns.map((column) => envName(column).replaceAll("_", " ")),
            flat.map((row, index) =>
              columns.map((column) => cellText(valueAt(row, selected[index] ?? {}, column), "-")),
            ),
          )}\n`,
        );
      } else {
        const row = flat[0] ?? {};
        process.stdout.write(
          `${formatTable(
            ["FIELD", "VALUE"],
            Object.entries(row).map(([key, value]) => [key, cellText(value, "-")]),
          )}\n`,
        );
      }
      return;
    }
  }
}

function unionKeys(records: Plain[]): string[] {
  const keys = new Set<string>();
  for (const record of records) for (const key of Object.keys(record)) keys.add(key);
  return [...keys];
}

/**
 * What a person needs beyond the catalogue's message, from the error's details: a
 * password length error's bound (" (at least 8 characters)") and a command's hint on
 * its own line.
 */
function explanationOf(error: unknown): string {
  if (!(error instanceof AuthError)) return "";
  const details = error.details as {
    minPasswordLength?: unknown;
    maxPasswordLength?: unknown;
    hint?: unknown;
  } | null;
  let text = "";
  if (typeof details?.minPasswordLength === "number") {
    text += ` (at least ${details.minPasswordLength} characters)`;
  } else if (typeof details?.maxPasswordLength === "number") {
    text += ` (at most ${details.maxPasswordLength} characters)`;
  }
  if (typeof details?.hint === "string") text += `\n${details.hint}`;
  return text;
}

export function reportError(error: unknown, options: GlobalOptions): void {
  const message = error instanceof Error ? error.message : String(error);
  if (wantsJson(options)) {
    const body: Record<string, unknown> = { code: errorCodeFor(error), message };
    if (error instanceof AuthError) {
      body.status = error.status;
      if (error.details !== undefined) body.details = error.details;
    }
    if (error instanceof ExitError && error.details !== undefined) body.details = error.details;
    process.stderr.write(`${JSON.stringify({ error: body })}\n`);
    return;
  }
  process.stderr.write(`authd: ${message}${explanationOf(error)}\n`);
  if (options.debug && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
  }
}
