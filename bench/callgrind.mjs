/**
 * A callgrind dump read with `callgrind_annotate`: the program's total and the self cost
 * of each function as it names it, for bench/instructions.mjs and
 * bench/callgrind-functions.mjs.
 */
import { execFile } from "node:child_process";

/** `{ total, functions: [{ count, where }] }` of the dump at `file`. */
export async function annotate(file) {
  const text = await new Promise((resolve, reject) =>
    execFile(
      "callgrind_annotate",
      ["--threshold=100", file],
      { maxBuffer: 1 << 28 },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`callgrind_annotate ${file}: ${error.message}\n${stderr}`))
          : resolve(stdout),
    ),
  );
  let total = 0;
  const functions = [];
  for (const line of text.split("\n")) {
    const match = /^\s*([\d,]+) \(.*?\)\s+(.*)$/.exec(line);
    if (!match) continue;
    const count = Number(match[1].replaceAll(",", ""));
    if (match[2].startsWith("PROGRAM TOTALS")) total = count;
    else functions.push({ count, where: match[2] });
  }
  return { total, functions };
}
