/** Spawning the real built `authd` binary, as operators and CI run it. */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
/** $AUTHD_TEST_BIN points the tests at another build (e.g. `tsc --outDir dist-x`). */
export const AUTHD_BIN = process.env.AUTHD_TEST_BIN
  ? path.resolve(ROOT, process.env.AUTHD_TEST_BIN)
  : path.join(ROOT, "dist/bin/authd.cjs");

let scratch: string | undefined;

/**
 * Where a command runs unless a test says otherwise: an empty folder of this test
 * process's own, never the checkout, so an `authd.config.ts` or `.env` that
 * `authd init` wrote there cannot change what the tests see.
 */
export function scratchDirectory(): string {
  if (scratch === undefined) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "authd-test-cwd-"));
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    scratch = dir;
  }
  return scratch;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  /** Another authd executable than this checkout's build (an installed package's). */
  bin?: string;
  /** Added to a minimal environment (PATH, HOME): nothing leaks in from the shell. */
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /** Sees the standard error read so far, after each chunk (to act on a progress line). */
  onStderr?: (stderr: string) => void;
  /** Options for node itself, before the script (startServe). */
  nodeArgs?: string[];
}

export function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: "warn",
  };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs any program with a minimal environment and collects its output. */
export function runProcess(
  command: string,
  args: string[],
  options: RunOptions = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? scratchDirectory(),
      env: baseEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      options.onStderr?.(stderr);
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`${command} ${args.join(" ")} timed out\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    }, options.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** The `{"error": {…}}` a command prints on stderr when it fails under `--json`. */
export function cliError(result: CliResult): {
  code: string;
  message: string;
  status?: number;
  details?: unknown;
} {
  return JSON.parse(result.stderr).error;
}

/** A command that had to succeed: exit 0, and its JSON document from stdout. */
export function successJson<T>(result: CliResult, label: string): T {
  if (result.code !== 0) {
    throw new Error(`${label}: exit ${result.code}\n${result.stderr}`);
  }
  return JSON.parse(result.stdout) as T;
}

export function runAuthd(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return runProcess(process.execPath, [AUTHD_BIN, ...args], options);
}

export interface ServeProcess {
  child: ChildProcess;
  /** Where the server answers, e.g. http://127.0.0.1:41234 (without the base path). */
  url: string;
  output(): string;
  /** Sends a signal and waits for the exit; answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Starts `authd serve` on a free loopback port, without a drain delay, and waits for
 * its "authd listening" log line, which carries the URL.
 */
export function startServe(args: string[], options: RunOptions = {}): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      // No drain delay unless a test asks for one: tests stop servers many times, and
      // no load balancer waits for /readyz here.
      [
        ...(options.nodeArgs ?? []),
        options.bin ?? AUTHD_BIN,
        "serve",
        "--port",
        "0",
        "--host",
        "127.0.0.1",
        "--drain-delay",
        "0",
        ...args,
      ],
      {
        cwd: options.cwd ?? scratchDirectory(),
        env: baseEnv({ LOG_LEVEL: "info", ...options.env }),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    let settled = false;
    const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      child.kill("SIGKILL");
      reject(new Error(`authd serve did not start in time:\n${output}`));
    }, options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (settled) return;
      const match = /"url":"(http:\/\/[^"/]+)[^"]*".*"msg":"authd listening"/.exec(output);
      if (match?.[1]) {
        settled = true;
        clearTimeout(timer);
        resolve({
          child,
          url: match[1],
          output: () => output,
          exited,
          stop(signal = "SIGTERM") {
            if (child.exitCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exited.then((code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new Error(`authd serve exited with ${code} before listening:\n${output}`));
    });
  });
}

/**
 * Runs authd under a pseudo-terminal (util-linux `script`), so that it sees a TTY and
 * prompts; `answers` are typed one by one, each after `waitFor` appears in the output.
 */
export function runAuthdInTerminal(
  args: string[],
  answers: Array<{ waitFor: string; keys: string }>,
  options: RunOptions = {},
): Promise<CliResult> {
  const quote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;
  const commandLine = [process.execPath, AUTHD_BIN, ...args].map(quote).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", commandLine, "/dev/null"], {
      cwd: options.cwd ?? scratchDirectory(),
      env: baseEnv({ TERM: "xterm", ...options.env }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const pending = [...answers];
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const next = pending[0];
      if (next && stdout.includes(next.waitFor)) {
        pending.shift();
        child.stdin.write(next.keys);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      options.onStderr?.(stderr);
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`authd ${args.join(" ")} (terminal) timed out\n${stdout}`));
    }, options.timeoutMs ?? 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Sends a POST whose body is half written, so it stays in flight (at a signal, say)
 * until `finish` writes the rest; `response` answers all the server sent once the
 * connection closed (with `error <code>` appended if it was reset).
 */
export async function openSlowPost(url: string, route: string, body: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  let response = "";
  socket.on("data", (chunk: Buffer) => {
    response += chunk.toString();
  });
  socket.on("error", (error: NodeJS.ErrnoException) => {
    response += `error ${error.code}`;
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST ${route} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
  );
  return {
    finish() {
      socket.write(body.slice(half));
    },
    async response() {
      await closed;
      return response;
    },
  };
}
