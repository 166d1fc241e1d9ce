/**
 * `authd user create`: a new user, or with --if-exists an existing one skipped or
 * updated, so that provisioning scripts can run again.
 */
import type { Command } from "commander";
import { createUser, setUserPassword, updateUser } from "../../server/admin/users.js";
import { AuthError } from "../../server/errors.js";
import { findUserByEmail, type UserRow } from "../../server/users/queries.js";
import { normalizeEmail } from "../../server/users/users.js";
import { didOrWould, type GlobalOptions, note } from "../output.js";
import { CLI_ACTOR, withAdmin } from "../with-admin.js";
import { printUser } from "./user-display.js";
import { type PasswordFlags, readPassword } from "./user-flags.js";

export interface CreateFlags extends PasswordFlags {
  email: string;
  name?: string;
  emailVerified?: boolean;
  role?: string;
  ifExists: "skip" | "update" | "fail";
}

export async function createCommand(flags: CreateFlags, command: Command): Promise<void> {
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
