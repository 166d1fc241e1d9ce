/**
 * The configuration a command runs with: the file and the environment under the global
 * flags that set configuration values (`--database-url`, `--verbose`) and the command's
 * own. A flag's value is reported as the flag's, in `config show` and in problems, never
 * as an environment variable the user did not set.
 */
import { type LoadedConfig, loadConfig } from "../server/config.js";
import type { GlobalOptions } from "./output.js";

export interface CommandConfigOptions {
  /** The command's own flag values, as config paths (`{ server: { port: 4000 } }`). */
  overrides?: Record<string, unknown>;
  /** The flag behind each of those, by config path (`"server.port": "--port"`). */
  flagNames?: Record<string, string>;
}

export function loadCommandConfig(
  globals: GlobalOptions,
  own: CommandConfigOptions = {},
): Promise<LoadedConfig> {
  const overrides: Record<string, unknown> = { ...own.overrides };
  const flagNames: Record<string, string> = { ...own.flagNames };
  if (globals.databaseUrl !== undefined) {
    overrides.database = { url: globals.databaseUrl };
    flagNames["database.url"] = "--database-url";
  }
  if (globals.verbose) {
    overrides.log = { ...(overrides.log as Record<string, unknown> | undefined), level: "debug" };
    flagNames["log.level"] = "--verbose";
  }
  return loadConfig({ configPath: globals.config, overrides, flagNames });
}
