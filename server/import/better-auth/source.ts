/**
 * Reading a Better Auth database: its core tables (user, account, session) and those of
 * its organization and admin plugins, under the names its migrations create, in
 * camelCase (`emailVerified`, its default) or snake_case (`email_verified`, what its
 * `fields` options and most ORM set-ups give), singular or plural table names. Every
 * value comes back under Better Auth's own field name, ids as text (serial ids too).
 *
 * Everything is read inside one read-only, repeatable-read transaction: one snapshot,
 * however long the import takes, and nothing authd runs there can write.
 */
import type postgres from "postgres";
import { openSourceDatabase, type Sql } from "../../db/connection.js";
import { transaction } from "../../db/transaction.js";
import { SourceSchemaError } from "./errors.js";

/** Better Auth's models that authd brings over, in the order they are written. */
export const SOURCE_MODELS = [
  "user",
  "account",
  "organization",
  "team",
  "member",
  "teamMember",
  "invitation",
  "session",
] as const;
export type SourceModel = (typeof SOURCE_MODELS)[number];

interface ModelShape {
  required: readonly string[];
  optional: readonly string[];
  /**
   * Rows that repeat a key authd holds unique: numbered per key (`rank`, 1 for the
   * oldest), so the import can tell the first from the repeats. Fields in `lower` are
   * compared lowercased.
   */
  unique?: { fields: readonly string[]; lower?: readonly string[] };
}

/** Each model's fields (Better Auth's names); the optional ones may be missing. */
const MODELS: Record<SourceModel, ModelShape> = {
  user: {
    required: ["id", "email"],
    optional: [
      "name",
      "emailVerified",
      "image",
      "createdAt",
      "updatedAt",
      "role",
      "banned",
      "banReason",
      "banExpires",
    ],
    unique: { fields: ["email"], lower: ["email"] },
  },
  account: {
    required: ["id", "userId", "providerId", "accountId"],
    optional: [
      "accessToken",
      "refreshToken",
      "idToken",
      "accessTokenExpiresAt",
      "refreshTokenExpiresAt",
      "scope",
      "password",
      "createdAt",
      "updatedAt",
    ],
    unique: { fields: ["providerId", "accountId"] },
  },
  session: {
    required: ["id", "userId", "token", "expiresAt"],
    optional: [
      "ipAddress",
      "userAgent",
      "createdAt",
      "updatedAt",
      "activeOrganizationId",
      "activeTeamId",
      "impersonatedBy",
    ],
  },
  organization: {
    required: ["id", "name", "slug"],
    optional: ["logo", "metadata", "createdAt"],
    unique: { fields: ["slug"] },
  },
  // Older versions kept one team per membership in member.teamId.
  member: {
    required: ["id", "organizationId", "userId"],
    optional: ["role", "createdAt", "teamId"],
  },
  team: {
    required: ["id", "name", "organizationId"],
    optional: ["createdAt", "updatedAt"],
    unique: { fields: ["organizationId", "name"] },
  },
  teamMember: { required: ["id", "teamId", "userId"], optional: ["createdAt"] },
  invitation: {
    required: ["id", "organizationId", "email", "inviterId", "expiresAt"],
    optional: ["role", "status", "teamId", "createdAt"],
  },
};

/** `emailVerified` -> `email_verified`. */
function snakeCase(name: string): string {
  return name.replace(/([A-Z])/g, "_$1").toLowerCase();
}

/** The table names a model may have: `teamMember`, `team_member`, `teamMembers`, … */
function tableCandidates(model: SourceModel): string[] {
  const snake = snakeCase(model);
  return [...new Set([model, snake, `${model}s`, `${snake}s`, model.toLowerCase()])];
}

/** The column names a field may have: as written, snake_case, or folded to lowercase. */
function columnCandidates(field: string): string[] {
  return [...new Set([field, snakeCase(field), field.toLowerCase()])];
}

/** Ids (and references to ids) are read as text, whatever their column type. */
function isIdField(field: string): boolean {
  return field === "id" || field.endsWith("Id") || field === "impersonatedBy";
}

export type ColumnNaming = "camelCase" | "snake_case" | "mixed";

interface FoundTable {
  table: string;
  /** Field -> the column that holds it (missing optional fields are absent). */
  columns: Map<string, string>;
}

/** Where the rows of each model are, as found in the source's catalog. */
export interface SourceLayout {
  schema: string;
  naming: ColumnNaming;
  tables: Partial<Record<SourceModel, FoundTable>>;
}

/** A page of rows of one model, each under Better Auth's field names (plus `rank`). */
export type SourceRow = Record<string, unknown> & { id: string };

/** Reads inside the snapshot. */
export interface SourceSnapshot {
  layout: SourceLayout;
  has(model: SourceModel): boolean;
  /** Rows of the model (0 when it has no table). */
  count(model: SourceModel): Promise<number>;
  /** Every row of the model in pages of `size`, in id order. */
  pages(model: SourceModel, size: number): AsyncIterable<SourceRow[]>;
}

