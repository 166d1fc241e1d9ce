/** `authd doctor`: being written (issue 2). */
import type { Command } from "commander";

export function registerDoctor(program: Command): void {
  program.command("doctor").description("(in progress)");
}
