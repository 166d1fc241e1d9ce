/**
 * Hostile input, generated. Every operation of the OpenAPI document the app serves at
 * {basePath}/openapi.json gets requests fast-check builds from the operation's schemas:
 * bodies (any JSON, the schema's fields with wrong types, huge, odd or NUL-holding
 * strings, deep nesting, prototype keys, text that is not JSON, forms, odd content types,
 * oversized), query strings, path parameters, headers (Origin, Content-Type,
 * Authorization, forwarding headers, long values) and cookies (random, tampered and
 * duplicated session cookies, a forged cookie cache). Each is sent anonymously, as a
 * signed-in user with no organization, as an owner and a member of an organization, and
 * as a platform admin.
 *
 * For every answer: never a 5xx; an error is JSON `{code, message}` with a code of the
 * error catalogue; no answer takes longer than ANSWER_BOUND_MS (a hang, not a benchmark);
 * and a refused request (a 4xx, or a redirect carrying an `error`) changes no row of any
 * table, compared by a digest of every table's rows taken before and after it.
 *
 * Runs are seeded: a failure names the seed; HOSTILE_SEED=<n> replays it, HOSTILE_RUNS=<n>
 * sets the runs per operation. Expected time: about 20 s (60 runs of each of 81 operations).
 */
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { insertCredentialAccount } from "../../server/accounts/queries.js";
import { signValue } from "../../server/crypto/digest.js";
import { hashPassword } from "../../server/crypto/password.js";
import type { Queryable } from "../../server/db/connection.js";
import { isErrorCode } from "../../server/errors.js";
import { insertInvitation } from "../../server/invitations/queries.js";
import { insertMember } from "../../server/organization/member-queries.js";
import { insertOrganization } from "../../server/organization/queries.js";
import { createSession } from "../../server/sessions/sessions.js";
import { insertTeam, insertTeamMember } from "../../server/teams/queries.js";
import { insertUser, updateUserAsAdmin } from "../../server/users/queries.js";
import { createTestApp, errorLogger, TEST_SECRET } from "../helpers/app.js";

/** Far above any honest answer here (one password hash is ~50 ms), far below a hang. */
const ANSWER_BOUND_MS = 2_000;
const BASE_SEED = Number(process.env.HOSTILE_SEED ?? 7_340_117);
const RUNS = Number(process.env.HOSTILE_RUNS ?? 60);
const BODY_LIMIT = 65_536;
const ORIGIN = "http://localhost:3000";
const TRUSTED = "http://app.test";
const PASSWORD = "correct horse battery";

// ---------------------------------------------------------------------------------------
// The app, its document and its fixtures

/** Error lines the app logs, so a 5xx shows its cause in the failure. */
const { logger, lines: errorLog } = errorLogger();
const t = await createTestApp({
  logger,
  config: {
    trustedOrigins: [TRUSTED],
    server: { bodyLimit: BODY_LIMIT },
    organization: { enabled: true, teams: { enabled: true } },
    admin: { enabled: true },
    jwt: { enabled: true },
    bearer: { enabled: true },
    session: { cookieCache: { enabled: true } },
    // A provider whose endpoints lead nowhere: no generated request gets past its state.
    socialProviders: {
      github: {
        clientId: "hostile-client",
        clientSecret: "hostile-secret",
        authorizationEndpoint: "http://127.0.0.1:9/authorize",
        tokenEndpoint: "http://127.0.0.1:9/token",
        userInfoEndpoint: "http://127.0.0.1:9/user",
      },
    },
  },
});
afterAll(async () => {
  await t.close();
});
const sql = t.db.sql;

type Identity = "anonymous" | "outsider" | "owner" | "member" | "admin";
const PEOPLE = {
  outsider: {
    id: "hostile-outsider-0000000000000000",
    email: "outsider@hostile.test",
    role: "user",
  },
  owner: { id: "hostile-owner-000000000000000000", email: "owner@hostile.test", role: "user" },
  member: { id: "hostile-member-00000000000000000", email: "member@hostile.test", role: "user" },
  admin: { id: "hostile-admin-000000000000000000", email: "admin@hostile.test", role: "admin" },
} as const;
const ORGANIZATION = { id: "hostile-org-000000000000000000000", slug: "hostile-org" };
const MEMBERSHIPS = [
  { id: "hostile-owner-membership-00000000", userId: PEOPLE.owner.id, role: "owner" },
  { id: "hostile-member-membership-0000000", userId: PEOPLE.member.id, role: "member" },
] as const;
const TEAM = { id: "hostile-team-00000000000000000000", name: "Hostile team" };
const INVITATION = { id: "hostile-invitation-00000000000000", email: "invitee@hostile.test" };

/** Values that name real records, so generated requests also reach the rules behind them. */
const KNOWN_STRINGS = [
  ...Object.values(PEOPLE).flatMap((person) => [person.id, person.email]),
  ORGANIZATION.id,
  ORGANIZATION.slug,
  ...MEMBERSHIPS.map((membership) => membership.id),
  TEAM.id,
  INVITATION.id,
  INVITATION.email,
  "owner",
  "member",
  "admin",
  "github",
  PASSWORD,
  ORIGIN,
  `${ORIGIN}/after`,
  "/after",
  "http://evil.test/after",
  "//evil.test",
  "javascript:alert(1)",
];

