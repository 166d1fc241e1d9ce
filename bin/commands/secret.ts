/**
 * `authd secret generate`: a fresh secret, the value alone on stdout (pipe-safe).
 * `authd secret rotate|list|prune`: the keys that sign tokens for other services.
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import { ensureSecret, secretList } from "../../server/config.js";
import { generateSecretIn } from "../../server/crypto/random.js";
import {
  DEFAULT_GRACE_SECONDS,
  type KeySummary,
  listKeys,
  minimumGraceSeconds,
  pruneKeys,
  rotateKeys,
  signingKeySealer,
} from "../../server/keys/keys.js";
import { UsageError } from "../exit-codes.js";
import { didOrWould, emit, formatTable, type GlobalOptions } from "../output.js";
import { withDatabase } from "../with-database.js";
import { parseDuration } from "./user-flags.js";

function parseBytes(value: string): number {
  const bytes = Number(value);
  if (!Number.isInteger(bytes) || bytes < 32 || bytes > 1024) {
    throw new InvalidArgumentError("expected a whole number of bytes from 32 to 1024");
  }
  return bytes;
}

function statusText(key: KeySummary): string {
  if (key.status === "retiring" && key.expiresAt) {
    return `retiring until ${key.expiresAt.toISOString()}`;
  }
  return key.status;
}

function keyItem(key: KeySummary) {
  return {
    kid: key.kid,
    algorithm: key.algorithm,
    createdAt: key.createdAt,
    status: key.status,
    expiresAt: key.expiresAt,
  };
}

export function registerSecret(program: Command): void {
  const secret = program
    .command("secret")
    .description("generate secrets; rotate, list and prune the keys that sign tokens");
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

  secret
    .command("rotate")
    .description(
      "make a new jwt signing key; the others stay published for the grace period, then expire",
    )
    .option(
      "--grace <duration>",
      "how long the replaced keys still verify tokens (30m, 12h, 7d)",
      parseDuration,
      DEFAULT_GRACE_SECONDS,
    )
    .action(async (flags: { grace: number }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withDatabase(globals, async ({ loaded, db }) => {
        const { config } = loaded;
        const minimum = minimumGraceSeconds(config);
        if (flags.grace < minimum) {
          throw new UsageError(
            `--grace ${flags.grace}s is shorter than the token lifetime plus the time running instances take to pick up a new key (jwt.expiresIn ${config.jwt.expiresIn}s + ${minimum - config.jwt.expiresIn}s = ${minimum}s): tokens signed with the old key would stop verifying before they expire`,
          );
        }
        await ensureSecret(loaded);
        const sealer = signingKeySealer(secretList(config));
        const rotation = await rotateKeys(db.sql, config, sealer, flags.grace);
        emit(rotation, globals, {
          quietField: "kid",
          human() {
            process.stdout.write(
              `${didOrWould(globals, "Made", "Would make")} signing key ${rotation.kid} (${rotation.algorithm}).\n`,
            );
            for (const retired of rotation.retired) {
              process.stdout.write(
                `${didOrWould(globals, "Retired", "Would retire")} ${retired.kid}: published until ${retired.expiresAt?.toISOString()}.\n`,
              );
            }
          },
        });
      });
    });

  secret
    .command("list")
    .description("the jwt signing keys: current, retiring until a date, or expired")
    .action(async (_flags: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withDatabase(globals, async ({ loaded, db }) => {
        const keys = await listKeys(db.sql, loaded.config);
        emit({ items: keys.map(keyItem) }, globals, {
          quietField: "kid",
          columns: ["kid", "algorithm", "createdAt", "status", "expiresAt"],
          human() {
            if (keys.length === 0) {
              process.stdout.write("No signing keys yet (made when jwt.enabled starts).\n");
              return;
            }
            process.stdout.write(
              `${formatTable(
                ["KID", "ALGORITHM", "CREATED", "STATUS"],
                keys.map((key) => [
                  key.kid,
                  key.algorithm ?? "?",
                  key.createdAt.toISOString(),
                  statusText(key),
                ]),
              )}\n`,
            );
          },
        });
      });
    });

  secret
    .command("prune")
    .description("delete the jwt signing keys whose grace has ended (never the current key)")
    .action(async (_flags: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withDatabase(globals, async ({ db }) => {
        const deleted = await pruneKeys(db.sql);
        emit({ items: deleted }, globals, {
          quietField: "kid",
          columns: ["kid", "expiresAt"],
          human() {
            const verb = didOrWould(globals, "Deleted", "Would delete");
            process.stdout.write(`${verb} ${deleted.length} expired signing key(s).\n`);
            for (const key of deleted) process.stdout.write(`  ${key.kid}\n`);
          },
        });
      });
    });
}
