/**
 * `authd user …`: platform administration from the shell. Every verb calls the same
 * domain function as its `/admin/*` endpoint, as the actor "cli", so each
 * writes an audit_event with actor_type "cli".
 */
import { readFile } from "node:fs/promises";
import { type Command, InvalidArgumentError } from "commander";
import { type OperatorActor, operator } from "../../server/actor.js";
import { type AdminDeps, resolveUser } from "../../server/admin/admin.js";
import { listUsersPage } from "../../server/admin/list-users.js";
import { impersonateUser } from "../../server/admin/sessions.js";
import {
  banUser,
  createUser,
  getUser,
  removeUser,
  setRole,
  setUserPassword,
  unbanUser,
  updateUser,
} from "../../server/admin/users.js";
import { ensureSecret, type LoadedConfig } from "../../server/config.js";
import type { Database } from "../../server/db/connection.js";
import { AuthError } from "../../server/errors.js";
import { sessionCookieFor } from "../../server/http/session-cookies.js";
import { sessionResponse, userResponse } from "../../server/sessions/sessions.js";
import { findUserByEmail, type UserRow } from "../../server/users/queries.js";
import { normalizeEmail } from "../../server/users/users.js";
import { UsageError } from "../exit-codes.js";
import {
  didOrWould,
  emit,
  formatTable,
  type GlobalOptions,
  note,
  outputFormat,
} from "../output.js";
import { withDatabase } from "../with-database.js";
import { confirmModerate } from "./shared.js";

export const CLI_ACTOR: OperatorActor = operator();

export interface AdminSession {
  deps: AdminDeps;
  db: Database;
  loaded: LoadedConfig;
  /** --dry-run: the command's writes are rolled back at the end. */
  dryRun: boolean;
}

/** Opens the database for one command (rolled back under --dry-run) and closes it. */
export function withAdmin<T>(
  globals: GlobalOptions,
  work: (admin: AdminSession) => Promise<T>,
): Promise<T> {
  return withDatabase(globals, ({ loaded, db, dryRun }) =>
    work({ deps: { sql: db.sql, config: loaded.config }, db, loaded, dryRun }),
  );
}

/** `7d`, `12h`, `30m`, `45s`, or plain seconds, as seconds. */
export function parseDuration(value: string): number {
  const match = /^(\d+)\s*([smhdw]?)$/.exec(value.trim());
  const units: Record<string, number> = { "": 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
  const seconds = match ? Number(match[1]) * (units[match[2] ?? ""] ?? 1) : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds < 1) {
    throw new InvalidArgumentError("expected a duration like 30m, 12h or 7d");
  }
  return seconds;
}

function parseBoolean(value: string): boolean {
  if (value === "true") return true;
  if (value === "false") return false;
  throw new InvalidArgumentError("expected true or false");
}

function parseLimit(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000) {
    throw new InvalidArgumentError("expected a whole number from 1 to 1000");
  }
  return Number(value);
}

function parseOffset(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("expected a whole number >= 0");
  return Number(value);
}

const ISO_INSTANT =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** `--created-after`: an ISO date/time, or a duration (`7d`) meaning that long ago. */
export function parseInstant(value: string): Date {
  const text = value.trim();
  if (/^\d+\s*[smhdw]$/.test(text)) return new Date(Date.now() - parseDuration(text) * 1000);
  const time = ISO_INSTANT.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) {
    throw new InvalidArgumentError(
      "expected an ISO date such as 2026-01-31 or 2026-01-31T12:00:00Z, or a duration such as 7d (within the last 7 days)",
    );
  }
  return new Date(time);
}

export function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk: string) => {
      text += chunk;
    });
    process.stdin.on("end", () => resolve(text));
    process.stdin.on("error", reject);
  });
}

/** One trailing newline is the shell's (`echo`), not the password's. */
function stripNewline(text: string): string {
  return text.replace(/\r?\n$/, "");
}

interface PasswordFlags {
  password?: string | boolean;
  passwordStdin?: boolean;
  passwordFile?: string;
}

