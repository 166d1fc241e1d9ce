/**
 * What each organization read answers a signed-in caller who is not a member of the
 * organization named: the codes and statuses of the established implementation, and
 * never the organization's data.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { type Client, createClient } from "../helpers/client.js";

const PASSWORD = "non member 1234";

let t: TestApp;
let counter = 0;

async function signedIn(): Promise<Client> {
  counter += 1;
  const client = createClient(t.app);
  const response = await client.post("/sign-up/email", {
    name: "N",
    email: `outsider${counter}-${Date.now()}@example.com`,
    password: PASSWORD,
  });
  expect(response.statusCode, response.body).toBe(200);
  return client;
}

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe("a non-member of the organization named", () => {
  it("gets each route's own code and status", async () => {
    const owner = await signedIn();
    const created = await owner.post("/organization/create", {
      name: "Private Org",
      slug: `private-${Date.now()}`,
    });
    expect(created.statusCode, created.body).toBe(200);
    const organizationId = created.json().id as string;
    const outsider = await signedIn();
    const query = { organizationId };
    const answers = {
      "get-organization": await outsider.get("/organization/get-organization", { query }),
      "get-full-organization": await outsider.get("/organization/get-full-organization", {
        query,
      }),
      "has-permission": await outsider.post("/organization/has-permission", {
        organizationId,
        permissions: { member: ["create"] },
      }),
      "set-active": await outsider.post("/organization/set-active", { organizationId }),
      "list-members": await outsider.get("/organization/list-members", { query }),
      "get-active-member-role": await outsider.get("/organization/get-active-member-role", {
        query,
      }),
    };
    const seen = Object.fromEntries(
      Object.entries(answers).map(([route, answer]) => [
        route,
        [answer.statusCode, answer.json().code],
      ]),
    );
    expect(seen).toEqual({
      "get-organization": [403, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION"],
      "get-full-organization": [403, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION"],
      "has-permission": [401, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION"],
      "set-active": [403, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION"],
      "list-members": [403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION"],
      "get-active-member-role": [403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION"],
    });
    for (const answer of Object.values(answers)) {
      expect(answer.body).not.toContain("Private Org");
    }
  });
});