/** Each signed-in identity's current session: refused requests never end one. */
const sessions = new Map<Identity, { id: string; token: string; signed: string }>();
const passwordHash = await hashPassword(PASSWORD);

async function exists(query: PromiseLike<ArrayLike<unknown>>): Promise<boolean> {
  return (await query).length > 0;
}

/**
 * Puts back whatever an accepted request took away (a signed-out session, a deleted
 * organization, a removed member), under the same ids, so later requests still reach
 * real records. Runs after accepted requests only: refused ones change nothing.
 */
async function ensureFixtures(db: Queryable): Promise<void> {
  const people = Object.entries(PEOPLE) as Array<[Identity, (typeof PEOPLE)[keyof typeof PEOPLE]]>;
  for (const [key, person] of people) {
    const [user] = await db<Array<{ banned: boolean | null; role: string | null }>>`
      select banned, role from "user" where id = ${person.id}`;
    if (!user) {
      await insertUser(db, { id: person.id, email: person.email, name: key, role: person.role });
      await insertCredentialAccount(db, {
        id: `${person.id}-account`,
        userId: person.id,
        passwordHash,
      });
    } else if (user.banned || user.role !== person.role) {
      await updateUserAsAdmin(db, person.id, { role: person.role, banned: false });
    }
  }
  if (!(await exists(db`select 1 from organization where id = ${ORGANIZATION.id}`))) {
    await db`delete from organization where slug = ${ORGANIZATION.slug}`;
    await insertOrganization(db, {
      id: ORGANIZATION.id,
      name: "Hostile",
      slug: ORGANIZATION.slug,
      logo: null,
      metadata: null,
    });
  }
  for (const membership of MEMBERSHIPS) {
    const present = db`select 1 from member
      where organization_id = ${ORGANIZATION.id} and user_id = ${membership.userId}`;
    if (!(await exists(present))) {
      await db`delete from member where id = ${membership.id}`;
      await insertMember(db, { ...membership, organizationId: ORGANIZATION.id });
    }
  }
  if (!(await exists(db`select 1 from team where id = ${TEAM.id}`))) {
    await insertTeam(db, { ...TEAM, organizationId: ORGANIZATION.id });
  }
  for (const membership of MEMBERSHIPS) {
    await insertTeamMember(db, {
      id: `${membership.id}-team`,
      teamId: TEAM.id,
      userId: membership.userId,
    });
  }
  if (!(await exists(db`select 1 from invitation where id = ${INVITATION.id}`))) {
    await insertInvitation(db, {
      id: INVITATION.id,
      organizationId: ORGANIZATION.id,
      email: INVITATION.email,
      role: "member",
      teamId: null,
      inviterId: PEOPLE.owner.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
  }
  // A session per signed-in identity, the organization's people with it active.
  for (const [key, person] of people) {
    const current = sessions.get(key);
    const alive =
      current &&
      (await exists(db`select 1 from session where id = ${current.id} and expires_at > now()
        and (${key !== "owner" && key !== "member"} or active_organization_id is not null)`));
    if (alive) continue;
    const created = await createSession(db, t.config, {
      userId: person.id,
      client: { ipAddress: null, userAgent: "hostile-input test" },
      activeOrganizationId: key === "owner" || key === "member" ? ORGANIZATION.id : null,
    });
    sessions.set(key, {
      id: created.session.id,
      token: created.token,
      signed: signValue(created.token, TEST_SECRET),
    });
  }
}
await ensureFixtures(sql);

/**
 * A digest of every table's rows, by table: one statement, the per-table queries built
 * by PostgreSQL itself (query_to_xml) from the catalogue.
 */
async function tableDigests(): Promise<Map<string, string>> {
  const rows = await sql<Array<{ name: string; digest: string }>>`
    select table_name::text as name,
      (xpath('/row/digest/text()', query_to_xml(format(
        'select md5(coalesce(string_agg(t::text, %L order by t::text), %L)) as digest from %I.%I t',
        chr(10), '', table_schema, table_name), false, true, '')))[1]::text as digest
    from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
    order by 1`;
  return new Map(rows.map((row) => [row.name, row.digest]));
}

function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name));
}

// ---------------------------------------------------------------------------------------
// The operations, read from the OpenAPI document

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
}

interface Parameter {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required?: boolean;
  schema: JsonSchema;
}

interface Operation {
  label: string;
  method: string;
  path: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
  /** Where a form body is accepted besides JSON (a plain HTML form posts there). */
  form: boolean;
}

const FORM_PATHS = new Set([
  "/api/auth/sign-in/email",
  "/api/auth/sign-up/email",
  "/api/auth/callback/{id}",
]);

const documentResponse = await t.app.inject({ method: "GET", url: "/api/auth/openapi.json" });
const openApi = documentResponse.json() as {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
};
const operations: Operation[] = Object.entries(openApi.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({
    label: `${method.toUpperCase()} ${path}`,
    method: method.toUpperCase(),
    path,
    parameters: operation.parameters ?? [],
    body: operation.requestBody?.content["application/json"]?.schema,
    form: FORM_PATHS.has(path) && method === "post",
  })),
);

