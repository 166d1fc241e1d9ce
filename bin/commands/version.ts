/** `authd version`: the package version, and Node's, for bug reports. */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { packageRoot } from "../../server/db/migrations.js";
import { emit, type GlobalOptions } from "../output.js";

export function authdVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

/** The `version` command; the root's `-V, --version` flag is declared in root.ts. */
export function registerVersion(program: Command): void {
  program
    .command("version")
    .description("print the authd and Node.js versions")
    .action((_flags: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const info = { authd: authdVersion(), node: process.versions.node };
      emit(info, globals, {
        human: () => process.stdout.write(`authd ${info.authd} (node ${info.node})\n`),
        quietField: "authd",
      });
    });
}