/**
 * The password from --password-stdin or --password-file; a plain --password value
 * works but warns (it lands in shell history and `ps`). Undefined when none is given.
 */
export async function readPassword(flags: PasswordFlags): Promise<string | undefined> {
  const given = [
    flags.passwordStdin === true,
    flags.passwordFile !== undefined,
    typeof flags.password === "string",
  ].filter(Boolean).length;
  if (given > 1) {
    throw new UsageError("give the password one way: --password-stdin or --password-file");
  }
  let password: string | undefined;
  if (flags.passwordStdin) {
    if (process.stdin.isTTY) throw new UsageError("--password-stdin needs the password piped in");
    password = stripNewline(await readStdin());
  } else if (flags.passwordFile !== undefined) {
    try {
      password = stripNewline(await readFile(flags.passwordFile, "utf8"));
    } catch (error) {
      throw new UsageError(
        `cannot read --password-file ${flags.passwordFile}: ${(error as Error).message}`,
      );
    }
  } else if (typeof flags.password === "string") {
    note(
      "warning: a password given on the command line is visible in shell history and process lists; use --password-stdin or --password-file",
    );
    password = flags.password;
  }
  if (password === "") throw new UsageError("the password is empty");
  return password;
}

function dateText(value: Date | null): string {
  return value ? value.toISOString() : "-";
}

export function printUsers(users: UserRow[]): void {
  process.stdout.write(
    `${formatTable(
      ["ID", "EMAIL", "NAME", "ROLE", "VERIFIED", "BANNED", "CREATED"],
      users.map((user) => [
        user.id,
        user.email,
        user.name,
        user.role ?? "-",
        user.emailVerified ? "yes" : "no",
        user.banned ? `yes (${user.banReason ?? ""}, until ${dateText(user.banExpires)})` : "no",
        user.createdAt.toISOString(),
      ]),
    )}\n`,
  );
}

/** One user as the API shows it; human: a FIELD/VALUE table. */
function printUser(user: UserRow, globals: GlobalOptions): void {
  emit(userResponse(user), globals);
}

/** Several users (`{items}`); human: the users table. */
function printUserList(users: UserRow[], globals: GlobalOptions): void {
  emit({ items: users.map(userResponse) }, globals, { human: () => printUsers(users) });
}

/** Resolves every target before anything is written: one unknown user, nothing done. */
async function resolveAll(admin: AdminSession, targets: string[]): Promise<UserRow[]> {
  const users: UserRow[] = [];
  for (const target of targets) users.push(await resolveUser(admin.deps.sql, target));
  return users;
}

interface CreateFlags extends PasswordFlags {
  email: string;
  name?: string;
  emailVerified?: boolean;
  role?: string;
  ifExists: "skip" | "update" | "fail";
}

async function createCommand(flags: CreateFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const password = flags.password === false ? undefined : await readPassword(flags);
  await withAdmin(globals, async (admin) => {
    const existing = await findUserByEmail(admin.deps.sql, normalizeEmail(flags.email));
    let user: UserRow;
    if (existing && flags.ifExists === "skip") {
      note(`${existing.email} already exists (${existing.id}); skipped.`);
      user = existing;
    } else if (existing && flags.ifExists === "update") {
      const data: Record<string, unknown> = {};
      if (flags.name !== undefined) data.name = flags.name;
      if (flags.emailVerified) data.emailVerified = true;
      if (flags.role !== undefined) data.role = flags.role;
      user =
        Object.keys(data).length > 0
          ? await updateUser(admin.deps, CLI_ACTOR, existing.id, data)
          : existing;
      if (password !== undefined) {
        await setUserPassword(admin.deps, CLI_ACTOR, existing.id, password);
      }
      note(
        `${existing.email} already exists (${existing.id}); ${didOrWould(globals, "updated", "would be updated")}.`,
      );
    } else if (existing) {
      throw new AuthError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", {
        details: {
          email: existing.email,
          id: existing.id,
          hint: "pass --if-exists skip (keep the user) or --if-exists update (change it) to re-run without failing",
        },
      });
    } else {
      user = await createUser(admin.deps, CLI_ACTOR, {
        email: flags.email,
        name: flags.name,
        password,
        role: flags.role,
        emailVerified: flags.emailVerified === true,
      });
    }
    printUser(user, globals);
  });
}