// ---------------------------------------------------------------------------------------
// Generators

/** Characters a header value may carry on the wire (Node refuses the others). */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((code) => code !== 0x7f)
      .map((code) => String.fromCharCode(code)),
    maxLength,
  });

const ODD_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "null",
  "true",
  "-1",
  "0",
  "1e309",
  "NaN",
  "__proto__",
  "constructor",
  "prototype",
  "hasOwnProperty",
  "../../../etc/passwd",
  "%00",
  "%",
  "<script>alert(1)</script>",
  "' or '1'='1' --",
  "\u202e\u2066evil",
  "\ufeff",
  "\ud800",
  "\udfff",
  "a\r\nb",
  "😀".repeat(300),
  "a".repeat(256),
  "b".repeat(4097),
  "Owner@Hostile.Test",
  " owner@hostile.test ",
];

const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...KNOWN_STRINGS) },
  {
    // Huge strings, some past the body limit.
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom("a", "é", "😀", "\u0000", "\\"),
        fc.integer({ min: 1_000, max: 20_000 }),
      )
      .map(([unit, count]) => unit.repeat(count)),
  },
);

const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: oddString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom(-0, 2 ** 53 + 2, 1e308, -1, 0, 1) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), {
      maxKeys: 4,
    }),
  },
  {
    // Huge arrays.
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1_000, max: 12_000 }), fc.constantFrom<unknown>(0, "a", null, {}))
      .map(([count, item]) => new Array(count).fill(item)),
  },
);

function typesOf(schema: JsonSchema): string[] {
  if (schema.type === undefined) return ["any"];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** Values the schema accepts (mostly), with real ids mixed in. */
function conforming(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return fc.oneof(...variants.map((variant) => conforming(variant, depth)));
  return fc.oneof(...typesOf(schema).map((type) => conformingOfType(type, schema, depth)));
}

function conformingOfType(type: string, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "string": {
      const maxLength = schema.maxLength ?? 60;
      const text = schema.pattern
        ? fc.stringMatching(new RegExp(schema.pattern)).filter((value) => value.length <= maxLength)
        : fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(maxLength, 40) });
      return fc.oneof(
        { weight: 2, arbitrary: text },
        { weight: 2, arbitrary: fc.constantFrom(...KNOWN_STRINGS) },
        { weight: 1, arbitrary: fc.emailAddress() },
      );
    }
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000 });
    case "number":
      return fc.double({
        min: schema.minimum ?? -1_000,
        max: schema.maximum ?? 1_000_000,
        noNaN: true,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(
        schema.items ? shaped(schema.items, depth + 1) : fc.jsonValue({ maxDepth: 1 }),
        {
          maxLength: Math.min(schema.maxItems ?? 4, 4),
        },
      );
    case "object": {
      const properties = schema.properties ?? {};
      if (Object.keys(properties).length === 0 || depth > 3) {
        return fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), {
          maxKeys: 4,
        });
      }
      return fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([key, child]) => [key, conforming(child, depth + 1)]),
        ),
        { requiredKeys: (schema.required ?? []).filter((key) => key in properties) },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The schema's fields, each either a value it accepts or an odd one. */
function shaped(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  if (!typesOf(schema).includes("object") || Object.keys(properties).length === 0 || depth > 3) {
    return fc.oneof(
      { weight: 2, arbitrary: conforming(schema, depth) },
      { weight: 1, arbitrary: oddValue },
    );
  }
  const fields = fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([key, child]) => [
        key,
        fc.oneof(
          { weight: 2, arbitrary: shaped(child, depth + 1) },
          { weight: 1, arbitrary: oddValue },
        ),
      ]),
    ),
    { requiredKeys: [] },
  );
  const extra = fc.option(fc.dictionary(fc.string({ maxLength: 12 }), oddValue, { maxKeys: 2 }), {
    nil: undefined,
  });
  return fc.tuple(fields, extra).map(([known, more]) => ({ ...more, ...known }));
}

interface Body {
  contentType: string | undefined;
  payload: string;
}

const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "Application/JSON",
  'application/json;charset="utf-8"',
  "application/json; charset=iso-8859-1",
  "application/json ; foo=bar",
];
const ODD_TYPES = [
  undefined,
  "",
  ";",
  "text/plain",
  "text/html",
  "application/xml",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "application/vnd.api+json",
  "application/jsonp",
  "*/*",
  "application/x-www-form-urlencoded",
  "application/json, text/plain",
];
const NOT_JSON = [
  "{",
  "[",
  '{"a":',
  '"unterminated',
  "NaN",
  "Infinity",
  "undefined",
  "{'a':1}",
  '{"a":1,}',
  '{"a":1}garbage',
  "}",
  "nul",
  "tru",
  "--",
  "\u0000",
  "\ufeff{}",
  "{}{}",
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
];

function propertyNames(schema: JsonSchema | undefined): string[] {
  const names = Object.keys(schema?.properties ?? {});
  return names.length > 0 ? names : ["a"];
}

