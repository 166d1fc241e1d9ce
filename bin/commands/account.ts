/**
 * `authd account list|unlink`: a user's linked accounts. The same
 * domain functions as `GET /list-accounts` and `POST /unlink-account`, acting as the
 * operator, with the same last-account rule (`--allow-last` overrides it).
 */
import type { Command } from "commander";
import { listAccounts, unlinkAccount } from "../../server/accounts/accounts.js";
import { resolveUser } from "../../server/admin/admin.js";
import { didOrWould, emit, formatTable, type GlobalOptions } from "../output.js";
import { withAdmin } from "../with-admin.js";

interface UnlinkFlags {
  user: string;
  provider: string;
  accountId?: string;
  allowLast?: boolean;
}

export function registerAccount(program: Command): void {
  const account = program.command("account").description("linked accounts (sign-in methods)");

  account
    .command("list")
    .description("a user's linked accounts")
    .requiredOption("--user <user>", "user id or email")
    .action(async (flags: { user: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withAdmin(globals, async (admin) => {
        const user = await resolveUser(admin.deps.sql, flags.user);
        const accounts = await listAccounts(admin.db.sql, user.id);
        emit({ items: accounts, nextCursor: null }, globals, {
          human: () =>
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
            ),
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