export interface BetterAuthSource {
  /** host:port/database, for messages. */
  label: string;
  layout: SourceLayout;
  /** Runs `work` inside one read-only snapshot of the source. */
  snapshot<T>(work: (snapshot: SourceSnapshot) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Finds each model's table and columns; throws SourceSchemaError when a required one is missing. */
function layoutOf(
  schema: string,
  catalog: Array<{ tableName: string; columnName: string }>,
  label: string,
): SourceLayout {
  const columnsByTable = new Map<string, Set<string>>();
  for (const { tableName, columnName } of catalog) {
    const columns = columnsByTable.get(tableName) ?? new Set<string>();
    columns.add(columnName);
    columnsByTable.set(tableName, columns);
  }
  const tables: Partial<Record<SourceModel, FoundTable>> = {};
  let camel = 0;
  let snake = 0;
  for (const model of SOURCE_MODELS) {
    const table = tableCandidates(model).find((name) => columnsByTable.has(name));
    if (!table) continue;
    const present = columnsByTable.get(table) ?? new Set<string>();
    const shape = MODELS[model];
    const columns = new Map<string, string>();
    for (const field of [...shape.required, ...shape.optional]) {
      const column = columnCandidates(field).find((name) => present.has(name));
      if (!column) continue;
      columns.set(field, column);
      if (field !== snakeCase(field)) {
        if (column === field) camel += 1;
        else snake += 1;
      }
    }
    const missing = shape.required.filter((field) => !columns.has(field));
    if (missing.length > 0) {
      throw new SourceSchemaError(
        `table ${schema}.${table} of ${label} has no column for ${missing.join(", ")}: is it a Better Auth database?`,
      );
    }
    tables[model] = { table, columns };
  }
  if (!tables.user || !tables.account) {
    throw new SourceSchemaError(
      `${label} has no Better Auth user and account tables in schema ${schema} (looked for "user"/"users" and "account"/"accounts"): check --from and --schema`,
    );
  }
  const naming: ColumnNaming = snake === 0 ? "camelCase" : camel === 0 ? "snake_case" : "mixed";
  return { schema, naming, tables };
}

type Fragment = postgres.PendingQuery<postgres.Row[]>;

function joined(sql: postgres.Sql, parts: Fragment[]): Fragment {
  return parts.reduce((list, part) => sql`${list}, ${part}`);
}

function selectList(sql: postgres.Sql, model: SourceModel, found: FoundTable): Fragment {
  const shape = MODELS[model];
  const parts: Fragment[] = [...shape.required, ...shape.optional].map((field) => {
    const column = found.columns.get(field);
    if (!column) return sql`null as ${sql(field)}`;
    return isIdField(field)
      ? sql`${sql(column)}::text as ${sql(field)}`
      : sql`${sql(column)} as ${sql(field)}`;
  });
  if (shape.unique) {
    const lower = new Set(shape.unique.lower ?? []);
    const keys = shape.unique.fields.map((field) => {
      const column = sql(found.columns.get(field) as string);
      return lower.has(field) ? sql`lower(${column})` : sql`${column}`;
    });
    const created = found.columns.get("createdAt");
    const id = sql(found.columns.get("id") as string);
    // The oldest row of a key is its first; the id breaks ties (and stands in for the date).
    const order = created ? sql`${sql(created)} nulls last, ${id}` : sql`${id}`;
    parts.push(
      sql`(row_number() over (partition by ${joined(sql, keys)} order by ${order}))::int as "rank"`,
    );
  }
  return joined(sql, parts);
}

function snapshotOf(sql: postgres.Sql, layout: SourceLayout): SourceSnapshot {
  const from = (found: FoundTable) => sql`${sql(layout.schema)}.${sql(found.table)}`;
  return {
    layout,
    has: (model) => layout.tables[model] !== undefined,
    async count(model) {
      const found = layout.tables[model];
      if (!found) return 0;
      const [row] = await sql<Array<{ count: number }>>`
        select count(*)::int as count from ${from(found)}`;
      return row?.count ?? 0;
    },
    async *pages(model, size) {
      const found = layout.tables[model];
      if (!found) return;
      const id = sql(found.columns.get("id") as string);
      const query = sql<SourceRow[]>`
        select ${selectList(sql, model, found)} from ${from(found)} order by ${id}`;
      yield* query.cursor(size);
    },
  };
}

/** Opens the Better Auth database at `url` and finds its tables in `schema`. */
export async function openBetterAuthSource(
  url: string,
  schema: string,
  connectTimeout: number,
): Promise<BetterAuthSource> {
  const database = await openSourceDatabase(url, connectTimeout);
  try {
    const catalog = await database.sql<Array<{ tableName: string; columnName: string }>>`
      select table_name as "tableName", column_name as "columnName"
      from information_schema.columns where table_schema = ${schema}`;
    const layout = layoutOf(schema, [...catalog], database.label);
    return {
      label: database.label,
      layout,
      async snapshot(work) {
        // Through the transaction helper, not postgres.js's begin: a source server that
        // drops the connection fails the import instead of ending the process.
        return await transaction(
          database.sql as unknown as Sql,
          (tx) => work(snapshotOf(tx as unknown as postgres.Sql, layout)),
          { isolation: "repeatable read", readOnly: true, retries: 0 },
        );
      },
      close: () => database.close(),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
