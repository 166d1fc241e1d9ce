/**
 * A small RFC 4180 reader for `authd user import --format csv`: comma-separated fields,
 * double-quoted fields may hold commas, line breaks and doubled quotes, lines end in
 * CRLF or LF. Blank lines are skipped and a leading byte-order mark is ignored.
 */

export interface CsvRow {
  /** The line the row starts on (1-based). */
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  readonly line: number;
  constructor(message: string, line: number) {
    super(`line ${line}: ${message}`);
    this.name = "CsvSyntaxError";
    this.line = line;
  }
}

export function parseCsv(input: string): CsvRow[] {
  const text = input.startsWith("\uFEFF") ? input.slice(1) : input;
  const rows: CsvRow[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let rowLine = 1;
  /** Whether the current row has any character yet (a blank line has none). */
  let started = false;
  let index = 0;

  const endField = () => {
    fields.push(field);
    field = "";
  };
  const endRow = () => {
    if (started) {
      endField();
      rows.push({ line: rowLine, fields });
    }
    fields = [];
    field = "";
    started = false;
  };

  while (index < text.length) {
    const char = text[index];
    if (char === '"') {
      if (field !== "") {
        throw new CsvSyntaxError("a quote inside an unquoted field (quote the whole field)", line);
      }
      started = true;
      const openedOn = line;
      index += 1;
      for (;;) {
        if (index >= text.length) {
          throw new CsvSyntaxError("a quoted field is never closed", openedOn);
        }
        const inner = text[index];
        if (inner === '"') {
          if (text[index + 1] === '"') {
            field += '"';
            index += 2;
            continue;
          }
          index += 1;
          break;
        }
        if (inner === "\n") line += 1;
        field += inner;
        index += 1;
      }
      const next = text[index];
      if (next !== undefined && next !== "," && next !== "\n" && next !== "\r") {
        throw new CsvSyntaxError("text after a closing quote (expected , or a line end)", line);
      }
      continue;
    }
    if (char === ",") {
      started = true;
      endField();
      index += 1;
      continue;
    }
    if (char === "\r" || char === "\n") {
      endRow();
      index += char === "\r" && text[index + 1] === "\n" ? 2 : 1;
      line += 1;
      rowLine = line;
      continue;
    }
    started = true;
    field += char;
    index += 1;
  }
  endRow();
  return rows;
}
