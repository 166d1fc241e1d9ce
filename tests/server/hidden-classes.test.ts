/**
 * The busiest answers build their objects without making V8 invent new hidden classes
 * per request. On Node 20, adding a key to a spread copy (`{ ...row, key }`) makes a new
 * hidden class on every call, and postgres.js grows a row of more than 16 columns into a
 * slow dictionary; both cost every request (docs/architecture.md, "Building objects on
 * the request path").
 *
 * A real `authd serve` runs with V8's map log (`--log-maps`). After a warm-up, two marker
 * requests whose JSON bodies carry never-seen keys bracket rounds of get-session,
 * create, list, get-full-organization and accept-invitation; between the
 * markers the log must show (almost) no new hidden class and no object turned into a
 * dictionary for having too many properties. With the spread copies and the wide row
 * back, every round adds several of each.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAuthd, type ServeProcess, startServe } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

const SECRET = "hidden-classes-secret-0123456789-0123456789";
const ORIGIN = "http://127.0.0.1";
const WARM_UP_ROUNDS = 40;
const MEASURED_ROUNDS = 30;
const START_MARKER = "hiddenClassWindowStartsHere";
const END_MARKER = "hiddenClassWindowEndsHere";

let testDatabase: TestDatabase;
let dir: string;
let server: ServeProcess | undefined;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "authd-hidden-classes-"));
  await writeFile(
    path.join(dir, "authd.config.json"),
    JSON.stringify({ baseURL: ORIGIN, rateLimit: { enabled: false }, log: { requests: false } }),
  );
  const env = { DATABASE_URL: testDatabase.url, AUTHD_SECRET: SECRET };
  const migrated = await runAuthd(["migrate"], { cwd: dir, env });
  expect(migrated.code, migrated.stderr).toBe(0);
});

afterAll(async () => {
  await server?.stop();
  await testDatabase?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function call(
  url: string,
  route: string,
  options: { cookie?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown; cookie: string }> {
  const response = await fetch(`${url}/api/auth${route}`, {
    method: options.body === undefined ? "GET" : "POST",
    headers: {
      origin: ORIGIN,
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return { status: response.status, body: await response.json(), cookie };
}

/** What the map log says happened between the two markers. */
function eventsBetweenMarkers(log: string): { newMaps: number; dictionaries: string[] } {
  const lines = log.split("\n");
  const markerTime = (name: string) => {
    const line = lines.find((entry) => entry.startsWith("map,") && entry.endsWith(`,${name}`));
    if (!line) throw new Error(`no map event for the marker ${name}`);
    return Number(line.split(",")[2]);
  };
  const from = markerTime(START_MARKER);
  const to = markerTime(END_MARKER);
  let newMaps = 0;
  const dictionaries: string[] = [];
  for (const line of lines) {
    const fields = line.split(",");
    const time = Number(fields[0] === "map" ? fields[2] : fields[1]);
    if (!(time > from && time < to)) continue;
    if (fields[0] === "map-create") newMaps += 1;
    if (fields[0] === "map" && fields[1]?.startsWith("Normalize")) {
      if (fields[8] === "TooManyFastProperties") dictionaries.push(line);
    }
  }
  return { newMaps, dictionaries };
}

it("serves the busiest answers without new hidden classes per request", async () => {
  const logFile = path.join(dir, "v8-maps.log");
  server = await startServe([], {
    cwd: dir,
    env: { DATABASE_URL: testDatabase.url, AUTHD_SECRET: SECRET },
    nodeArgs: ["--log-maps", `--logfile=${logFile}`, "--no-logfile-per-isolate"],
  });
  const { url } = server;
  const password = "hidden-classes-password-1";
  const owner = await call(url, "/sign-up/email", {
    body: { name: "Owner", email: "owner@example.com", password },
  });
  const invitee = await call(url, "/sign-up/email", {
    body: { name: "Invitee", email: "invitee@example.com", password },
  });
  expect([owner.status, invitee.status]).toEqual([200, 200]);

  let organizations = 0;
  const createOrganization = async () => {
    organizations += 1;
    const created = await call(url, "/organization/create", {
      cookie: owner.cookie,
      body: { name: "Org", slug: `org-${organizations}`, keepCurrentActiveOrganization: true },
    });
    expect(created.status).toBe(200);
    return (created.body as { id: string }).id;
  };
  // Every invitation up front: mailing one makes Node create AbortSignals, which on
  // Node 20 make new hidden classes of their own (node:internal/abort_controller).
  const invitations: { organizationId: string; invitationId: string }[] = [];
  for (let i = 0; i < WARM_UP_ROUNDS + MEASURED_ROUNDS; i++) {
    const organizationId = await createOrganization();
    const invited = await call(url, "/organization/invite-member", {
      cookie: owner.cookie,
      body: { email: "invitee@example.com", role: "member", organizationId },
    });
    expect(invited.status).toBe(200);
    invitations.push({ organizationId, invitationId: (invited.body as { id: string }).id });
  }
  const round = async (index: number) => {
    const { organizationId, invitationId } = invitations[index] as (typeof invitations)[number];
    await createOrganization();
    const statuses = [
      (await call(url, "/get-session", { cookie: owner.cookie })).status,
      (await call(url, "/organization/list", { cookie: owner.cookie })).status,
      (
        await call(url, `/organization/get-full-organization?organizationId=${organizationId}`, {
          cookie: owner.cookie,
        })
      ).status,
      (
        await call(url, "/organization/accept-invitation", {
          cookie: invitee.cookie,
          body: { invitationId },
        })
      ).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 200]);
  };
  // A body key never seen before makes one map event that names it.
  const mark = (name: string) => call(url, "/sign-in/email", { body: { [name]: true } });

  for (let i = 0; i < WARM_UP_ROUNDS; i++) {
    await round(i);
    // The markers' own answer (a refused body) warms up too.
    await mark(`warmUpMarker${i}`);
  }
  await mark(START_MARKER);
  for (let i = 0; i < MEASURED_ROUNDS; i++) await round(WARM_UP_ROUNDS + i);
  await mark(END_MARKER);
  // V8 writes the rest of its log when the process exits.
  expect(await server.stop()).toBe(0);
  server = undefined;

  const { newMaps, dictionaries } = eventsBetweenMarkers(await readFile(logFile, "utf8"));
  // Five requests a round: a map or two can still settle late, one per request cannot.
  expect(newMaps, "new hidden classes between the markers").toBeLessThan(MEASURED_ROUNDS / 2);
  expect(dictionaries, "objects turned into dictionaries between the markers").toEqual([]);
}, 120_000);