/** The paths to the schema's fields, nested ones too (`data.metadata`), with their schemas. */
function fieldPaths(
  schema: JsonSchema | undefined,
  depth = 0,
): Array<{ path: string[]; schema: JsonSchema }> {
  const paths: Array<{ path: string[]; schema: JsonSchema }> = [];
  for (const [key, child] of Object.entries(schema?.properties ?? {})) {
    paths.push({ path: [key], schema: child });
    if (depth < 2) {
      for (const inner of fieldPaths(child, depth + 1)) {
        paths.push({ path: [key, ...inner.path], schema: inner.schema });
      }
    }
  }
  return paths;
}

/** A field that takes any JSON object (organization metadata): where nesting goes deepest. */
function isOpenObject(schema: JsonSchema): boolean {
  return typesOf(schema).includes("object") && Object.keys(schema.properties ?? {}).length === 0;
}

/** JSON text nested `depth` deep, built as text (no recursion on either side of the test). */
function deepText(kind: "array" | "object", depth: number): string {
  return kind === "array"
    ? "[".repeat(depth) + "]".repeat(depth)
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** Where deep nesting goes: the top, any field, and most often a field open to any JSON. */
function deepTarget(
  schema: JsonSchema | undefined,
): fc.Arbitrary<{ path: string[]; schema: JsonSchema } | undefined> {
  const paths = fieldPaths(schema);
  const open = paths.filter((entry) => isOpenObject(entry.schema));
  const anywhere = fc.option(fc.constantFrom(...paths, { path: ["a"], schema: {} }), {
    nil: undefined,
  });
  return open.length === 0
    ? anywhere
    : fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...open) },
        { weight: 1, arbitrary: anywhere },
      );
}

function bodyArbitrary(operation: Operation): fc.Arbitrary<Body | undefined> {
  const schema = operation.body ?? { type: "object", properties: {} };
  const names = propertyNames(operation.body);
  const jsonType = fc.oneof(
    { weight: 5, arbitrary: fc.constant(JSON_TYPES[0]) },
    { weight: 1, arbitrary: fc.constantFrom(...JSON_TYPES) },
  );
  const asJson = (payload: fc.Arbitrary<string>) =>
    fc.record({ contentType: jsonType, payload }) as fc.Arbitrary<Body>;
  const name = fc.constantFrom(...names);
  const variants: Array<fc.WeightedArbitrary<Body | undefined>> = [
    {
      weight: 4,
      arbitrary: asJson(conforming(schema).map((value) => JSON.stringify(value) ?? "null")),
    },
    {
      weight: 5,
      arbitrary: asJson(shaped(schema).map((value) => JSON.stringify(value) ?? "null")),
    },
    { weight: 1, arbitrary: asJson(fc.jsonValue().map((value) => JSON.stringify(value))) },
    {
      weight: 1,
      arbitrary: asJson(
        fc.oneof(
          fc.constantFrom(...NOT_JSON),
          fc.string({ maxLength: 30 }),
          conforming(schema).map((value) => (JSON.stringify(value) ?? "null").slice(0, -1)),
        ),
      ),
    },
    {
      // Deep nesting, at the top or under a field (in an object or not), within the body limit.
      weight: 3,
      arbitrary: asJson(
        fc
          .tuple(
            fc.constantFrom<"array" | "object">("array", "object"),
            fc.oneof(fc.integer({ min: 2, max: 200 }), fc.integer({ min: 200, max: 12_000 })),
            deepTarget(operation.body),
          )
          .map(([kind, depth, target]) =>
            (target?.path ?? []).reduceRight(
              (inner, key) => `{${JSON.stringify(key)}:${inner}}`,
              target && isOpenObject(target.schema)
                ? `{"a":${deepText(kind, depth)}}`
                : deepText(kind, depth),
            ),
          ),
      ),
    },
    {
      // Prototype keys, duplicate keys, escapes JSON.stringify would not write.
      weight: 1,
      arbitrary: asJson(
        fc
          .tuple(
            name,
            fc.constantFrom(
              '{"__proto__":{"role":"admin","isAdmin":true}}',
              '{"constructor":{"prototype":{"role":"admin"}}}',
              '"\\ud800"',
              '"\\u0000"',
              '"a\\u0000b"',
              '{"__proto__":null}',
              '["__proto__"]',
            ),
            fc.boolean(),
          )
          .map(([field, value, duplicate]) =>
            duplicate
              ? `{${JSON.stringify(field)}:"first",${JSON.stringify(field)}:${value}}`
              : `{${JSON.stringify(field)}:${value},"__proto__":{"polluted":1}}`,
          ),
      ),
    },
    {
      // Forms: taken where a plain HTML form may post, 415 everywhere else.
      weight: operation.form ? 4 : 1,
      arbitrary: fc.record({
        contentType: fc.constantFrom(
          "application/x-www-form-urlencoded",
          "application/x-www-form-urlencoded; charset=utf-8",
        ),
        payload: fc
          .array(fc.tuple(fc.oneof(name, fc.constantFrom("__proto__", "a[b]", "")), oddString), {
            maxLength: 5,
          })
          .map((pairs) => pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join("&")),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        contentType: fc.constantFrom(...ODD_TYPES),
        payload: fc.oneof(
          fc.string({ maxLength: 40 }),
          conforming(schema).map((value) => JSON.stringify(value) ?? ""),
        ),
      }),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: asJson(
        name.map((field) => `{${JSON.stringify(field)}:"${"x".repeat(BODY_LIMIT)}"}`),
      ),
    },
  ];
  return fc.oneof(...variants);
}

