/** `authd init`: being written (issue 2). */
import type { Command } from "commander";

export function registerInit(program: Command): void {
  program.command("init").description("(in progress)");
}
