#!/usr/bin/env node
/**
 * The `authd` executable. CommonJS on purpose: it runs before anything else in the
 * process, so it can still size libuv's thread pool, which starts with the first
 * asynchronous file or DNS call (an ES module entry is already too late).
 *
 * The pool runs argon2id: authd hashes at most one password per core at a time
 * (server/crypto/password.ts), and glibc keeps each pool thread's freed 19 MiB
 * argon2 buffer in that thread's malloc arena. libuv's default of 4 threads on a
 * 2-core machine therefore keeps two buffers more than authd ever uses at once (about
 * 40 MB of peak RSS, bench/README.md), and on a machine with more than 4 cores it
 * caps hashing below the core count. So: one thread per core, at least 2, unless the
 * operator set UV_THREADPOOL_SIZE.
 *
 * V8's heap is left as Node sizes it: memory flags are the operator's
 * (docs/operations.md, "Memory and threads").
 */
import { availableParallelism } from "node:os";

if (!process.env.UV_THREADPOOL_SIZE) {
  process.env.UV_THREADPOOL_SIZE = String(Math.max(2, availableParallelism()));
}
void import("./main.js");
