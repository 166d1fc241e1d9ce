#!/usr/bin/env node
/** The authd CLI entry: builds the commander program and runs it; nothing else. */
import { availableParallelism } from "node:os";

// argon2 hashes run on libuv's thread pool, which has 4 threads unless told otherwise
// when it first starts (on first use, after this line): one hash per core plus room
// for file and DNS work, so hashing (sign-in, seed, import) uses every core.
process.env.UV_THREADPOOL_SIZE ??= String(Math.max(4, availableParallelism() + 2));

const { runCli } = await import("./program.js");
const code = await runCli(process.argv);
process.exitCode = code;
// Nothing a command left behind (a client still retrying a dead database, say) may
// keep the process alive once its answer is out; output gets a moment to flush.
setTimeout(() => process.exit(code), 1000).unref();
