/**
 * `authd account list|unlink`: a user's linked accounts, the password's and the social
 * providers' (never their tokens). The same domain functions as `GET /list-accounts`
 * and `POST /unlink-account`, acting as the operator, with the same last-account rule
 * (`--allow-last` overrides it).
 */
import type { Command } from "commander";
import { listAccounts, unlinkAccount } from "../../server/accounts/accounts.js";
import { resolveUser } from "../../server/admin/admin.js";
import { UsageError } from "../exit-codes.js";
import { didOrWould, emit, formatTable, type GlobalOptions, note } from "../output.js";
import { withAdmin } from "../with-admin.js";

/** csv and --fields columns: what the table shows, by field name. */
const LIST_COLUMNS = ["id", "providerId", "accountId", "scopes", "createdAt"];

/** The user named by the argument or by --user (the older spelling); not both, not neither. */
function userSelector(argument: string | undefined, flag: string | undefined): string {
  if (argument !== undefined && flag !== undefined && argument !== flag) {
    throw new UsageError("name the user once: as the argument or with --user, not both");
  }
  const selector = argument ?? flag;
  if (selector === undefined) throw new UsageError("missing required argument 'user'");
  return selector;
}

interface UnlinkFlags {
  user: string;
  provider: string;
  accountId?: string;
  allowLast?: boolean;
}

export function registerAccount(program: Command): void {
  const account = program.command("account").description("linked accounts (sign-in methods)");

  account
    .command("list [user]")
    .description("a user's linked accounts (user by id or email), oldest first")
    .option("--user <user>", "the user (id or email), instead of the argument")
    .addHelpText(
      "after",
      `
Examples:
  $ authd account list ci@example.test
  $ authd account list 4f3c... --json`,
    )
    .action(async (argument: string | undefined, flags: { user?: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const selector = userSelector(argument, flags.user);
      await withAdmin(globals, async (admin) => {
        const user = await resolveUser(admin.deps.sql, selector);
        const accounts = await listAccounts(admin.db.sql, user.id);
        emit({ items: accounts, nextCursor: null }, globals, {
          columns: LIST_COLUMNS,
          human: () => {
            process.stdout.write(
              `${formatTable(
                ["ID", "PROVIDER", "ACCOUNT ID", "SCOPES", "CREATED"],
                accounts.map((row) => [
                  row.id,
                  row.providerId,
                  row.accountId,
                  row.scopes.join(",") || "-",
                  row.createdAt.toISOString(),
                ]),
              )}\n`,
            );
            note(`${accounts.length} account(s) of ${user.email}.`);
          },
        });
      });
    });

  account
    .command("unlink")
    .description("remove a linked account; the last one stays unless --allow-last")
    .requiredOption("--user <user>", "user id or email")
    .requiredOption("--provider <id>", "provider id, e.g. github or credential")
    .option("--account-id <id>", "the provider's account id, when the user has several")
    .option("--allow-last", "allow removing the user's last account")
    .action(async (flags: UnlinkFlags, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withAdmin(globals, async (admin) => {
        const user = await resolveUser(admin.deps.sql, flags.user);
        const config = flags.allowLast
          ? {
              ...admin.loaded.config,
              account: {
                ...admin.loaded.config.account,
                accountLinking: {
                  ...admin.loaded.config.account.accountLinking,
                  allowUnlinkingAll: true,
                },
              },
            }
          : admin.loaded.config;
        // Audited inside the unlink's own transaction: a refused unlink records nothing.
        await unlinkAccount(
          admin.db.sql,
          config,
          user.id,
          { providerId: flags.provider, accountId: flags.accountId },
          { actorType: "cli", actorId: null },
        );
        emit({ status: true, userId: user.id, providerId: flags.provider }, globals, {
          quietField: "userId",
          human: () =>
            process.stdout.write(
              `${didOrWould(globals, "Unlinked", "Would unlink")} ${flags.provider} from ${user.email}.\n`,
            ),
        });
      });
    });
}
