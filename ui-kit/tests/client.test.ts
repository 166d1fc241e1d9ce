/**
 * The client against a fake fetch: which method and options each call sends, how
 * answers become `{data, error}`, redirects, retries and the session refresh.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAuthClient, type RetryOptions } from "../src/client/index.js";
import { everyCall } from "./calls.js";

interface Sent {
  url: string;
  method: string;
  credentials: RequestInit["credentials"];
  body: unknown;
}

type Answer = Response | Error | ((sent: Sent) => Response | Error);

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** A fetch that records every request and answers from a queue, then with `fallback`. */
function fakeFetch(fallback: Answer = () => json({ ok: true })) {
  const sent: Sent[] = [];
  const queue: Answer[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const request: Sent = {
      url,
      method: init.method ?? "GET",
      credentials: init.credentials,
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
    };
    sent.push(request);
    const next = queue.shift() ?? fallback;
    const answer = typeof next === "function" ? next(request) : next;
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { fetch, sent, queue };
}

const BASE = "http://auth.test";

function clientWith(fetch: ReturnType<typeof fakeFetch>["fetch"], retry?: RetryOptions) {
  return createAuthClient({ baseURL: BASE, fetch, retry, onRedirect: () => {} });
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("requests", () => {
  it("sends each call with its method and path, a body only on POST, with credentials", async () => {
    const { fetch, sent } = fakeFetch();
    const client = clientWith(fetch);
    const calls = everyCall(client);
    for (const [name, method, path, run] of calls) {
      sent.length = 0;
      await run();
      const request = sent[0];
      expect(request, name).toBeDefined();
      expect(`${request?.method} ${request?.url.split("?")[0]}`, name).toBe(
        `${method} ${BASE}/api/auth${path}`,
      );
      expect(request?.credentials, name).toBe("include");
      if (method === "GET") expect(request?.body, name).toBeUndefined();
      else expect(request?.body, name).toBeTypeOf("object");
    }
    // Every method of the client is in the list above.
    const names = new Set(calls.map(([name]) => name));
    const own = [
      ...Object.keys(client).filter(
        (key) => !["session", "signIn", "signUp", "organization"].includes(key),
      ),
      ...Object.keys(client.signIn).map((key) => `signIn.${key}`),
      ...Object.keys(client.signUp).map((key) => `signUp.${key}`),
      ...Object.keys(client.organization).map((key) => `organization.${key}`),
    ];
    expect(own.filter((name) => !names.has(name))).toEqual([]);
  });

  it("sends setActiveTeam's null, which clears the active team", async () => {
    const { fetch, sent } = fakeFetch();
    const client = clientWith(fetch);
    await client.organization.setActiveTeam({ teamId: null });
    await client.organization.setActiveTeam({});
    expect(sent.map((request) => request.body)).toEqual([{ teamId: null }, {}]);
  });

  it("always POSTs sign-out, revoke-sessions, revoke-other-sessions and delete-user", async () => {
    const { fetch, sent } = fakeFetch();
    const client = clientWith(fetch);
    await client.signOut();
    await client.revokeSessions();
    await client.revokeOtherSessions();
    await client.deleteUser();
    expect(sent.map((request) => request.method)).toEqual(["POST", "POST", "POST", "POST"]);
    expect(sent.map((request) => request.body)).toEqual([{}, {}, {}, {}]);
  });

  it("puts GET inputs in the query, leaving out undefined ones", async () => {
    const { fetch, sent } = fakeFetch();
    const client = clientWith(fetch);
    await client.organization.getFullOrganization({ organizationId: "o 1", membersLimit: 5 });
    await client.getSession({ disableCookieCache: true });
    await client.organization.listTeams({});
    await client.organization.listMembers({
      organizationSlug: "kit",
      limit: 10,
      offset: 20,
      sortBy: "email",
      sortDirection: "desc",
      search: "ada",
      role: undefined,
    });
    await client.organization.listTeamMembers({ teamId: "t" });
    expect(sent.map((request) => request.url)).toEqual([
      `${BASE}/api/auth/organization/get-full-organization?organizationId=o+1&membersLimit=5`,
      `${BASE}/api/auth/get-session?disableCookieCache=true`,
      `${BASE}/api/auth/organization/list-teams`,
      `${BASE}/api/auth/organization/list-members?organizationSlug=kit&limit=10&offset=20&sortBy=email&sortDirection=desc&search=ada`,
      `${BASE}/api/auth/organization/list-team-members?teamId=t`,
    ]);
  });

  it("honours basePath and a trailing slash on baseURL", async () => {
    const { fetch, sent } = fakeFetch();
    const client = createAuthClient({ baseURL: `${BASE}/`, basePath: "/auth", fetch });
    await client.listSessions();
    expect(sent[0]?.url).toBe(`${BASE}/auth/list-sessions`);
  });
});

describe("results", () => {
  it("answers data on success and the server's error otherwise", async () => {
    const { fetch, queue } = fakeFetch();
    const client = clientWith(fetch);
    queue.push(json([{ id: "github", name: "GitHub" }]));
    expect(await client.socialProviders()).toEqual({
      data: [{ id: "github", name: "GitHub" }],
      error: null,
    });
    queue.push(
      json(
        {
          code: "VALIDATION_ERROR",
          message: "Invalid body parameters",
          details: [{ path: "email", message: "Invalid email address" }],
        },
        400,
      ),
    );
    expect(await client.signIn.email({ email: "x", password: "y" })).toEqual({
      data: null,
      error: {
        status: 400,
        code: "VALIDATION_ERROR",
        message: "Invalid body parameters",
        details: [{ path: "email", message: "Invalid email address" }],
      },
    });
    queue.push(json(null));
    expect(await client.getSession()).toEqual({ data: null, error: null });
  });

  it("turns a network failure into an error result, never a thrown exception", async () => {
    const { fetch } = fakeFetch(new TypeError("fetch failed"));
    const result = await clientWith(fetch).getSession();
    expect(result).toEqual({
      data: null,
      error: { status: 0, code: "NETWORK_ERROR", message: "fetch failed" },
    });
  });

  it("turns an answer that is not JSON into an error result", async () => {
    const { fetch, queue } = fakeFetch();
    const client = clientWith(fetch);
    queue.push(new Response("<html>Bad gateway</html>", { status: 502 }));
    expect((await client.getSession()).error).toMatchObject({ status: 502, code: "HTTP_ERROR" });
    queue.push(new Response("<html>welcome</html>", { status: 200 }));
    expect((await client.getSession()).error).toMatchObject({
      status: 200,
      code: "INVALID_RESPONSE",
    });
  });
});

describe("redirects", () => {
  it("calls onRedirect with url when an answer says redirect: true, only then", async () => {
    const { fetch, queue } = fakeFetch();
    const onRedirect = vi.fn();
    const client = createAuthClient({ baseURL: BASE, fetch, onRedirect });
    queue.push(json({ url: "https://github.com/login/oauth/authorize?x=1", redirect: true }));
    await client.signIn.social({ provider: "github" });
    expect(onRedirect).toHaveBeenCalledWith("https://github.com/login/oauth/authorize?x=1");
    queue.push(json({ url: "https://github.com/login", redirect: false }));
    await client.linkSocial({ provider: "github", disableRedirect: true });
    queue.push(json({ code: "X", message: "x", url: "https://evil.test", redirect: true }, 400));
    await client.signIn.social({ provider: "github" });
    expect(onRedirect).toHaveBeenCalledTimes(1);
  });

  it("navigates window.location by default, and works without a window", async () => {
    const { fetch, queue } = fakeFetch();
    const client = createAuthClient({ baseURL: BASE, fetch });
    // No window (a server render): the answer still arrives.
    expect("window" in globalThis).toBe(false);
    queue.push(json({ url: "/dashboard", redirect: true, token: "t", user: {} }));
    expect((await client.signIn.email({ email: "a@b.c", password: "x" })).data).toMatchObject({
      url: "/dashboard",
    });
    const location = { href: "http://app.test/" };
    vi.stubGlobal("window", { location });
    queue.push(json({ url: "http://app.test/dashboard", redirect: true, token: "t", user: {} }));
    await client.signIn.email({ email: "a@b.c", password: "x", callbackURL: "/dashboard" });
    expect(location.href).toBe("http://app.test/dashboard");
  });
});

describe("retries", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  /** When each request was sent, in fake milliseconds since the first. */
  async function timings(retry: RetryOptions, answers: Answer[], fallback: Answer) {
    const start = Date.now();
    const times: number[] = [];
    const { fetch, queue } = fakeFetch((sent) => {
      times.push(Date.now() - start);
      return typeof fallback === "function" ? fallback(sent) : fallback;
    });
    queue.push(
      ...answers.map((answer) => (sent: Sent) => {
        times.push(Date.now() - start);
        return typeof answer === "function" ? answer(sent) : answer;
      }),
    );
    const pending = clientWith(fetch, retry).listSessions();
    await vi.runAllTimersAsync();
    return { result: await pending, times };
  }

  it("retries linearly, `attempts` times after the first try, `delay` apart", async () => {
    const { result, times } = await timings(
      { type: "linear", attempts: 3, delay: 200 },
      [],
      () => new TypeError("fetch failed"),
    );
    expect(times).toEqual([0, 200, 400, 600]);
    expect(result.error?.code).toBe("NETWORK_ERROR");
  });

  it("waits 1000 ms between linear retries by default, and stops at a success", async () => {
    const { result, times } = await timings(
      { type: "linear", attempts: 5 },
      [
        json({ code: "SERVICE_UNAVAILABLE", message: "x" }, 503),
        json({ code: "T", message: "x" }, 429),
      ],
      json([]),
    );
    expect(times).toEqual([0, 1000, 2000]);
    expect(result).toEqual({ data: [], error: null });
  });

  it("retries exponentially, doubling from baseDelay up to maxDelay", async () => {
    const { times } = await timings(
      { type: "exponential", attempts: 5, baseDelay: 100, maxDelay: 500 },
      [],
      json({ code: "INTERNAL_SERVER_ERROR", message: "x" }, 500),
    );
    // Waits of 100, 200, 400, 500, 500.
    expect(times).toEqual([0, 100, 300, 700, 1200, 1700]);
  });

  it("does not retry a 4xx other than 429", async () => {
    const { result, times } = await timings(
      { type: "linear", attempts: 3, delay: 10 },
      [],
      json({ code: "UNAUTHORIZED", message: "Unauthorized" }, 401),
    );
    expect(times).toEqual([0]);
    expect(result.error?.status).toBe(401);
  });
});

describe("session store", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  const SESSION = { session: { id: "s" }, user: { id: "u", name: "Ada" } };

  function countingClient() {
    const { fetch, sent } = fakeFetch((request) =>
      request.url.endsWith("/get-session") ? json(SESSION) : json({ status: true }),
    );
    const client = clientWith(fetch);
    const sessionFetches = () => sent.filter((r) => r.url.endsWith("/get-session")).length;
    return { client, sessionFetches, sent };
  }

  it("loads on the first subscription and keeps a stable snapshot until it changes", async () => {
    const { client, sessionFetches } = countingClient();
    const first = client.session.getSnapshot();
    expect(first).toEqual({ data: null, error: null, isPending: true });
    expect(client.session.getSnapshot()).toBe(first);
    expect(sessionFetches()).toBe(0);
    const listener = vi.fn();
    const unsubscribe = client.session.subscribe(listener);
    await vi.runAllTimersAsync();
    expect(sessionFetches()).toBe(1);
    expect(listener).toHaveBeenCalled();
    const loaded = client.session.getSnapshot();
    expect(loaded).toEqual({ data: SESSION, error: null, isPending: false });
    expect(client.session.getSnapshot()).toBe(loaded);
    expect(client.session.getServerSnapshot()).toEqual(first);
    unsubscribe();
    listener.mockClear();
    await client.session.refetch();
    expect(listener).not.toHaveBeenCalled();
  });

  it("serves a scheduled refetch with an explicit one asked for in the meantime", async () => {
    const { client, sessionFetches } = countingClient();
    await client.organization.setActive({ organizationId: "o" });
    await client.session.refetch();
    expect(sessionFetches()).toBe(1);
    await vi.advanceTimersByTimeAsync(50);
    expect(sessionFetches()).toBe(1);
  });

  it("refetches get-session 10 ms after each session-changing call", async () => {
    const { client, sessionFetches } = countingClient();
    const changing: [string, () => Promise<unknown>][] = [
      ["signIn.email", () => client.signIn.email({ email: "a@b.c", password: "x" })],
      ["signIn.social", () => client.signIn.social({ provider: "github" })],
      ["signUp.email", () => client.signUp.email({ name: "A", email: "a@b.c", password: "x" })],
      ["signOut", () => client.signOut()],
      ["updateUser", () => client.updateUser({ name: "B" })],
      ["deleteUser", () => client.deleteUser()],
      ["verifyEmail", () => client.verifyEmail({ token: "t" })],
      ["changePassword", () => client.changePassword({ newPassword: "y", currentPassword: "x" })],
      ["revokeSession", () => client.revokeSession({ token: "t" })],
      ["revokeSessions", () => client.revokeSessions()],
      ["organization.create", () => client.organization.create({ name: "A", slug: "a" })],
      ["organization.setActive", () => client.organization.setActive({ organizationId: "o" })],
      ["organization.delete", () => client.organization.delete({ organizationId: "o" })],
      ["organization.leave", () => client.organization.leave({ organizationId: "o" })],
      [
        "organization.acceptInvitation",
        () => client.organization.acceptInvitation({ invitationId: "i" }),
      ],
      ["organization.setActiveTeam", () => client.organization.setActiveTeam({ teamId: null })],
    ];
    for (const [name, run] of changing) {
      const before = sessionFetches();
      await run();
      await vi.advanceTimersByTimeAsync(9);
      expect(sessionFetches(), `${name} after 9 ms`).toBe(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(sessionFetches(), `${name} after 10 ms`).toBe(before + 1);
    }
  });

  it("does not refetch after other calls, nor after a failed one", async () => {
    const { fetch, queue, sent } = fakeFetch();
    const client = clientWith(fetch);
    await client.listSessions();
    await client.changeEmail({ newEmail: "b@b.c" });
    await client.organization.list();
    await client.organization.getActiveMemberRole();
    await client.organization.hasPermission({ permissions: { member: ["create"] } });
    await client.organization.listUserTeams();
    queue.push(json({ code: "TEAM_NOT_FOUND", message: "x" }, 400));
    await client.organization.setActiveTeam({ teamId: "t" });
    queue.push(json({ code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", message: "x" }, 403));
    await client.organization.setActive({ organizationId: "o" });
    queue.push(json({ code: "INVALID_EMAIL_OR_PASSWORD", message: "x" }, 401));
    await client.signIn.email({ email: "a@b.c", password: "x" });
    await vi.advanceTimersByTimeAsync(100);
    expect(sent.filter((r) => r.url.endsWith("/get-session"))).toEqual([]);
  });

  it("refetches once for a burst of calls", async () => {
    const { client, sessionFetches } = countingClient();
    await client.updateUser({ name: "A" });
    await vi.advanceTimersByTimeAsync(5);
    await client.updateUser({ name: "B" });
    await vi.advanceTimersByTimeAsync(50);
    expect(sessionFetches()).toBe(1);
  });

  it("keeps the last session and reports the error when a refetch fails", async () => {
    const { fetch, queue } = fakeFetch();
    const client = clientWith(fetch);
    queue.push(json(SESSION));
    await client.session.refetch();
    queue.push(new TypeError("offline"));
    const state = await client.session.refetch();
    expect(state).toMatchObject({
      data: SESSION,
      isPending: false,
      error: { code: "NETWORK_ERROR" },
    });
  });
});
