/**
 * A write a foreign key refuses (the user, organization or team it names was deleted by a
 * request that ran at the same time) answers the catalogue's not-found error, not a 500:
 * for every foreign key of the schema, and for a real refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vanishedRowError } from "../../server/errors.js";
import { insertMember } from "../../server/organization/member-queries.js";
import { insertOrganization } from "../../server/organization/queries.js";
import { createTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe("vanishedRowError", () => {
  it("has an answer for every foreign key of the schema", async () => {
    const keys = await t.db.sql<{ name: string; referenced: string }[]>`
      select conname as name, confrelid::regclass::text as referenced from pg_constraint
      where contype = 'f' and connamespace = 'public'::regnamespace order by conname`;
    expect(keys.length).toBeGreaterThan(10);
    const expected: Record<string, string> = {
      '"user"': "USER_NOT_FOUND",
      organization: "ORGANIZATION_NOT_FOUND",
      team: "TEAM_NOT_FOUND",
    };
    for (const key of keys) {
      const answer = vanishedRowError({ code: "23503", constraint_name: key.name });
      expect(answer?.code, key.name).toBe(expected[key.referenced]);
    }
  });

  it("answers a real refusal, and nothing for other errors", async () => {
    await insertOrganization(t.db.sql, {
      id: "vanished-org",
      name: "Vanished",
      slug: "vanished",
      logo: null,
      metadata: null,
    });
    const refused = await insertMember(t.db.sql, {
      id: "vanished-member",
      organizationId: "vanished-org",
      userId: "no-such-user",
      role: "member",
    }).catch((error: unknown) => error);
    expect(vanishedRowError(refused)?.toBody()).toEqual({
      code: "USER_NOT_FOUND",
      message: "User not found",
    });
    const unique = await insertOrganization(t.db.sql, {
      id: "vanished-org-2",
      name: "Vanished",
      slug: "vanished",
      logo: null,
      metadata: null,
    }).catch((error: unknown) => error);
    expect(unique).toMatchObject({ code: "23505" });
    expect(vanishedRowError(unique)).toBeNull();
    expect(vanishedRowError(new Error("other"))).toBeNull();
    expect(vanishedRowError(null)).toBeNull();
  });
});
