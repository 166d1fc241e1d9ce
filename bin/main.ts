/** The authd CLI: runs the command line (bin/run.ts); nothing else (bin/authd.cts loads it). */
import { runCli } from "./run.js";

const code = await runCli(process.argv);
process.exitCode = code;
// Nothing a command left behind (a client still retrying a dead database, say) may
// keep the process alive once its answer is out; output gets a moment to flush.
setTimeout(() => process.exit(code), 1000).unref();
