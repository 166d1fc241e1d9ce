/** `authd secret generate`: a fresh secret, the value alone on stdout (pipe-safe). */
import { type Command, InvalidArgumentError, Option } from "commander";
import { generateSecretIn } from "../../server/crypto/random.js";
import { emit, type GlobalOptions } from "../output.js";

function parseBytes(value: string): number {
  const bytes = Number(value);
  if (!Number.isInteger(bytes) || bytes < 32 || bytes > 1024) {
    throw new InvalidArgumentError("expected a whole number of bytes from 32 to 1024");
  }
  return bytes;
}

export function registerSecret(program: Command): void {
  const secret = program.command("secret").description("generate secrets");
  secret
    .command("generate")
    .description("print a new random secret for AUTHD_SECRET")
    .option("--bytes <n>", "random bytes (32 to 1024)", parseBytes, 32)
    .addOption(
      new Option("--encoding <encoding>", "encoding of the value")
        .choices(["base64url", "base64", "hex"])
        .default("base64url"),
    )
    .action(
      (flags: { bytes: number; encoding: "base64url" | "base64" | "hex" }, command: Command) => {
        const globals = command.optsWithGlobals<GlobalOptions>();
        const value = generateSecretIn(flags.bytes, flags.encoding);
        // The value is the point of this command: -q and human print it alone.
        emit({ secret: value }, globals, {
          human: () => process.stdout.write(`${value}\n`),
          quietField: "secret",
        });
      },
    );
}