/** Percent-encodes the UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD). */
function encode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** A generated value as a URL carries it: objects as JSON (some have no prototype). */
function asText(value: unknown): string {
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/** URL pieces no encoder writes: stray or broken percent escapes, dot segments. */
const RAW_URL_PIECES = [
  "%",
  "%zz",
  "%c0%af",
  "%00",
  "%ff",
  "%E2%82",
  "%2F",
  "..",
  ".",
  "%2e%2e",
  "a%20b",
  "[]",
  "{}",
  "%u0041",
];

const urlValue = (schema: JsonSchema) =>
  fc.oneof(
    { weight: 3, arbitrary: conforming(schema).map((value) => encode(asText(value))) },
    { weight: 2, arbitrary: oddString.map(encode) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_PIECES) },
  );

function queryArbitrary(operation: Operation): fc.Arbitrary<string> {
  const parameters = operation.parameters.filter((parameter) => parameter.in === "query");
  const name = fc.oneof(
    ...(parameters.length > 0
      ? [fc.constantFrom(...parameters.map((parameter) => parameter.name))]
      : []),
    fc.constantFrom("__proto__", "constructor[prototype][polluted]", "a[]", "a[b]", ""),
  );
  const pairs = fc.array(
    fc.tuple(name, urlValue({ type: "string" })).map(([key, value]) => `${encode(key)}=${value}`),
    { maxLength: 5 },
  );
  const valid = fc.record(
    Object.fromEntries(parameters.map((parameter) => [parameter.name, urlValue(parameter.schema)])),
    { requiredKeys: [] },
  );
  return fc
    .tuple(valid, pairs)
    .map(([named, extra]) =>
      [...Object.entries(named).map(([key, value]) => `${key}=${value}`), ...extra].join("&"),
    );
}

type CredentialKind =
  | "as-is"
  | "tampered-signature"
  | "tampered-token"
  | "unsigned-token"
  | "random-cookie"
  | "duplicate-cookie"
  | "garbage-cookie-header"
  | "forged-cache"
  | "bearer-token"
  | "bearer-signed"
  | "bearer-tampered"
  | "garbage-authorization";

interface Credentials {
  kind: CredentialKind;
  position: number;
  replacement: string;
  text: string;
}

const credentialsArbitrary: fc.Arbitrary<Credentials> = fc.record({
  kind: fc.oneof(
    { weight: 8, arbitrary: fc.constant<CredentialKind>("as-is") },
    {
      weight: 6,
      arbitrary: fc.constantFrom<CredentialKind>(
        "tampered-signature",
        "tampered-token",
        "unsigned-token",
        "random-cookie",
        "duplicate-cookie",
        "garbage-cookie-header",
        "forged-cache",
        "bearer-token",
        "bearer-signed",
        "bearer-tampered",
        "garbage-authorization",
      ),
    },
  ),
  position: fc.nat(100),
  replacement: fc.constantFrom("A", "0", ".", "%", "-", "_", "=", "+", "/", ";", " "),
  text: fc.oneof(
    headerText(80),
    fc.constantFrom(
      "Bearer",
      "Bearer ",
      "Basic Zm9vOmJhcg==",
      "Bearer a.b.c",
      "bearer x",
      "%",
      "=",
    ),
    fc.integer({ min: 1_000, max: 12_000 }).map((count) => `Bearer ${"a".repeat(count)}`),
  ),
});

function tamper(value: string, position: number, replacement: string): string {
  const index = position % Math.max(1, value.length);
  const swapped = value[index] === replacement ? (replacement === "A" ? "B" : "A") : replacement;
  return value.slice(0, index) + swapped + value.slice(index + 1);
}

