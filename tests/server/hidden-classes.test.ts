/**
 * The busiest answers build their objects without making V8 invent new hidden classes
 * per request. On Node 20, adding a key to a spread copy (`{ ...row, key }`) makes a new
 * hidden class on every call, and postgres.js grows a row of more than 16 columns into a
 * slow dictionary; both cost every request (docs/architecture.md, "Building objects on
 * the request path").
 *
 * A real `authd serve` runs with V8's map log (`--log-maps`). After a warm-up, marker
 * requests whose JSON bodies carry never-seen keys bracket two windows of rounds of
 * get-session, create, list, get-full-organization and accept-invitation. Each new hidden
 * class in a window is traced to what made it (event kind, reason, property, code
 * position). A map made per request comes from the same place in every round; so no
 * cause may repeat in half the rounds of either window, and no object may turn into a
 * dictionary for having too many properties. The total is not the measure: a full
 * garbage collection drops the maps of objects no longer alive (V8 keeps an unused map
 * for only a couple of collections), and the next request that needs one makes it again,
 * once per collection, dozens at a time on a busy machine. With the spread copies and the
 * wide row back, every round adds several of each.
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
/** Two windows of MEASURED_ROUNDS each, between three markers. */
const MARKERS = [
  "hiddenClassWindowStartsHere",
  "hiddenClassWindowTurnsHere",
  "hiddenClassWindowEndsHere",
];

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

/**
 * What the map log says happened between the two markers: how many maps were made, how
 * many came from each cause (the event that first leads to each: kind, reason, property,
 * code position), and which objects turned into dictionaries for having too many
 * properties.
 */
function eventsBetweenMarkers(
  log: string,
  start: string,
  end: string,
): {
  newMaps: number;
  causes: { cause: string; count: number }[];
  dictionaries: string[];
} {
  const lines = log.split("\n");
  const markerTime = (name: string) => {
    const line = lines.find((entry) => entry.startsWith("map,") && entry.endsWith(`,${name}`));
    if (!line) throw new Error(`no map event for the marker ${name}`);
    return Number(line.split(",")[2]);
  };
  const from = markerTime(start);
  const to = markerTime(end);
  const created = new Set<string>();
  const causes = new Map<string, number>();
  const dictionaries: string[] = [];
  for (const line of lines) {
    const fields = line.split(",");
    const time = Number(fields[0] === "map" ? fields[2] : fields[1]);
    if (!(time > from && time < to)) continue;
    if (fields[0] === "map-create" && fields[2]) created.add(fields[2]);
    if (fields[0] !== "map") continue;
    // map,<kind>,<time>,<from>,<to>,<pc>,<line>,<column>,<reason>,<name>
    if (fields[4] && created.has(fields[4])) {
      const cause = [fields[1], fields[8], fields[9], fields[6], fields[7]].join(" ");
      causes.set(cause, (causes.get(cause) ?? 0) + 1);
      created.delete(fields[4]);
    }
    if (fields[1]?.startsWith("Normalize") && fields[8] === "TooManyFastProperties") {
      dictionaries.push(line);
    }
  }
  const newMaps = lines.filter((line) => {
    const fields = line.split(",");
    const time = Number(fields[1]);
    return fields[0] === "map-create" && time > from && time < to;
  }).length;
  // A map no event names a cause for counts as one cause of its own, so that maps made
  // per request in some way the log does not trace still fail the test.
  const traced = [...causes.values()].reduce((sum, count) => sum + count, 0);
  causes.set("(no map event names the cause)", newMaps - traced);
  const byCount = [...causes]
    .map(([cause, count]) => ({ cause, count }))
    .sort((a, b) => b.count - a.count);
  return { newMaps, causes: byCount, dictionaries };
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
  for (let i = 0; i < WARM_UP_ROUNDS + 2 * MEASURED_ROUNDS; i++) {
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
  let measured = WARM_UP_ROUNDS;
  for (const [index, marker] of MARKERS.entries()) {
    await mark(marker);
    if (index === MARKERS.length - 1) break;
    for (let i = 0; i < MEASURED_ROUNDS; i++) await round(measured++);
  }
  // V8 writes the rest of its log when the process exits.
  expect(await server.stop()).toBe(0);
  server = undefined;

  const log = await readFile(logFile, "utf8");
  const windows = MARKERS.slice(1).map((end, index) =>
    eventsBetweenMarkers(log, MARKERS[index] as string, end),
  );
  // Five requests a round: a map made per request repeats its cause about once a round;
  // maps made again after a collection repeat theirs once or twice.
  const described = windows
    .map(
      (w, index) =>
        `window ${index + 1}: ${w.newMaps} new maps, most repeated causes:\n` +
        w.causes
          .slice(0, 8)
          .map(({ cause, count }) => `  ${count}× ${cause}`)
          .join("\n"),
    )
    .join("\n");
  for (const { causes } of windows) {
    expect(causes[0]?.count ?? 0, described).toBeLessThan(MEASURED_ROUNDS / 2);
  }
  for (const { dictionaries } of windows) {
    expect(dictionaries, "objects turned into dictionaries between the markers").toEqual([]);
  }
}, 120_000);
