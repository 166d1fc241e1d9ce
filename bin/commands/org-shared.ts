/**
 * What every `authd org …` command shares: the context its work runs in (the operator
 * as actor, the domains on the command's connection), how subcommands and their
 * arguments are declared, and how results are printed.
 */
import type { Command } from "commander";
import { type OperatorActor, operator } from "../../server/actor.js";
import type { LoadedConfig } from "../../server/config.js";
import type { Database } from "../../server/db/connection.js";
import { createDomains, type Domains } from "../../server/domains.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { emit, type GlobalOptions } from "../output.js";
import { withDatabase } from "../with-database.js";

export interface Context {
  loaded: LoadedConfig;
  db: Database;
  /** The organization and team domains on the command's connection. */
  domains: Domains;
  /** Who acts: the operator. */
  actor: OperatorActor;
  globals: GlobalOptions;
  /** --dry-run: writes are rolled back and no mail is sent. */
  dryRun: boolean;
}

/**
 * An action for commander, which calls it with the positional arguments, the command's
 * own options and the command: `work` gets the arguments and options with the database
 * open (in one rolled-back transaction under --dry-run). `teams` first refuses when
 * teams are disabled.
 */
export function run<Args extends string[] = [], Flags = Record<string, never>>(
  work: (context: Context, args: Args, flags: Flags) => Promise<void>,
  options: { teams?: boolean } = {},
): (...params: unknown[]) => Promise<void> {
  return async (...params) => {
    const command = params.at(-1) as Command;
    const flags = params.at(-2) as Flags;
    const args = params.slice(0, -2) as Args;
    const globals = command.optsWithGlobals<GlobalOptions>();
    await withDatabase(globals, ({ loaded, db, dryRun }) => {
      if (options.teams) requireTeamsEnabled(loaded);
      const domains = createDomains(db.sql, loaded.config);
      const actor = operator("authd org");
      return work({ loaded, db, domains, actor, globals, dryRun }, args, flags);
    });
    process.exitCode = EXIT.ok;
  };
}

/** What each positional argument of the org commands means (for --help). */
const ARGUMENTS: Record<string, string> = {
  "<org>": "organization id or slug",
  "<user>": "user id or email",
  "<team>": "team id or name",
  "<role>": "role(s), comma-separated",
  "<invitation-id>": "the invitation's id",
};

/** `subcommand(member, "add <org> <user>", …)`: the name, then described arguments. */
export function subcommand(parent: Command, usage: string, description: string): Command {
  const [name = usage, ...args] = usage.split(" ");
  const command = parent.command(name).description(description);
  for (const argument of args) command.argument(argument, ARGUMENTS[argument] ?? "");
  return command;
}

/** Prints `data` (any -o format); the human rendering is `human`, one line or more. */
export function print(
  globals: GlobalOptions,
  data: unknown,
  human: string,
  quietField?: string,
): void {
  emit(data, globals, { human: () => process.stdout.write(`${human}\n`), quietField });
}

export const date = (value: Date) => value.toISOString();

/** Team commands need `organization.teams.enabled` (the HTTP team routes do too). */
export function requireTeamsEnabled(loaded: LoadedConfig): void {
  if (!loaded.config.organization.teams.enabled) {
    throw new UsageError(
      "teams are disabled: set organization.teams.enabled to true in the config file",
    );
  }
}
