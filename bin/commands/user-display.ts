/** How `authd user` shows users: the API's shape, or a table for people. */

import { userResponse } from "../../server/sessions/sessions.js";
import type { UserRow } from "../../server/users/queries.js";
import { emit, formatTable, type GlobalOptions } from "../output.js";

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
export function printUser(user: UserRow, globals: GlobalOptions): void {
  emit(userResponse(user), globals);
}

/** Several users (`{items}`); human: the users table. */
export function printUserList(users: UserRow[], globals: GlobalOptions): void {
  emit({ items: users.map(userResponse) }, globals, { human: () => printUsers(users) });
}
