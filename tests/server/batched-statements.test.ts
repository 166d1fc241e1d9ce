/**
 * Concurrent session lookups and organization creates share statements
 * (server/db/batcher.ts). What must hold: each caller gets exactly its own answer, a
 * caller's own failure stays its own, and batches really form under concurrency.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateId } from "../../server/crypto/random.js";
import { createOrganizationCreations } from "../../server/organization/organization.js";
import { createSessionLookups, sessionRider } from "../../server/sessions/queries.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { createClient } from "../helpers/client.js";
import { watchStatements } from "../helpers/statements.js";

const PASSWORD = "batched statements 1";
let t: TestApp;
let counter = 0;

async function person() {
  counter += 1;
  const email = `batch-${counter}-${Date.now()}@example.com`;
  const client = createClient(t.app);
  const response = await client.post("/sign-up/email", {
    name: `P${counter}`,
    email,
    password: PASSWORD,
  });
  expect(response.statusCode, response.body).toBe(200);
  return { client, email, id: response.json().user.id as string };
}

function uniqueSlug(prefix = "batch") {
  counter += 1;
  return `${prefix}-${counter}-${Date.now().toString(36)}`;
}

function creation(userId: string, slug = uniqueSlug(), activeForSession: string | null = null) {
  const organizationId = generateId();
  return {
    organization: { id: organizationId, name: "Batch", slug, logo: null, metadata: { n: counter } },
    member: { id: generateId(), userId, role: "owner" },
    audit: {
      id: generateId(),
      action: "organization.created",
      actorType: "user" as const,
      actorId: userId,
      targetType: "organization",
      targetId: organizationId,
      organizationId,
      ipAddress: null,
      userAgent: null,
    },
    activeForSession,
  };
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("session lookups", () => {
  it("answers each of many concurrent callers with its own session, in fewer statements", async () => {
    const people = await Promise.all(Array.from({ length: 12 }, () => person()));
    const sent = watchStatements(t.db.sql);
    try {
      const calls = people.flatMap((p) => [p, p, p, p, p]);
      const answers = await Promise.all(calls.map((p) => p.client.get("/get-session")));
      answers.forEach((answer, i) => {
        expect(answer.statusCode).toBe(200);
        expect(answer.json().user.email).toBe(calls[i]?.email);
      });
      const lookups = sent.statements.filter((statement) =>
        statement.includes("with ordinality as p(token_hash"),
      );
      expect(lookups.length).toBeGreaterThan(0);
      expect(lookups.length).toBeLessThan(calls.length / 2);
    } finally {
      sent.stop();
    }
  });

  it("keeps an expired session, a banned user and an unknown token to their own callers", async () => {
    const [live, expired, banned] = await Promise.all([person(), person(), person()]);
    await t.db
      .sql`update session set expires_at = now() - interval '1 second' where user_id = ${expired.id}`;
    await t.db.sql`update "user" set banned = true where id = ${banned.id}`;
    const stranger = createClient(t.app);
    stranger.cookies.set("authd.session_token", "not-a-token.signature");
    const callers = [live, expired, banned, { client: stranger }];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => callers[i % 4]?.client.get("/get-session")),
    );
    answers.forEach((answer, i) => {
      expect(answer?.statusCode).toBe(200);
      const body = answer?.json();
      if (i % 4 === 0) expect(body.user.email).toBe(live.email);
      else expect(body).toBeNull();
    });
    // The expired session was found, and deleted, by its own callers' lookups.
    const [left] = await t.db
      .sql`select count(*)::int as n from session where user_id = ${expired.id}`;
    expect(left?.n).toBe(0);
  });

  it("answers riders per caller: organization lists and full organizations", async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => person()));
    const created = await Promise.all(
      people.map(async (p) => {
        const response = await p.client.post("/organization/create", {
          name: "Mine",
          slug: uniqueSlug(),
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json().id as string;
      }),
    );
    const calls = people.flatMap((p, i) => [
      { p, i, kind: "list" as const },
      { p, i, kind: "full" as const },
      { p, i, kind: "other" as const },
    ]);
    const answers = await Promise.all(
      calls.map(({ p, i, kind }) =>
        kind === "list"
          ? p.client.get("/organization/list")
          : p.client.get("/organization/get-full-organization", {
              // "other": another caller's organization, which this one is not in.
              query: {
                organizationId: created[kind === "full" ? i : (i + 1) % people.length] as string,
              },
            }),
      ),
    );
    answers.forEach((answer, n) => {
      const { i, kind } = calls[n] as (typeof calls)[number];
      if (kind === "list") {
        expect(answer.statusCode).toBe(200);
        expect(answer.json().map((o: { id: string }) => o.id)).toEqual([created[i]]);
      } else if (kind === "full") {
        expect(answer.statusCode).toBe(200);
        expect(answer.json().id).toBe(created[i]);
      } else {
        expect(answer.statusCode).toBe(403);
        expect(answer.json().code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
      }
    });
  });

  it("answers riders of every parameter count with each caller's own values", async () => {
    const people = await Promise.all(Array.from({ length: 4 }, () => person()));
    const hashes = await Promise.all(
      people.map(async (p) => {
        const [row] = await t.db.sql<{ tokenHash: string }[]>`
          select token_hash from session s join "user" u on u.id = s.user_id
          where u.email = ${p.email}`;
        return row?.tokenHash as string;
      }),
    );
    const lookups = createSessionLookups(t.db.sql);
    const riders = [
      sessionRider([], (sql) => sql`select s.user_id`),
      sessionRider(["a"], (sql, { a }) => sql`select ${a} || ':' || s.user_id`),
      sessionRider(["a", "b"], (sql, { a, b }) => sql`select ${a} || ${b} || ':' || s.user_id`),
      sessionRider(
        ["a", "b", "c"],
        (sql, { a, b, c }) => sql`select ${a} || ${b} || coalesce(${c}, '-') || ':' || s.user_id`,
      ),
    ];
    const calls = riders.flatMap((rider, count) =>
      people.map((p, i) => ({
        rider,
        hash: hashes[i] as string,
        values: ["a", "b", i % 2 === 0 ? "c" : null].slice(0, count).map((v) => v && `${v}${i}`),
        expected: [
          ...["a", "b"].slice(0, count).map((v) => `${v}${i}`),
          count === 3 ? (i % 2 === 0 ? `c${i}` : "-") : "",
          count === 0 ? "" : ":",
          p.id,
        ].join(""),
      })),
    );
    const answers = await Promise.all(
      calls.map((call) => lookups.findWith<string>(call.hash, call.rider, call.values)),
    );
    answers.forEach((answer, n) => {
      const call = calls[n] as (typeof calls)[number];
      expect(answer?.rider).toBe(call.expected);
      expect(answer?.found.session.tokenHash).toBe(call.hash);
    });
    const tooMany = sessionRider(["a", "b", "c", "d"], (sql) => sql`select 1`);
    await expect(lookups.findWith(hashes[0] as string, tooMany, [])).rejects.toThrow(
      /at most 3 parameters/,
    );
  });
});

describe("organization creates", () => {
  it("creates concurrent organizations in shared statements, each with its owner and audit row", async () => {
    const people = await Promise.all(Array.from({ length: 10 }, () => person()));
    const answers = await Promise.all(
      people.map((p) =>
        p.client.post("/organization/create", { name: `Org of ${p.email}`, slug: uniqueSlug() }),
      ),
    );
    const ids = answers.map((answer, i) => {
      expect(answer.statusCode, answer.body).toBe(200);
      const body = answer.json();
      expect(body.name).toBe(`Org of ${people[i]?.email}`);
      expect(body.members).toEqual([
        expect.objectContaining({ userId: people[i]?.id, role: "owner" }),
      ]);
      return body.id as string;
    });
    // Rows written by one statement share its transaction id.
    const [statements] = await t.db.sql`
      select count(distinct xmin::text)::int as n from organization where id = any(${ids})`;
    expect(statements?.n).toBeLessThan(ids.length);
    const audited = await t.db.sql`
      select target_id from audit_event where action = 'organization.created' and target_id = any(${ids})`;
    expect(audited.map((row) => row.targetId).sort()).toEqual([...ids].sort());
    // Each creator's session switched to their own new organization.
    const sessions = await Promise.all(people.map((p) => p.client.get("/get-session")));
    sessions.forEach((session, i) => {
      expect(session.json().session.activeOrganizationId).toBe(ids[i]);
    });
  });

  it("gives one slug to one of many concurrent creates and a clean error to the others", async () => {
    const people = await Promise.all(Array.from({ length: 8 }, () => person()));
    const slug = uniqueSlug("contested");
    const answers = await Promise.all(
      people.map((p) => p.client.post("/organization/create", { name: "Contested", slug })),
    );
    const won = answers.filter((answer) => answer.statusCode === 200);
    expect(won).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode !== 200)) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json().code).toBe("ORGANIZATION_ALREADY_EXISTS");
    }
    const winner = won[0]?.json();
    const [counts] = await t.db.sql`
      select (select count(*)::int from organization where slug = ${slug}) as organizations,
             (select count(*)::int from member where organization_id = ${winner.id}) as members,
             (select count(*)::int from audit_event
               where action = 'organization.created' and target_id in
                 (select id from organization where slug = ${slug})) as audits`;
    expect(counts).toEqual({ organizations: 1, members: 1, audits: 1 });
    // The losers' sessions did not switch to anything.
    const losers = people.filter((_, i) => answers[i]?.statusCode !== 200);
    for (const loser of losers) {
      expect(
        (await loser.client.get("/get-session")).json().session.activeOrganizationId,
      ).toBeNull();
    }
  });

  it("keeps one creation's own failure to its caller: the rest of its batch is written", async () => {
    const batched = createOrganizationCreations(t.db.sql);
    const { id: userId } = await person();
    // Two go out at once; the other eight wait and leave as one batch, whose fifth
    // names a user that does not exist (a foreign-key violation for the whole statement).
    const creations = Array.from({ length: 10 }, (_, i) =>
      creation(i === 6 ? "no-such-user" : userId),
    );
    const outcomes = await Promise.allSettled(creations.map((c) => batched.create(c)));
    outcomes.forEach((outcome, i) => {
      if (i === 6) {
        expect(outcome.status).toBe("rejected");
        expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: "23503" });
      } else {
        expect(outcome.status).toBe("fulfilled");
        const value = (outcome as PromiseFulfilledResult<unknown>).value;
        expect(value).toMatchObject({
          organization: {
            id: creations[i]?.organization.id,
            metadata: creations[i]?.organization.metadata,
          },
          member: { userId, role: "owner", organizationId: creations[i]?.organization.id },
        });
      }
    });
    const ids = creations.map((c) => c.organization.id);
    const [written] = await t.db.sql`
      select (select count(*)::int from organization where id = any(${ids})) as organizations,
             (select count(*)::int from audit_event where target_id = any(${ids})) as audits`;
    expect(written).toEqual({ organizations: 9, audits: 9 });
  });

  it("answers undefined for a slug taken earlier in the same batch, writing nothing for it", async () => {
    const batched = createOrganizationCreations(t.db.sql);
    const { id: userId } = await person();
    const slug = uniqueSlug("twice");
    const creations = [
      creation(userId),
      creation(userId),
      creation(userId, slug),
      creation(userId, slug),
      creation(userId),
    ];
    const outcomes = await Promise.all(creations.map((c) => batched.create(c)));
    // The first two go out at once; the other three share a statement, and of the two
    // with one slug exactly one gets it.
    const created = outcomes.map((outcome) => outcome !== undefined);
    expect([created[0], created[1], created[4]]).toEqual([true, true, true]);
    expect(created[2] !== created[3]).toBe(true);
    const loser = created[2] ? creations[3] : creations[2];
    const [written] = await t.db.sql`
      select (select count(*)::int from organization where id = ${loser?.organization.id as string})
           + (select count(*)::int from member where organization_id = ${loser?.organization.id as string})
           + (select count(*)::int from audit_event where target_id = ${loser?.organization.id as string})
           as n`;
    expect(written?.n).toBe(0);
  });
});
