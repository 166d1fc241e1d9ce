/**
 * `authd config validate|show|schema`: the configuration as data —
 * checked, shown with where each value came from, and described as a JSON Schema.
 */
import path from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import {
  ConfigError,
  configSchema,
  dataPath,
  findConfigFile,
  hasPath,
  isPlainObject,
  type LoadedConfig,
  problemLine,
  readEnvironment,
  redactConfig,
} from "../../server/config.js";
import { auditConfig, type ConfigFinding } from "../../server/config-safety.js";
import { providerSourceProblems } from "../../server/social/config-check.js";
import { BUILT_IN_PROVIDERS } from "../../server/social/providers/index.js";
import { loadCommandConfig } from "../command-config.js";
import { EXIT } from "../exit-codes.js";
import { emit, formatTable, type GlobalOptions, note, printJson } from "../output.js";

export type ConfigSource = "flag" | "env" | "file" | "default";

export interface ConfigSetting {
  key: string;
  value: unknown;
  source: ConfigSource;
  /** The environment variable, when source is "env". */
  variable?: string;
}

/** The config file discovery would pick, or null (never throws: used to label problems). */
function configFileFor(globals: GlobalOptions): string | null {
  try {
    const cwd = process.cwd();
    return findConfigFile(cwd, readEnvironment(cwd), globals.config);
  } catch {
    return globals.config ? path.resolve(globals.config) : null;
  }
}

/** Functions cannot be printed: they show as "[function]", whether revealed or not. */
function showFunctions(value: unknown): unknown {
  if (typeof value === "function") return "[function]";
  if (Array.isArray(value)) return value.map(showFunctions);
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, showFunctions(v)]));
  }
  return value;
}

/** Precedence: flags over environment over the file over defaults. */
export function sourceOf(
  loaded: LoadedConfig,
  keys: string[],
): Omit<ConfigSetting, "key" | "value"> {
  const key = keys.join(".");
  if (hasPath(loaded.flagValues, keys)) return { source: "flag" };
  const variable = loaded.envSources[key];
  if (variable) return { source: "env", variable };
  if (hasPath(loaded.fileValues, keys)) return { source: "file" };
  return { source: "default" };
}

/** One setting per leaf (arrays and empty objects are leaves), in schema order. */
export function effectiveSettings(loaded: LoadedConfig, reveal: boolean): ConfigSetting[] {
  const shown = reveal ? showFunctions(loaded.config) : redactConfig(loaded.config);
  const settings: ConfigSetting[] = [];
  const walk = (value: unknown, keys: string[]) => {
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      for (const [key, child] of Object.entries(value)) walk(child, [...keys, key]);
      return;
    }
    if (value === undefined) return;
    settings.push({ key: keys.join("."), value, ...sourceOf(loaded, keys) });
  };
  walk(shown, []);
  return settings;
}

function display(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function describeSource(setting: ConfigSetting): string {
  return setting.source === "env" ? `env (${setting.variable})` : setting.source;
}

const FUNCTION_NOTE =
  "A function (allowed only in a .ts/.js config file); JSON Schema cannot describe it, so any value is accepted here.";

/** The JSON Schema of the config file: what a file may contain (defaults optional). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configSchema, {
    io: "input",
    // Functions (hooks, computed limits) cannot be represented in JSON Schema.
    unrepresentable: "any",
    override(context) {
      if (context.zodSchema._zod.def.type === "custom") {
        context.jsonSchema.description = FUNCTION_NOTE;
      }
    },
  }) as Record<string, unknown>;
  return {
    ...schema,
    title: "authd configuration",
    description:
      "The authd configuration file (authd.config.json, or the object a .ts/.js file default-exports). Keys holding functions are shown as accepting any value: JSON Schema cannot describe functions.",
  };
}

/** A strict finding as one line, labelled like the schema's problems: its source, key, message. */
function findingLine(loaded: LoadedConfig, finding: ConfigFinding): string {
  const label = loaded.file ? path.basename(loaded.file) : "defaults";
  return problemLine(
    { label, envSources: loaded.envSources, flagSources: loaded.flagSources },
    finding.key.split("."),
    finding.message,
  );
}

async function validateCommand(flags: { strict?: boolean }, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const strict = flags.strict === true;
  let file: string | null;
  let problems: string[] = [];
  const warnings: string[] = [];
  try {
    const loaded = await loadCommandConfig(globals);
    file = loaded.file;
    // What `serve` would refuse at start: a provider without a source of endpoints.
    const label = loaded.file ? path.basename(loaded.file) : "defaults";
    problems.push(...providerSourceProblems(loaded.config, BUILT_IN_PROVIDERS, label));
    if (strict) {
      for (const finding of auditConfig(loaded, dataPath(loaded, "secret"))) {
        (finding.severity === "problem" ? problems : warnings).push(findingLine(loaded, finding));
      }
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    file = configFileFor(globals);
    problems = error.problems;
  }
  const valid = problems.length === 0;
  // Without --strict the document keeps its original shape: {valid, file, problems}.
  const document = strict ? { valid, file, problems, warnings } : { valid, file, problems };
  emit(document, globals, {
    human: () => {
      for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
      if (valid) {
        process.stdout.write(
          `valid${strict ? " under --strict" : ""} (${file ?? "no config file: defaults and environment"})\n`,
        );
        return;
      }
      process.stderr.write(`${problems.map((problem) => `${problem}\n`).join("")}`);
      note(
        `invalid${strict ? " under --strict" : ""}: ${problems.length} problem${problems.length === 1 ? "" : "s"} in ${file ?? "the environment"}`,
      );
    },
    quietField: "problems",
  });
  process.exitCode = valid ? EXIT.ok : EXIT.config;
}

async function showCommand(flags: { reveal?: boolean }, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const loaded = await loadCommandConfig(globals);
  const reveal = flags.reveal === true;
  if (reveal) note("warning: --reveal prints secrets in clear text; do not share this output.");
  const settings = effectiveSettings(loaded, reveal);
  emit({ file: loaded.file, revealed: reveal, settings }, globals, {
    listField: "settings",
    columns: ["key", "value", "source", "variable"],
    quietField: "key",
    human: () => {
      process.stdout.write(
        `${formatTable(
          ["SETTING", "VALUE", "SOURCE"],
          settings.map((setting) => [setting.key, display(setting.value), describeSource(setting)]),
        )}\n`,
      );
      note(`Configuration file: ${loaded.file ?? "none (defaults)"}`);
    },
  });
  process.exitCode = EXIT.ok;
}

export function registerConfig(program: Command): void {
  const config = program
    .command("config")
    .description("validate, show or describe the configuration");

  config
    .command("validate")
    .description("load and validate the config file and environment (exit 78 when invalid)")
    .option(
      "--strict",
      "also fail on valid but unsafe settings: no https baseURL, wildcard trusted origins, no secret, long cookie cache, session minting",
    )
    .action(validateCommand);

  config
    .command("show")
    .description("the effective configuration, each value with its source (secrets redacted)")
    .option("--reveal", "print secrets in clear text (a warning goes to stderr)")
    .action(showCommand);

  config
    .command("schema")
    .description("print the JSON Schema of the config file")
    .action((_flags: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const schema = configJsonSchema();
      // JSON Schema is JSON: the human form is the JSON document too (-o yaml also works).
      emit(schema, globals, { human: () => printJson(schema) });
      process.exitCode = EXIT.ok;
    });
}
