/**
 * Rendering a kit component against a scripted authd: each test says what each path
 * answers; every request is recorded so a test can check what was sent.
 */
import { type RenderResult, render } from "@testing-library/react";
import type { ReactElement } from "react";
import { AuthProvider, type AuthProviderProps, createAuthClient } from "../../src/index.js";

export interface SentRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** What a path answers: a body (with a status), a function of the request, or "pending" (never answers). */
type Answer =
  | { status?: number; body: unknown }
  | ((request: SentRequest) => { status?: number; body: unknown })
  | "pending";

export type Routes = Record<string, Answer>;

export interface Harness extends RenderResult {
  requests: SentRequest[];
  /** The requests sent to one path. */
  sent: (path: string) => SentRequest[];
  navigations: string[];
  /** Changes what a path answers from now on. */
  answer: (path: string, answer: Answer) => void;
}

export const USER = {
  id: "user-1",
  name: "Ada Lovelace",
  email: "ada@example.com",
  emailVerified: true,
  image: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  role: "user",
  banned: false,
  banReason: null,
  banExpires: null,
};

export function sessionOf(user = USER, overrides: Record<string, unknown> = {}) {
  return {
    user,
    session: {
      id: "session-1",
      token: "session-1",
      userId: user.id,
      expiresAt: "2026-12-31T00:00:00.000Z",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      ipAddress: "203.0.113.7",
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
      activeOrganizationId: null,
      activeTeamId: null,
      impersonatedBy: null,
      ...overrides,
    },
  };
}

export function errorBody(code: string, message = code, details?: unknown) {
  return { code, message, ...(details === undefined ? {} : { details }) };
}

export function renderWithAuth(
  ui: ReactElement,
  routes: Routes,
  provider: Partial<Omit<AuthProviderProps, "client" | "children">> = {},
): Harness {
  const requests: SentRequest[] = [];
  const navigations: string[] = [];
  const table: Routes = {
    "/get-session": { body: null },
    "/social-providers": { body: [] },
    ...routes,
  };
  const fetch = async (input: string, init: RequestInit) => {
    const url = new URL(input);
    const path = url.pathname.replace(/^\/api\/auth/, "");
    const request: SentRequest = {
      method: init.method ?? "GET",
      path,
      query: Object.fromEntries(url.searchParams),
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const entry = table[path];
    if (!entry) return Response.json(errorBody("NOT_FOUND"), { status: 404 });
    if (entry === "pending") return new Promise<Response>(() => {});
    const { status = 200, body } = typeof entry === "function" ? entry(request) : entry;
    return Response.json(body, { status });
  };
  const client = createAuthClient({
    baseURL: "http://auth.test",
    fetch,
    onRedirect: (url) => navigations.push(url),
  });
  const result = render(
    <AuthProvider
      client={client}
      locale="en"
      navigate={(href) => navigations.push(href)}
      {...provider}
    >
      {ui}
    </AuthProvider>,
  );
  return {
    ...result,
    requests,
    navigations,
    sent: (path) => requests.filter((request) => request.path === path),
    answer: (path, answer) => {
      table[path] = answer;
    },
  };
}