/** The Cookie and Authorization headers of `identity` as `credentials` dress them. */
function credentialHeaders(identity: Identity, credentials: Credentials): Record<string, string> {
  const session = identity === "anonymous" ? undefined : sessions.get(identity);
  const cookie = (value: string) => `authd.session_token=${encodeURIComponent(value)}`;
  const { position, replacement, text } = credentials;
  const dot = session ? session.signed.lastIndexOf(".") : -1;
  switch (credentials.kind) {
    case "as-is":
      return session ? { cookie: cookie(session.signed) } : {};
    case "tampered-signature":
      return session
        ? {
            cookie: cookie(
              session.signed.slice(0, dot + 1) +
                tamper(session.signed.slice(dot + 1), position, replacement),
            ),
          }
        : { cookie: cookie(`${text}.${text}`) };
    case "tampered-token":
      return session
        ? {
            cookie: cookie(
              tamper(session.signed.slice(0, dot), position, replacement) +
                session.signed.slice(dot),
            ),
          }
        : { cookie: cookie(text) };
    case "unsigned-token":
      return session ? { cookie: cookie(session.token) } : { cookie: cookie(text) };
    case "random-cookie":
      return { cookie: `authd.session_token=${text}` };
    case "duplicate-cookie":
      return {
        cookie: session
          ? `authd.session_token=${encode(text)}; ${cookie(session.signed)}; authd.session_token=x`
          : `authd.session_token=a; authd.session_token=${encode(text)}`,
      };
    case "garbage-cookie-header":
      return { cookie: text };
    case "forged-cache":
      return {
        cookie: [
          ...(session ? [cookie(session.signed)] : []),
          `authd.session_data=${encodeURIComponent(
            tamper(
              Buffer.from(
                JSON.stringify({
                  session: { id: session?.id ?? text, userId: PEOPLE.owner.id },
                  user: { role: "admin" },
                }),
              ).toString("base64url"),
              position,
              replacement,
            ),
          )}.${encode(text)}`,
        ].join("; "),
      };
    case "bearer-token":
      return { authorization: `Bearer ${session?.token ?? text}` };
    case "bearer-signed":
      return { authorization: `Bearer ${session?.signed ?? text}` };
    case "bearer-tampered":
      return {
        authorization: `Bearer ${tamper(session?.signed ?? text, position, replacement)}`,
      };
    case "garbage-authorization":
      return { authorization: text };
  }
}

const ORIGINS = [
  "null",
  "http://evil.test",
  TRUSTED,
  "http://localhost:3000.evil.test",
  "http://localhost:3000/path",
  "HTTP://LOCALHOST:3000",
  "file://",
  "",
  "http://localhost:3000, http://evil.test",
];
const originArbitrary = fc.oneof(
  { weight: 6, arbitrary: fc.constant<string | undefined>(ORIGIN) },
  { weight: 2, arbitrary: fc.constant<string | undefined>(undefined) },
  { weight: 2, arbitrary: fc.constantFrom<string | undefined>(...ORIGINS) },
  { weight: 1, arbitrary: headerText(100) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 2_000, max: 12_000 })
      .map((count) => `http://${"a".repeat(count)}.test`),
  },
);

const EXTRA_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
  "forwarded",
  "host",
  "x-request-id",
  "accept",
  "accept-language",
  "user-agent",
  "referer",
  "content-encoding",
  "x-http-method-override",
  "sec-fetch-site",
  "if-none-match",
  "range",
];
const extraHeadersArbitrary = fc.dictionary(
  fc.constantFrom(...EXTRA_HEADERS),
  fc.oneof(
    headerText(60),
    fc.constantFrom("gzip", "br", "999.999.999.999", "::1, 10.0.0.1", "https", "*", "bytes=0-1"),
    fc.integer({ min: 1_000, max: 12_000 }).map((count) => "h".repeat(count)),
  ),
  { maxKeys: 3 },
);

interface HostileRequest {
  identity: Identity;
  credentials: Credentials;
  origin: string | undefined;
  body: Body | undefined;
  query: string;
  pathValues: string[];
  headers: Record<string, string>;
}

const HOSTILE_PARTS = ["credentials", "origin", "body", "query", "pathValues", "headers"] as const;

/**
 * One or more parts of the request hostile, the others as a well-behaved client sends
 * them (its session, a trusted Origin, values the schemas accept), so a hostile part
 * reaches the code behind the checks the other parts would fail.
 */
function requestArbitrary(operation: Operation): fc.Arbitrary<HostileRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === "path");
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === "query");
  const hostile = fc.record({
    credentials: credentialsArbitrary,
    origin: originArbitrary,
    body:
      operation.method === "GET"
        ? fc.oneof(
            { weight: 4, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: bodyArbitrary(operation) },
          )
        : bodyArbitrary(operation),
    query: fc.oneof(
      { weight: 1, arbitrary: fc.constant("") },
      { weight: 4, arbitrary: queryArbitrary(operation) },
    ),
    pathValues: fc.tuple(...pathParameters.map((parameter) => urlValue(parameter.schema))),
    headers: extraHeadersArbitrary,
  });
  const wellBehaved = fc.record({
    credentials: fc.constant<Credentials>({
      kind: "as-is",
      position: 0,
      replacement: "A",
      text: "",
    }),
    origin: fc.constant<string | undefined>(ORIGIN),
    body:
      operation.method === "GET" || !operation.body
        ? fc.constant(undefined)
        : conforming(operation.body).map<Body | undefined>((value) => ({
            contentType: "application/json",
            payload: JSON.stringify(value) ?? "null",
          })),
    query: fc
      .record(
        Object.fromEntries(
          queryParameters.map((parameter) => [
            parameter.name,
            conforming(parameter.schema).map((value) => encode(asText(value))),
          ]),
        ),
        { requiredKeys: [] },
      )
      .map((named) =>
        Object.entries(named)
          .map(([key, value]) => `${key}=${value}`)
          .join("&"),
      ),
    pathValues: fc.tuple(
      ...pathParameters.map((parameter) =>
        conforming(parameter.schema).map((value) => encode(asText(value))),
      ),
    ),
    headers: fc.constant<Record<string, string>>({}),
  });
  const parts = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_PARTS).map((part) => [part]) },
    // The body is where most of the input is: hostile on its own more often.
    { weight: 1, arbitrary: fc.constant(["body"]) },
    { weight: 1, arbitrary: fc.subarray([...HOSTILE_PARTS], { minLength: 1 }) },
  );
  return fc
    .tuple(
      fc.constantFrom<Identity>("anonymous", "outsider", "owner", "member", "admin"),
      parts,
      hostile,
      wellBehaved,
    )
    .map(([identity, chosen, bad, good]) => {
      const request: HostileRequest = { identity, ...good };
      for (const part of chosen) Object.assign(request, { [part]: bad[part] });
      return request;
    });
}

