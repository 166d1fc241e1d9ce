#!/usr/bin/env node
/**
 * Instructions per request by function, from a callgrind dump that
 * `node bench/instructions.mjs --perf-map` kept (`KEEP=1`): callgrind cannot name the
 * code V8 compiles at run time, so this names it from the perf map the server wrote
 * (/tmp/perf-<pid>.map), then sums the self cost per function.
 *
 *   node bench/callgrind-functions.mjs <dump> <perf map> <requests>
 *       the functions of one window, most instructions first, per request
 *   node bench/callgrind-functions.mjs --diff <before.txt> <after.txt>
 *       two such listings side by side: what grew the most, then what shrank
 *
 * The dump is <work dir>/callgrind/cg.out.<n> (instructions.mjs prints nothing of it:
 * the newest /tmp/authd-instructions-* is the last run's); the requests are the
 * `--requests` of that run. V8 reuses code addresses, so the newest map entry covering
 * an address names it: right for code that stayed, approximate for code replaced in
 * the window.
 */
import { readFile } from "node:fs/promises";
import { annotate } from "./callgrind.mjs";

/** The map's entries, oldest first: [start, end, name]. */
async function readPerfMap(file) {
  const entries = [];
  for (const line of (await readFile(file, "utf8")).split("\n")) {
    const [start, size, ...name] = line.split(" ");
    if (!start || !size) continue;
    const from = Number.parseInt(start, 16);
    entries.push([from, from + Number.parseInt(size, 16), name.join(" ")]);
  }
  return entries;
}

function namer(entries) {
  const named = new Map();
  return (address) => {
    let name = named.get(address);
    if (name !== undefined) return name;
    name = "(unnamed code)";
    for (let i = entries.length - 1; i >= 0; i--) {
      const [from, to, entry] = entries[i];
      if (address >= from && address < to) {
        name = entry.replace(/^JS:[*~^+]?/, "");
        break;
      }
    }
    named.set(address, name);
    return name;
  };
}

async function listing(dump, mapFile, requests) {
  const nameOf = namer(await readPerfMap(mapFile));
  const { total, functions } = await annotate(dump);
  const perFunction = new Map();
  for (const { count, where } of functions) {
    const unnamed = /^\?\?\?:0x([0-9a-f]+) \[\?\?\?\]/.exec(where);
    const name = unnamed
      ? `JS ${nameOf(Number.parseInt(unnamed[1], 16))}`
      : where
          .replace(/^\?\?\?:/, "")
          .replace(/ \[.*\]$/, "")
          .replace(/\(.*$/, "");
    perFunction.set(name, (perFunction.get(name) ?? 0) + count);
  }
  process.stdout.write(`${Math.round(total / requests)} (all)\n`);
  for (const [name, count] of [...perFunction].sort((a, b) => b[1] - a[1])) {
    const each = Math.round(count / requests);
    if (each > 0) process.stdout.write(`${each} ${name}\n`);
  }
}

async function readListing(file) {
  const counts = new Map();
  for (const line of (await readFile(file, "utf8")).split("\n")) {
    const match = /^(\d+) (.*)$/.exec(line);
    if (match) counts.set(match[2], Number(match[1]));
  }
  return counts;
}

async function diff(beforeFile, afterFile) {
  const before = await readListing(beforeFile);
  const after = await readListing(afterFile);
  const rows = [...new Set([...before.keys(), ...after.keys()])].map((name) => ({
    name,
    before: before.get(name) ?? 0,
    after: after.get(name) ?? 0,
  }));
  rows.sort((a, b) => b.after - b.before - (a.after - a.before));
  const line = (row) =>
    `${String(row.after - row.before).padStart(8)} ${String(row.before).padStart(8)} ${String(row.after).padStart(8)}  ${row.name.slice(0, 140)}\n`;
  process.stdout.write("  change   before    after  function (instructions per request)\n");
  for (const row of rows.slice(0, 40)) process.stdout.write(line(row));
  process.stdout.write("  ... shrank the most:\n");
  for (const row of rows.slice(-15)) process.stdout.write(line(row));
}

const args = process.argv.slice(2);
if (args[0] === "--diff" && args.length === 3) await diff(args[1], args[2]);
else if (args.length === 3) await listing(args[0], args[1], Number(args[2]));
else {
  process.stderr.write(
    "usage: callgrind-functions.mjs <dump> <perf map> <requests> | --diff <before> <after>\n",
  );
  process.exit(2);
}