interface ListFlags {
  email?: string;
  role?: string;
  banned?: boolean;
  verified?: boolean;
  createdAfter?: Date;
  limit: number;
  offset?: number;
  cursor?: string;
  all?: boolean;
}

/** The page size of `--all` when --limit is not given. */
const ALL_PAGE_SIZE = 500;

async function listCommand(flags: ListFlags, command: Command): Promise<void> {
  const globals = command.optsWithGlobals<GlobalOptions>();
  if (flags.cursor !== undefined && flags.offset !== undefined) {
    throw new UsageError("give --cursor or --offset, not both");
  }
  const limit =
    flags.all && command.getOptionValueSource("limit") === "default" ? ALL_PAGE_SIZE : flags.limit;
  const format = outputFormat(globals);
  await withAdmin(globals, async (admin) => {
    const query = {
      emailGlob: flags.email,
      ...(flags.role !== undefined
        ? { filterField: "role" as const, filterOperator: "eq" as const, filterValue: flags.role }
        : {}),
      banned: flags.banned,
      limit,
    };
    const filters = { emailVerified: flags.verified, createdAfter: flags.createdAfter };
    if (!flags.all) {
      const page = await listUsersPage(
        admin.deps,
        CLI_ACTOR,
        { ...query, offset: flags.offset },
        { ...filters, cursor: flags.cursor },
      );
      emit(
        {
          items: page.users.map(userResponse),
          total: page.total,
          limit: page.limit,
          offset: page.offset,
          nextCursor: page.nextCursor,
        },
        globals,
        {
          human: () => {
            printUsers(page.users);
            note(
              `${page.users.length} of ${page.total} user(s).${page.nextCursor ? ` Next page: --cursor ${page.nextCursor}` : ""}`,
            );
          },
        },
      );
      return;
    }
    // --all: page after page by cursor; ids (-q) and jsonl stream as the pages come.
    const streaming = globals.quiet === true || format === "jsonl";
    const collected: UserRow[] = [];
    let total: number | undefined;
    let cursor = flags.cursor;
    let offset = flags.offset;
    for (;;) {
      const page = await listUsersPage(
        admin.deps,
        CLI_ACTOR,
        { ...query, offset },
        { ...filters, cursor },
      );
      total ??= page.total;
      if (streaming) emit({ items: page.users.map(userResponse) }, globals);
      else collected.push(...page.users);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
      offset = undefined;
    }
    if (streaming) return;
    emit({ items: collected.map(userResponse), total, nextCursor: null }, globals, {
      human: () => {
        printUsers(collected);
        note(`${collected.length} user(s).`);
      },
    });
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
      await withAdmin(globals, async (admin) => {
        const found = await resolveUser(admin.deps.sql, target);
        printUser(await getUser(admin.deps, CLI_ACTOR, found.id), globals);
      });
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
        const data = Object.fromEntries(
          Object.entries(flags).filter(([, value]) => value !== undefined),
        );
        if (Object.keys(data).length === 0) {
          throw new UsageError(
            "nothing to update: give --name, --email, --email-verified or --image",
          );
        }
        await withAdmin(globals, async (admin) => {
          const found = await resolveUser(admin.deps.sql, target);
          printUser(await updateUser(admin.deps, CLI_ACTOR, found.id, data), globals);
        });
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
      await withAdmin(globals, async (admin) => {
        const found = await resolveUser(admin.deps.sql, target);
        printUser(await setRole(admin.deps, CLI_ACTOR, found.id, role), globals);
      });
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
                `Password set for ${found.email} (${found.id}); ${flags.keepSessions ? "sessions kept" : `${sessionsRevoked} session(s) ended`}.\n`,
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
          // Bulk delete is severe; --yes alone is not enough.
          if (flags.confirm !== String(unique.length)) {
            throw new UsageError(
              `deleting ${unique.length} users is severe: pass --confirm=${unique.length}`,
            );
          }
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