// ---------------------------------------------------------------------------------------
// Sending and judging

function urlOf(operation: Operation, request: HostileRequest): string {
  let index = 0;
  const path = operation.path.replace(/\{[^}]+\}/g, () => request.pathValues[index++] ?? "");
  return request.query === "" ? path : `${path}?${request.query}`;
}

async function send(
  operation: Operation,
  request: HostileRequest,
): Promise<{ response: LightMyRequestResponse; ms: number }> {
  const headers: Record<string, string> = {
    ...request.headers,
    ...credentialHeaders(request.identity, request.credentials),
  };
  if (request.origin !== undefined) headers.origin = request.origin;
  if (request.body?.contentType !== undefined) headers["content-type"] = request.body.contentType;
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${5 * ANSWER_BOUND_MS} ms`)),
      5 * ANSWER_BOUND_MS,
    );
  });
  try {
    const response = await Promise.race([
      t.app.inject({
        method: operation.method as "GET" | "POST",
        url: urlOf(operation, request),
        headers,
        ...(request.body ? { payload: request.body.payload } : {}),
      }),
      hung,
    ]);
    return { response, ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/** A refusal: a 4xx, or a redirect carrying an `error` (how browser flows refuse). */
function isRefusal(response: LightMyRequestResponse): boolean {
  if (response.statusCode >= 400) return true;
  const location = response.headers.location;
  if (response.statusCode < 300 || response.statusCode >= 400 || typeof location !== "string")
    return false;
  return new URL(location, ORIGIN).searchParams.has("error");
}

function describeRequest(operation: Operation, request: HostileRequest): string {
  const shown = JSON.stringify({ ...request, url: urlOf(operation, request) }, (_key, value) =>
    typeof value === "string" && value.length > 300
      ? `${value.slice(0, 300)}…(${value.length} chars)`
      : value,
  );
  return `${operation.label} ${shown}`;
}

/** The session rows other than `sessionId`'s, as one digest. */
async function otherSessionsDigest(sessionId: string): Promise<string> {
  const [row] = await sql<Array<{ digest: string }>>`
    select md5(coalesce(string_agg(s::text, chr(10) order by s::text), '')) as digest
    from session s where id <> ${sessionId}`;
  return row?.digest ?? "";
}

/**
 * The one refusal that changes a row by design: set-active refused to a non-member
 * clears the caller's active organization (as the established implementation does,
 * docs/http-api.md). It may touch nothing but the caller's own session row.
 */
async function clearedOwnActiveOrganization(
  operation: Operation,
  response: LightMyRequestResponse,
  caller: { sessionId: string; othersBefore: string } | undefined,
  changed: string[],
): Promise<boolean> {
  if (!operation.path.endsWith("/organization/set-active") || !caller) return false;
  if ((response.json() as { code?: string }).code !== "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION")
    return false;
  if (changed.some((table) => table !== "session")) return false;
  if ((await otherSessionsDigest(caller.sessionId)) !== caller.othersBefore) return false;
  const [row] = await sql<Array<{ cleared: boolean }>>`
    select active_organization_id is null and active_team_id is null as cleared
    from session where id = ${caller.sessionId}`;
  return row?.cleared === true;
}

async function judge(operation: Operation, request: HostileRequest): Promise<void> {
  const before = await tableDigests();
  const callerSession =
    request.identity === "anonymous" ? undefined : sessions.get(request.identity);
  const caller = callerSession && {
    sessionId: callerSession.id,
    othersBefore: await otherSessionsDigest(callerSession.id),
  };
  errorLog.length = 0;
  const { response, ms } = await send(operation, request);
  const what = () =>
    `${describeRequest(operation, request)}\n-> ${response.statusCode} ${response.body.slice(0, 300)}`;
  if (response.statusCode >= 500) {
    throw new Error(`a 5xx answer: ${what()}\nlogged: ${errorLog.join("").slice(0, 2_000)}`);
  }
  if (ms > ANSWER_BOUND_MS) throw new Error(`answered in ${Math.round(ms)} ms: ${what()}`);
  if (response.statusCode >= 400) {
    expect(response.headers["content-type"], what()).toMatch(/^application\/json/);
    const body = JSON.parse(response.body) as { code?: unknown; message?: unknown };
    expect(
      typeof body.code === "string" && /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(body.code),
      what(),
    ).toBe(true);
    expect(isErrorCode(String(body.code)), what()).toBe(true);
    expect(typeof body.message === "string" && body.message.length > 0, what()).toBe(true);
  }
  if (isRefusal(response)) {
    const changed = changedTables(before, await tableDigests());
    if (
      changed.length > 0 &&
      !(await clearedOwnActiveOrganization(operation, response, caller, changed))
    ) {
      throw new Error(`a refused request changed ${changed.join(", ")}: ${what()}`);
    }
  } else {
    await ensureFixtures(sql);
  }
}

describe("generated hostile requests", () => {
  it("reads every operation from the OpenAPI document", () => {
    expect(documentResponse.statusCode).toBe(200);
    expect(operations.length).toBeGreaterThan(50);
  });

  it.each(operations.map((operation, index) => [operation.label, operation, index] as const))(
    "%s: no 5xx, catalogue errors, bounded time, refusals change nothing",
    async (_label, operation, index) => {
      const seed = BASE_SEED + index;
      try {
        await fc.assert(
          fc.asyncProperty(requestArbitrary(operation), (request) => judge(operation, request)),
          { seed, numRuns: RUNS },
        );
      } catch (error) {
        (error as Error).message =
          `HOSTILE_SEED=${BASE_SEED} (seed ${seed} for ${operation.label})\n${(error as Error).message}`;
        throw error;
      }
    },
  );
});

describe("cases the generated requests found", () => {
  const asOwner = () => ({
    origin: ORIGIN,
    "content-type": "application/json",
    cookie: `authd.session_token=${encodeURIComponent(sessions.get("owner")?.signed ?? "")}`,
  });

  it("answers URLs that do not decode, and over-long path parameters, from the catalogue", async () => {
    for (const url of ["/api/auth/reset-password/%", "/api/auth/callback/%zz", "/api/auth/%c0"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(400);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.headers["x-request-id"]).toBeDefined();
      expect(response.json()).toEqual({ code: "BAD_REQUEST", message: "Malformed request" });
    }
    const long = await t.app.inject({
      method: "GET",
      url: `/api/auth/reset-password/${"t".repeat(500)}`,
    });
    // Past the router's parameter length no route matches.
    expect(long.statusCode).toBe(404);
    expect(long.json()).toEqual({ code: "NOT_FOUND", message: "Not found" });
  });

  it("refuses JSON nested deeper than 64 levels before parsing it, and takes 64", async () => {
    await ensureFixtures(sql);
    // The body object and metadata are two levels: 62 more arrays make 64.
    const nested = (levels: number) => `{"a":${"[".repeat(levels)}${"]".repeat(levels)}}`;
    const before = await tableDigests();
    for (const payload of [
      `{"name":"Deep","slug":"deep","metadata":${nested(63)}}`,
      `{"data":{"metadata":${nested(62)}},"organizationId":"${ORGANIZATION.id}"}`,
      `{"data":{"metadata":${nested(10_000)}},"organizationId":"${ORGANIZATION.id}"}`,
      "[".repeat(30_000) + "]".repeat(30_000),
    ]) {
      const url = payload.startsWith('{"name"')
        ? "/api/auth/organization/create"
        : "/api/auth/organization/update";
      const response = await t.app.inject({ method: "POST", url, payload, headers: asOwner() });
      expect(response.statusCode, payload.slice(0, 60)).toBe(400);
      expect(response.json()).toEqual({
        code: "BAD_REQUEST",
        message: "JSON nested deeper than 64 levels",
      });
    }
    expect(changedTables(before, await tableDigests())).toEqual([]);

    const deepest = await t.app.inject({
      method: "POST",
      url: "/api/auth/organization/create",
      payload: `{"name":"Deep","slug":"deep-enough","metadata":${nested(62)}}`,
      headers: asOwner(),
    });
    expect(deepest.statusCode, deepest.body).toBe(200);
    // Brackets inside strings are text, not nesting.
    const quoted = await t.app.inject({
      method: "POST",
      url: "/api/auth/organization/check-slug",
      payload: JSON.stringify({ slug: "[".repeat(100), note: '\\"{{{' }),
      headers: asOwner(),
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
  });

  it("answers organization metadata with its keys as stored, whatever they are", async () => {
    await ensureFixtures(sql);
    const metadata = { plan_tier: "gold", "": 1, a_: 2, _b: { some_key: [{ c__d: null }] } };
    const created = await t.app.inject({
      method: "POST",
      url: "/api/auth/organization/create",
      payload: { name: "Keys", slug: "keys-as-stored", metadata },
      headers: asOwner(),
    });
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json() as { id: string };
    expect(created.json()).toMatchObject({ metadata });
    const read = await t.app.inject({
      method: "GET",
      url: `/api/auth/organization/get-organization?organizationId=${id}`,
      headers: asOwner(),
    });
    expect(read.json()).toMatchObject({ metadata });
  });

  it("writes nothing when set-active refuses a non-member with no active organization", async () => {
    await ensureFixtures(sql);
    const outsider = sessions.get("outsider");
    const before = await tableDigests();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/organization/set-active",
      payload: { organizationId: ORGANIZATION.id },
      headers: {
        origin: ORIGIN,
        cookie: `authd.session_token=${encodeURIComponent(outsider?.signed ?? "")}`,
      },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION" });
    expect(changedTables(before, await tableDigests())).toEqual([]);
  });
});
