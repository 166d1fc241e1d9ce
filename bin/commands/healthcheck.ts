/**
 * `authd healthcheck [--url U] [--ready]`: a probe for container
 * HEALTHCHECKs with no curl in the image. Exit 0 on HTTP 200, 1 otherwise; silent on
 * success unless --json; never hangs (every request has a deadline).
 */
import { type Command, InvalidArgumentError } from "commander";
import { ConfigError } from "../../server/config.js";
import { loadCommandConfig } from "../command-config.js";
import { EXIT } from "../exit-codes.js";
import { emit, type GlobalOptions, note } from "../output.js";

interface HealthcheckFlags {
  url?: string;
  ready?: boolean;
}

const DEFAULT_BASE_PATH = "/api/auth";

function parseBaseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http");
    return url.toString().replace(/\/+$/, "");
  } catch {
    throw new InvalidArgumentError("expected an http(s) URL, e.g. http://127.0.0.1:3000");
  }
}

/** The URL to probe: --url (or 127.0.0.1 on the configured port) plus the probe path. */
async function probeUrl(flags: HealthcheckFlags, globals: GlobalOptions): Promise<string> {
  let basePath = DEFAULT_BASE_PATH;
  let origin = flags.url;
  try {
    const { config } = await loadCommandConfig(globals);
    basePath = config.basePath === "/" ? "" : config.basePath;
    // The server may listen on every interface; the probe runs beside it.
    origin ??= `http://127.0.0.1:${config.server.port}`;
  } catch (error) {
    // With --url the configuration only supplies the base path: its default will do.
    if (!(error instanceof ConfigError) || origin === undefined) throw error;
  }
  return `${origin}${flags.ready ? "/readyz" : `${basePath}/ok`}`;
}

export interface HealthcheckResult {
  ok: boolean;
  url: string;
  status: number | null;
  error?: string;
}

export async function probe(url: string, timeoutSeconds: number): Promise<HealthcheckResult> {
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutSeconds * 1000),
      redirect: "manual",
    });
    await response.body?.cancel();
    return response.status === 200
      ? { ok: true, url, status: 200 }
      : { ok: false, url, status: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const reason = timedOut
      ? `no answer within ${timeoutSeconds} s`
      : cause instanceof Error
        ? cause.message
        : String(cause);
    return { ok: false, url, status: null, error: reason };
  }
}

export function registerHealthcheck(program: Command): void {
  program
    .command("healthcheck")
    .description("probe a running server: exit 0 when it answers 200, else 1")
    .option(
      "--url <url>",
      "server origin (default: http://127.0.0.1:<configured port>)",
      parseBaseUrl,
    )
    .option("--ready", "probe /readyz (database and schema) instead of <basePath>/ok")
    .addHelpText("after", "\nThe global --timeout (default 5s) bounds the probe.")
    .action(async (flags: HealthcheckFlags, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const result = await probe(await probeUrl(flags, globals), globals.timeout ?? 5);
      // Silent when healthy: a probe's output only matters when it fails. -q has no id
      // to print, so it reads as the human form.
      const unhealthy = () => {
        if (!result.ok) note(`authd: unhealthy: ${result.url}: ${result.error}`);
      };
      if (globals.quiet) unhealthy();
      else emit(result, globals, { human: unhealthy });
      process.exitCode = result.ok ? EXIT.ok : EXIT.internal;
    });
}
