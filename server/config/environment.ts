/**
 * What authd reads of its surroundings: the environment (the shell's variables over
 * `./.env`) and what the CLI takes from it. The only module that reads `process.env`.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { ConfigError } from "./messages.js";

const ASSIGNMENT = /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*=(.*)$/;

/**
 * The numbers of the lines of a .env text that are neither a `NAME=value` (whose quoted
 * value may go on over several lines), a comment nor blank. Node's parser skips such
 * lines without a word, so `PORT 4000` would silently not set the port.
 */
function unreadableLines(text: string): number[] {
  const unreadable: number[] = [];
  let openQuote: string | null = null;
  text.split(/\r?\n/).forEach((line, index) => {
    if (openQuote !== null) {
      if (line.includes(openQuote)) openQuote = null;
      return;
    }
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    const value = ASSIGNMENT.exec(line)?.[1]?.trimStart();
    if (value === undefined) {
      unreadable.push(index + 1);
      return;
    }
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === "`") && !value.slice(1).includes(quote)) {
      openQuote = quote;
    }
  });
  return unreadable;
}

/** The effective environment: the shell's variables over those of `./.env`. */
export function readEnvironment(cwd: string): Record<string, string | undefined> {
  const file = path.join(cwd, ".env");
  let fromFile: Record<string, string> = {};
  if (existsSync(file)) {
    // Synchronous on purpose: it runs once at start-up, before anything else.
    const text = readFileSync(file, "utf8");
    const unreadable = unreadableLines(text);
    if (unreadable.length > 0) {
      // The lines themselves are not shown: a malformed one may hold a secret.
      throw new ConfigError([
        `${file}: line ${unreadable.join(", ")}: expected NAME=value (or a # comment)`,
      ]);
    }
    try {
      fromFile = parseEnv(text) as Record<string, string>;
    } catch {
      throw new ConfigError([`${file}: could not be parsed as KEY=value lines`]);
    }
  }
  return { ...fromFile, ...process.env };
}

/** The values of `--profile` and $AUTHD_PROFILE; anything else is a usage error. */
export const PROFILES = ["dev", "test", "production"] as const;

/** What the CLI needs to know of its surroundings (clig.dev: prompts, colour, CI). */
export interface CliEnvironment {
  /** CI=true or AUTHD_NO_INPUT set: never prompt. */
  noInput: boolean;
  /** NO_COLOR, TERM=dumb or AUTHD_NO_COLOR: plain text. */
  noColor: boolean;
  /** AUTHD_OUTPUT: the default of `-o`. */
  output?: string;
  /**
   * AUTHD_PROFILE: dev, test or production (the `--profile` flag sets it); as set, so
   * the CLI can refuse another value (bin/program.ts).
   */
  profile?: string;
  /** NODE_ENV=production or AUTHD_PROFILE=production (what `loaded.production` says). */
  production: boolean;
  /** libuv's thread pool (argon2 hashes run there): UV_THREADPOOL_SIZE, else 4. */
  threadPoolSize: number;
}

export function readCliEnvironment(
  env: Record<string, string | undefined> = process.env,
): CliEnvironment {
  const truthy = (value: string | undefined) =>
    value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
  return {
    noInput: truthy(env.CI) || truthy(env.AUTHD_NO_INPUT),
    noColor: truthy(env.NO_COLOR) || env.TERM === "dumb" || truthy(env.AUTHD_NO_COLOR),
    output: env.AUTHD_OUTPUT || undefined,
    profile: env.AUTHD_PROFILE || undefined,
    production: env.NODE_ENV === "production" || env.AUTHD_PROFILE === "production",
    threadPoolSize: Number(env.UV_THREADPOOL_SIZE) || 4,
  };
}
