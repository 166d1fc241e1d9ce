/**
 * `authd user …`: platform administration from the shell. Every verb calls the same
 * domain function as its `/admin/*` endpoint, as the operator, so each writes an
 * audit_event with actor_type "cli". Create and list have files of their own
 * (user-create.ts, user-list.ts), as does import (user-import.ts).
 */
import { type Command, InvalidArgumentError } from "commander";
import { resolveUser } from "../../server/admin/admin.js";
import { impersonateUser } from "../../server/admin/sessions.js";
import {
  banUser,
  getUser,
  removeUser,
  setRole,
  setUserPassword,
  unbanUser,
  updateUser,
} from "../../server/admin/users.js";
import { ensureSecret } from "../../server/config.js";
import { sessionCookieFor } from "../../server/http/session-cookies.js";
import { sessionResponse, userResponse } from "../../server/sessions/sessions.js";
import type { UserRow } from "../../server/users/queries.js";
import { UsageError } from "../exit-codes.js";
import { didOrWould, emit, type GlobalOptions, note } from "../output.js";
import { type AdminSession, CLI_ACTOR, withAdmin } from "../with-admin.js";
import { confirmModerate, matchConfirm, requireConfirm } from "./shared.js";
import { createCommand } from "./user-create.js";
import { printUser, printUserList } from "./user-display.js";
import {
  type PasswordFlags,
  parseBoolean,
  parseDuration,
  parseInstant,
  parseLimit,
  parseOffset,
  readPassword,
} from "./user-flags.js";
import { listCommand } from "./user-list.js";

/** Other command groups read durations as `user` does. */
export { parseDuration } from "./user-flags.js";

/** Resolves every target before anything is written: one unknown user, nothing done. */
async function resolveAll(admin: AdminSession, targets: string[]): Promise<UserRow[]> {
  const users: UserRow[] = [];
  for (const target of targets) users.push(await resolveUser(admin.deps.sql, target));
  return users;
}

/** Runs `operation` on the user `target` names (id or email) and prints the user it answers. */
async function onUser(
  globals: GlobalOptions,
  target: string,
  operation: (deps: AdminSession["deps"], userId: string) => Promise<UserRow>,
): Promise<void> {
  await withAdmin(globals, async (admin) => {
    const found = await resolveUser(admin.deps.sql, target);
    printUser(await operation(admin.deps, found.id), globals);
  });
}

