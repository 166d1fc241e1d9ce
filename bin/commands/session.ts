/**
 * `authd session …`: list and revoke sessions (any user's, or platform-wide), and mint
 * one for browser tests when `cli.allowSessionMint` is on and the profile is not
 * production. Same domain functions as `/admin/*`.
 */
import type { Command } from "commander";
import { resolveUser } from "../../server/admin/admin.js";
import { mintSession, revokeUserSession, revokeUserSessions } from "../../server/admin/sessions.js";
import { ensureSecret } from "../../server/config.js";
import { AuthError } from "../../server/errors.js";
import { sessionCookieFor } from "../../server/http/session-cookies.js";
import { findOrganizationByIdOrSlug } from "../../server/organization/organization.js";
import {
  type ListedSession,
  listSessionsPage,
  sessionResponse,
  userResponse,
} from "../../server/sessions/sessions.js";
import { UsageError } from "../exit-codes.js";
import { didOrWould, emit, formatTable, type GlobalOptions, note } from "../output.js";
import { CLI_ACTOR, withAdmin } from "../with-admin.js";
import { parseDuration, wholeNumberUpTo } from "./user-flags.js";

const MAX_PAGE = 1000;

const parseLimit = wholeNumberUpTo(MAX_PAGE);

function printSessions(sessions: ListedSession[]): void {
  process.stdout.write(
    `${formatTable(
      ["ID", "USER", "USER ID", "EXPIRES", "ACTIVE ORG", "IP", "IMPERSONATED BY", "CREATED"],
      sessions.map((session) => [
        session.id,
        session.userEmail,
        session.userId,
        session.expiresAt.toISOString(),
        session.activeOrganizationId ?? "-",
        session.ipAddress ?? "-",
        session.impersonatedBy ?? "-",
        session.createdAt.toISOString(),
      ]),
    )}\n`,
  );
}

interface ListFlags {
  user?: string;
  active?: boolean;
  org?: string;
  limit: number;
  cursor?: string;
}

export function registerSession(program: Command): void {
  const session = program.command("session").description("manage sessions (platform admin)");

  session
    .command("list")
    .description("sessions, newest first: all, or a user's; expired ones unless --active")
    .option("--user <user>", "only this user's sessions (id or email)")
    .option("--active", "only sessions that have not expired")
    .option("--org <org>", "only sessions whose active organization is this one (id or slug)")
    .option("--limit <n>", `at most N sessions per page (1-${MAX_PAGE})`, parseLimit, 50)
    .option("--cursor <cursor>", "the nextCursor of the previous page")
    .action(async (flags: ListFlags, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withAdmin(globals, async (admin) => {
        const { sql } = admin.deps;
        const user = flags.user === undefined ? undefined : await resolveUser(sql, flags.user);
        const organization =
          flags.org === undefined ? undefined : await findOrganizationByIdOrSlug(sql, flags.org);
        const page = await listSessionsPage(sql, {
          userId: user?.id,
          activeOnly: flags.active === true,
          organizationId: organization?.id,
          limit: flags.limit,
          cursor: flags.cursor,
        });
        // sessionResponse's `token` is the opaque handle (the id), never the cookie secret.
        const items = page.sessions.map((listed) => ({
          ...sessionResponse(listed),
          userEmail: listed.userEmail,
        }));
        emit({ items, nextCursor: page.nextCursor }, globals, {
          human: () => {
            printSessions(page.sessions);
            note(
              `${page.sessions.length} session(s).${page.nextCursor ? ` Next page: --cursor ${page.nextCursor}` : ""}`,
            );
          },
        });
      });
    });

  session
    .command("revoke <sessions...>")
    .description("end sessions by id (as `session list` shows them) or token")
    .action(async (ids: string[], _flags: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withAdmin(globals, async (admin) => {
        const revoked: string[] = [];
        const missing: string[] = [];
        for (const id of ids) {
          const removed = await revokeUserSession(admin.deps, CLI_ACTOR, id);
          if (removed) revoked.push(removed.id);
          else missing.push(id);
        }
        if (missing.length > 0) {
          throw new AuthError("SESSION_NOT_FOUND", {
            message: `Session not found: ${missing.join(", ")}`,
            details: { revoked, missing },
          });
        }
        emit({ revoked }, globals, {
          human: () => {
            for (const id of revoked) {
              process.stdout.write(`${didOrWould(globals, "Revoked", "Would revoke")} ${id}.\n`);
            }
          },
        });
      });
    });

  session
    .command("revoke-all")
    .description("end every session of a user")
    .requiredOption("--user <user>", "user id or email")
    .action(async (flags: { user: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withAdmin(globals, async (admin) => {
        const user = await resolveUser(admin.deps.sql, flags.user);
        const count = await revokeUserSessions(admin.deps, CLI_ACTOR, user.id);
        emit({ userId: user.id, revoked: count }, globals, {
          quietField: "userId",
          human: () =>
            process.stdout.write(
              `${didOrWould(globals, "Revoked", "Would revoke")} ${count} session(s) of ${user.email}.\n`,
            ),
        });
      });
    });

  session
    .command("create")
    .description(
      "mint a session for browser tests (needs cli.allowSessionMint: true; refused in production)",
    )
    .requiredOption("--user <user>", "user id or email")
    .option("--ttl <duration>", "lifetime, e.g. 30m or 1h", parseDuration, 3600)
    .action(async (flags: { user: string; ttl: number }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withAdmin(globals, async (admin) => {
        const { config } = admin.loaded;
        // The production profile refuses session create,
        // whatever the config file says.
        if (admin.loaded.production) {
          throw new UsageError(
            "session create is refused in production (NODE_ENV=production or the production profile): minted sessions are for test and CI setups",
          );
        }
        if (!config.cli.allowSessionMint) {
          throw new UsageError(
            "session create is disabled: set `cli: { allowSessionMint: true }` in the config file (test and CI setups only)",
          );
        }
        const { secret } = await ensureSecret(admin.loaded);
        const user = await resolveUser(admin.deps.sql, flags.user);
        const minted = await mintSession(admin.deps, CLI_ACTOR, user.id, flags.ttl);
        const { name: cookieName, value: cookieValue } = sessionCookieFor(
          config,
          secret,
          minted.token,
        );
        // Printing the token is the purpose of this command; -q prints the cookie value only.
        emit(
          {
            token: minted.token,
            cookieName,
            cookieValue,
            session: sessionResponse(minted.session),
            user: userResponse(minted.user),
          },
          globals,
          {
            quietField: "cookieValue",
            human: () => {
              note(
                `Cookie ${cookieName} for ${minted.user.email}, valid until ${minted.session.expiresAt.toISOString()}:`,
              );
              process.stdout.write(`${cookieValue}\n`);
            },
          },
        );
      });
    });
}
