/**
 * Reading an import file (`authd user import`) into records: a JSON array (or
 * `{"users": [...]}`), JSON lines, or CSV with a header row. A file that cannot be read
 * at all throws; a single unreadable record becomes a record error, reported with its
 * line and validated no further.
 */
import { AuthError } from "../errors.js";
import { CsvSyntaxError, parseCsv } from "./csv.js";

export const IMPORT_FORMATS = ["jsonl", "json", "csv"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** One record as read from the file, before validation. */
export interface RawRecord {
  /** 1-based position among the records of the file. */
  record: number;
  /** The line it starts on (jsonl and csv). */
  line?: number;
  data?: unknown;
  /** The record could not even be read (a bad JSON line, a short CSV row). */
  error?: string;
}

function fileError(message: string): AuthError {
  return new AuthError("VALIDATION_ERROR", { message });
}

/** The records of a file in one of IMPORT_FORMATS. Unreadable files throw. */
export function parseImportFile(text: string, format: ImportFormat): RawRecord[] {
  if (format === "json") {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw fileError(`the file is not valid JSON: ${(error as Error).message}`);
    }
    const list =
      Array.isArray(document) ||
      typeof document !== "object" ||
      document === null ||
      !("users" in document)
        ? document
        : (document as { users: unknown }).users;
    if (!Array.isArray(list)) {
      throw fileError('a JSON import file holds an array of users (or {"users": [...]})');
    }
    return list.map((data, index) => ({ record: index + 1, data }));
  }
  if (format === "jsonl") {
    const records: RawRecord[] = [];
    const lines = text.split(/\r?\n/);
    for (const [index, lineText] of lines.entries()) {
      if (lineText.trim() === "") continue;
      const record = records.length + 1;
      try {
        records.push({ record, line: index + 1, data: JSON.parse(lineText) });
      } catch (error) {
        records.push({
          record,
          line: index + 1,
          error: `not valid JSON: ${(error as Error).message}`,
        });
      }
    }
    return records;
  }
  let rows: ReturnType<typeof parseCsv>;
  try {
    rows = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throw fileError(`the CSV file is malformed: ${error.message}`);
    throw error;
  }
  const [header, ...body] = rows;
  if (!header) return [];
  const columns = header.fields.map((name) => name.trim());
  const seen = new Set<string>();
  for (const column of columns) {
    if (column === "") throw fileError("the CSV header has an empty column name");
    if (seen.has(column)) throw fileError(`the CSV header names "${column}" twice`);
    seen.add(column);
  }
  if (!seen.has("email")) throw fileError('the CSV header has no "email" column');
  return body.map((row, index) => {
    const record = index + 1;
    if (row.fields.length !== columns.length) {
      return {
        record,
        line: row.line,
        error: `expected ${columns.length} fields as in the header, found ${row.fields.length}`,
      };
    }
    // An empty cell is an absent value.
    const data: Record<string, string> = {};
    for (const [position, column] of columns.entries()) {
      const value = row.fields[position] ?? "";
      if (value !== "") data[column] = value;
    }
    return { record, line: row.line, data };
  });
}
