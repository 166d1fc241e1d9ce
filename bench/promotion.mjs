#!/usr/bin/env node
/**
 * Bytes the young-generation collector promotes per statement: what grows the old
 * generation under database load (bench/README.md, "What fills the old generation").
 *
 *   node bench/promotion.mjs                      postgres.js and the plain-JS pattern
 *   node bench/promotion.mjs --seconds 6 --database-url postgres://…
 *
 * Each variant runs in a child `node --trace-gc-nvp` for `--seconds`, one statement (or
 * one iteration) at a time, and the promoted bytes of its scavenges are summed. The
 * variants with `--no-opt` run without the optimizing compiler: there the outcome is the
 * same run after run, while with it a process settles in one of two states (in a server,
 * most runs land in the promoting one). Needs a PostgreSQL at `--database-url` (default
 * postgres://postgres@127.0.0.1:5432/postgres, the test database's server).
 *
 * The plain-JS variants show why. V8 allocates a function written straight into a
 * property assignment (`o.x = () => …`, `this.x = …`) in the old generation, taking it
 * for a long-lived method; the scavenger then treats that closure's pointer to its young
 * context as a root, dead or not, so the context and all it reaches survive and are
 * promoted, and only a full collection frees them. Made into a local first and then
 * assigned, put in an object literal, or passed to a constructor, the same closure is
 * young and nothing is promoted. postgres.js assigns each statement's resolve and
 * reject that way, so each statement, its rows and whatever awaits it are promoted.
 */
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "4" },
    "database-url": { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
  },
});
const seconds = Number(args.seconds);
if (!(seconds > 0)) throw new Error("--seconds takes a positive number");
const postgresEntry = import.meta.resolve("postgres");

/** A loop body run for `seconds`; `n` counts iterations, printed at the end. */
const program = (setup, body) => `
${setup}
let n = 0;
const end = Date.now() + ${seconds * 1000};
while (Date.now() < end) { ${body} n++; }
console.log("iterations=" + n);
process.exit(0);
`;

const statements = program(
  `const { default: postgres } = await import(${JSON.stringify(postgresEntry)});
const sql = postgres(${JSON.stringify(args["database-url"])}, { max: 1 });
await sql\`select 1\`;`,
  "await sql`select 1 as x`;",
);
/**
 * The pattern without postgres.js: each call makes a context holding a 100-element array
 * and a closure over it, and hands the closure out in one of four ways.
 */
const handOut = {
  assignment: "const holder = {}; holder.call = () => data; return holder;",
  local: "const call = () => data; const holder = {}; holder.call = call; return holder;",
  literal: "return { call: () => data };",
  constructor: "return new Holder(() => data);",
};
const pattern = (how) =>
  program(
    `let kept;
class Holder { constructor(call) { this.call = call; } }
function make(i) { const data = new Array(100).fill(i); ${handOut[how]} }`,
    "kept = make(n);",
  );

const variants = [
  { name: "postgres.js select 1", flags: ["--no-opt"], source: statements },
  { name: "postgres.js select 1", flags: [], source: statements },
  { name: "closure stored by assignment", flags: ["--no-opt"], source: pattern("assignment") },
  { name: "closure made first, then assigned", flags: ["--no-opt"], source: pattern("local") },
  { name: "closure in an object literal", flags: ["--no-opt"], source: pattern("literal") },
  { name: "closure stored by a constructor", flags: ["--no-opt"], source: pattern("constructor") },
];

function run({ flags, source }) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--trace-gc-nvp", ...flags, "--input-type=module", "-e", source],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`variant exited with ${code}`));
      let scavenges = 0;
      let promoted = 0;
      for (const line of output.split("\n")) {
        if (!line.includes(" gc=s ")) continue;
        scavenges += 1;
        promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
      }
      const iterations = Number(/iterations=(\d+)/.exec(output)?.[1] ?? 0);
      resolve({ iterations, scavenges, promoted });
    });
  });
}

console.log(`node ${process.version}, ${seconds} s per variant`);
console.log("| variant | flags | iterations | scavenges | promoted MB | promoted B/iteration |");
console.log("|---|---|---:|---:|---:|---:|");
for (const variant of variants) {
  const { iterations, scavenges, promoted } = await run(variant);
  const perIteration = iterations > 0 ? Math.round(promoted / iterations) : 0;
  console.log(
    `| ${variant.name} | ${variant.flags.join(" ") || "default"} | ${iterations} | ${scavenges} | ${(promoted / 1048576).toFixed(1)} | ${perIteration} |`,
  );
}