/** The `user` group; answers it for `user import`, which registers itself there. */
export function registerUser(program: Command): Command {
  const user = program.command("user").description("manage users (platform admin)");

  user
    .command("create")
    .description("create a user")
    .requiredOption("--email <email>", "email address")
    .option("--name <name>", "display name")
    .option("--password-stdin", "read the password from stdin")
    .option("--password-file <file>", "read the password from a file")
    .option("--password <password>", "the password (prints a warning; prefer --password-stdin)")
    .option("--no-password", "create the user without a password")
    .option("--email-verified", "mark the email verified")
    .option("--role <role>", "platform role (admin, user, or one of admin.adminRoles)")
    .option(
      "--if-exists <mode>",
      "when the email exists: skip, update or fail",
      (value) => {
        if (!["skip", "update", "fail"].includes(value)) {
          throw new InvalidArgumentError("expected skip, update or fail");
        }
        return value;
      },
      "fail",
    )
    .action(createCommand);

  user
    .command("list")
    .description("list users")
    .option("--email <glob>", "email pattern, e.g. '*@example.com'")
    .option("--role <role>", "only users with this role")
    .option("--banned", "only banned users")
    .option("--no-banned", "only users who are not banned")
    .option("--verified", "only users with a verified email")
    .option("--no-verified", "only users whose email is not verified")
    .option(
      "--created-after <when>",
      "created after an ISO date/time, or within a duration such as 7d",
      parseInstant,
    )
    .option("--limit <n>", "at most N users per page (1-1000; --all: 500)", parseLimit, 50)
    .option("--offset <n>", "skip N users (first page only)", parseOffset)
    .option("--cursor <cursor>", "continue after a page: its nextCursor")
    .option("--all", "every page (streams with -q and -o jsonl)")
    .action(listCommand);

  user
    .command("get <user>")
    .description("show a user (by id or email)")
    .action(async (target: string, _flags: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await onUser(globals, target, (deps, userId) => getUser(deps, CLI_ACTOR, userId));
    });

  user
    .command("update <user>")
    .description("change a user's name, email, verification or image")
    .option("--name <name>", "display name")
    .option("--email <email>", "new email address (must be unused)")
    .option("--email-verified <bool>", "true or false", parseBoolean)
    .option("--image <url>", "image URL")
    .action(
      async (
        target: string,
        flags: { name?: string; email?: string; emailVerified?: boolean; image?: string },
        command: Command,
      ) => {
        const globals = command.optsWithGlobals<GlobalOptions>();
        // Only the fields: the global flags (-q, --dry-run) land in `flags` too.
        const { name, email, emailVerified, image } = flags;
        const data = Object.fromEntries(
          Object.entries({ name, email, emailVerified, image }).filter(
            ([, value]) => value !== undefined,
          ),
        );
        if (Object.keys(data).length === 0) {
          throw new UsageError(
            "nothing to update: give --name, --email, --email-verified or --image",
          );
        }
        await onUser(globals, target, (deps, userId) => updateUser(deps, CLI_ACTOR, userId, data));
      },
    );

  user
    .command("ban <users...>")
    .description("ban users and end their sessions (moderate: --yes off a terminal)")
    .option("--reason <reason>", "shown to the user at sign-in")
    .option("--expires-in <duration>", "lift the ban after e.g. 7d (default: never)", parseDuration)
    .option("--keep-sessions", "leave their current sessions running until they expire")
    .action(
      async (
        targets: string[],
        flags: { reason?: string; expiresIn?: number; keepSessions?: boolean },
        command: Command,
      ) => {
        const globals = command.optsWithGlobals<GlobalOptions>();
        await withAdmin(globals, async (admin) => {
          const users = await resolveAll(admin, targets);
          const confirmed = await confirmModerate(
            `Ban ${users.map((found) => found.email).join(", ")}${flags.keepSessions ? " (their sessions are kept)" : " and end their sessions"}?`,
            globals,
          );
          if (!confirmed) {
            note("Nothing banned.");
            return;
          }
          const banned: UserRow[] = [];
          for (const found of users) {
            banned.push(
              await banUser(admin.deps, CLI_ACTOR, found.id, {
                reason: flags.reason,
                expiresIn: flags.expiresIn,
                keepSessions: flags.keepSessions === true,
              }),
            );
          }
          printUserList(banned, globals);
        });
      },
    );

  user
    .command("unban <users...>")
    .description("lift bans")
    .action(async (targets: string[], _flags: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withAdmin(globals, async (admin) => {
        const users = await resolveAll(admin, targets);
        const unbanned: UserRow[] = [];
        for (const found of users) unbanned.push(await unbanUser(admin.deps, CLI_ACTOR, found.id));
        printUserList(unbanned, globals);
      });
    });

  user
    .command("set-role <user> <role>")
    .description("set the platform role (comma-separated for several)")
    .action(async (target: string, role: string, _flags: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await onUser(globals, target, (deps, userId) => setRole(deps, CLI_ACTOR, userId, role));
    });

  user
    .command("set-password <user>")
    .description("set a user's password and end their sessions")
    .option("--password-stdin", "read the password from stdin")
    .option("--password-file <file>", "read the password from a file")
    .option("--password <password>", "the password (prints a warning; prefer --password-stdin)")
    .option("--keep-sessions", "leave the user's sessions running")
    .action(
      async (
        target: string,
        flags: PasswordFlags & { keepSessions?: boolean },
        command: Command,
      ) => {
        const globals = command.optsWithGlobals<GlobalOptions>();
        const password = await readPassword(flags);
        if (password === undefined) {
          throw new UsageError("give the password with --password-stdin or --password-file");
        }
        await withAdmin(globals, async (admin) => {
          const found = await resolveUser(admin.deps.sql, target);
          const { sessionsRevoked } = await setUserPassword(
            admin.deps,
            CLI_ACTOR,
            found.id,
            password,
            {
              revokeSessions: flags.keepSessions !== true,
            },
          );
          emit({ id: found.id, email: found.email, passwordSet: true, sessionsRevoked }, globals, {
            human: () => {
              process.stdout.write(
                `${didOrWould(globals, "Password set", "Would set the password")} for ${found.email} (${found.id}); ${flags.keepSessions ? "sessions kept" : `${sessionsRevoked} session(s) ${didOrWould(globals, "ended", "would end")}`}.\n`,
              );
            },
          });
        });
      },
    );

  user
    .command("delete <users...>")
    .description("delete users (moderate: --yes; several at once is severe: --confirm=<count>)")
    .option("--confirm <count>", "the number of users to delete, required for more than one")
    .action(async (targets: string[], flags: { confirm?: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withAdmin(globals, async (admin) => {
        const users = await resolveAll(admin, targets);
        const unique = [...new Map(users.map((found) => [found.id, found])).values()];
        if (unique.length > 1) {
          const refusal = `deleting ${unique.length} users is severe: pass --confirm=${unique.length}`;
          requireConfirm(flags.confirm, globals.dryRun === true, refusal);
          matchConfirm(flags.confirm, String(unique.length), refusal);
        } else {
          const confirmed = await confirmModerate(
            `Delete ${unique[0]?.email} with their sessions, accounts and memberships?`,
            globals,
          );
          if (!confirmed) {
            note("Nothing deleted.");
            return;
          }
        }
        for (const found of unique) await removeUser(admin.deps, CLI_ACTOR, found.id);
        emit({ items: unique.map((found) => ({ id: found.id, email: found.email })) }, globals, {
          human: () => {
            for (const found of unique) {
              process.stdout.write(
                `${didOrWould(globals, "Deleted", "Would delete")} ${found.email} (${found.id}).\n`,
              );
            }
          },
        });
      });
    });

  user
    .command("impersonate <user>")
    .description(
      "start an impersonation session of a user as --as <admin>; prints the cookie value",
    )
    .requiredOption("--as <admin>", "the admin (id or email) the session is recorded against")
    .option(
      "--ttl <duration>",
      "lifetime, e.g. 30m or 1h (default: admin.impersonationSessionDuration)",
      parseDuration,
    )
    .action(async (target: string, flags: { as: string; ttl?: number }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withAdmin(globals, async (admin) => {
        const { config } = admin.loaded;
        const { secret } = await ensureSecret(admin.loaded);
        const impersonator = await resolveUser(admin.deps.sql, flags.as);
        const found = await resolveUser(admin.deps.sql, target);
        const created = await impersonateUser(
          admin.deps,
          CLI_ACTOR,
          found.id,
          { ipAddress: null, userAgent: "authd-cli" },
          { impersonator, lifetimeSeconds: flags.ttl },
        );
        // As `session create` does: the value a browser would hold in the session cookie.
        const { name: cookieName, value: cookieValue } = sessionCookieFor(
          config,
          secret,
          created.token,
        );
        emit(
          {
            token: created.token,
            cookieName,
            cookieValue,
            session: sessionResponse(created.session),
            user: userResponse(created.user),
          },
          globals,
          {
            // -q: the cookie value alone, for `curl -b "name=$(…)"`.
            quietField: "cookieValue",
            human: () => {
              note(
                `Cookie ${cookieName} impersonating ${created.user.email} as ${impersonator.email}, valid until ${created.session.expiresAt.toISOString()}:`,
              );
              process.stdout.write(`${cookieValue}\n`);
            },
          },
        );
      });
    });

  return user;
}
