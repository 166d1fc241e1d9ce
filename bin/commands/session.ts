/**
 * `authd session …`: list and revoke any user's sessions, and mint one for browser
 * tests when `cli.allowSessionMint` is on. Same domain functions as `/admin/*`.
 */
import type { Command } from "commander";
import {
  listUserSessions,
  mintSession,
  resolveUser,
  revokeUserSession,
  revokeUserSessions,
} from "../../server/admin/admin.js";
import { ensureSecret } from "../../server/config.js";
import { AuthError } from "../../server/errors.js";
import { sessionCookieFor } from "../../server/http/session-cookies.js";
import type { SessionRow } from "../../server/sessions/queries.js";
import { sessionResponse, userResponse } from "../../server/sessions/sessions.js";
import { UsageError } from "../exit-codes.js";
import { formatTable, type GlobalOptions, note, printJson, wantsJson } from "../output.js";
import { CLI_ACTOR, parseDuration, withAdmin } from "./user.js";

function printSessions(sessions: SessionRow[]): void {
  process.stdout.write(
    `${formatTable(
      ["ID", "USER", "EXPIRES", "IP", "IMPERSONATED BY", "CREATED"],
      sessions.map((session) => [
        session.id,
        session.userId,
        session.expiresAt.toISOString(),
        session.ipAddress ?? "-",
        session.impersonatedBy ?? "-",
        session.createdAt.toISOString(),
      ]),
    )}\n`,
  );
}

export function registerSession(program: Command): void {
  const session = program.command("session").description("manage sessions (platform admin)");

  session
    .command("list")
    .description("a user's sessions, expired ones included")
    .requiredOption("--user <user>", "user id or email")
    .action(async (flags: { user: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withAdmin(globals, async (admin) => {
        const user = await resolveUser(admin.deps.sql, flags.user);
        const sessions = await listUserSessions(admin.deps, CLI_ACTOR, user.id);
        if (wantsJson(globals)) printJson({ items: sessions.map(sessionResponse) });
        else printSessions(sessions);
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
        if (wantsJson(globals)) printJson({ revoked });
        else for (const id of revoked) process.stdout.write(`Revoked ${id}.\n`);
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
        if (wantsJson(globals)) printJson({ userId: user.id, revoked: count });
        else process.stdout.write(`Revoked ${count} session(s) of ${user.email}.\n`);
      });
    });

  session
    .command("create")
    .description("mint a session for browser tests (needs cli.allowSessionMint: true)")
    .requiredOption("--user <user>", "user id or email")
    .option("--ttl <duration>", "lifetime, e.g. 30m or 1h", parseDuration, 3600)
    .action(async (flags: { user: string; ttl: number }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withAdmin(globals, async (admin) => {
        const { config } = admin.loaded;
        if (!config.cli.allowSessionMint) {
          throw new UsageError(
            "session create is disabled: set `cli: { allowSessionMint: true }` in the config file (test and CI setups only)",
          );
        }
        const secret = await ensureSecret(admin.loaded);
        const user = await resolveUser(admin.deps.sql, flags.user);
        const minted = await mintSession(admin.deps, CLI_ACTOR, user.id, flags.ttl);
        const { name: cookieName, value: cookieValue } = sessionCookieFor(
          config,
          secret,
          minted.token,
        );
        if (wantsJson(globals)) {
          printJson({
            token: minted.token,
            cookieName,
            cookieValue,
            session: sessionResponse(minted.session),
            user: userResponse(minted.user),
          });
        } else {
          note(
            `Cookie ${cookieName} for ${minted.user.email}, valid until ${minted.session.expiresAt.toISOString()}:`,
          );
          process.stdout.write(`${cookieValue}\n`);
        }
      });
    });
}
