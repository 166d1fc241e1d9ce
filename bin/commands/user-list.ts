/**
 * `authd user list`: one page (by offset or cursor) or, with --all, every page; ids and
 * JSON lines stream as the pages come.
 */
import type { Command } from "commander";
import { listUsersPage } from "../../server/admin/list-users.js";
import { userResponse } from "../../server/sessions/sessions.js";
import type { UserRow } from "../../server/users/queries.js";
import { UsageError } from "../exit-codes.js";
import { emit, type GlobalOptions, note, outputFormat } from "../output.js";
import { CLI_ACTOR, withAdmin } from "../with-admin.js";
import { printUsers } from "./user-display.js";

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

export async function listCommand(flags: ListFlags, command: Command): Promise<void> {
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
