/**
 * Every request authd makes to a provider, bounded: a time limit, a size limit, JSON
 * only, redirects never followed. A failure is a ProviderRequestError whose message says
 * what went wrong (a status, a timeout, a content type) and never carries the request's
 * secrets, so it can be logged.
 */
import type { ProviderFetch } from "./provider.js";

export interface RequestLimits {
  /** Milliseconds a token or profile request may take, body included. */
  timeoutMs: number;
  /** Milliseconds the discovery document and key sets may take. */
  discoveryTimeoutMs: number;
  /** Bytes an answer may have. */
  maxBytes: number;
}

export const DEFAULT_LIMITS: RequestLimits = {
  timeoutMs: 10_000,
  discoveryTimeoutMs: 5_000,
  maxBytes: 1_048_576,
};

export class ProviderRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderRequestError";
  }
}

const USER_AGENT = "authd";

/** application/json, or a `+json` type (application/jwk-set+json). */
function isJsonType(contentType: string | null): boolean {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** The body, at most `maxBytes` of it: a longer one is cut off and refused. */
export async function readCapped(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ProviderRequestError(`answer over ${maxBytes} bytes`);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ProviderRequestError(`answer over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function describeFailure(error: unknown, timeoutMs: number): ProviderRequestError {
  if (error instanceof ProviderRequestError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "TimeoutError" || name === "AbortError") {
    return new ProviderRequestError(`no answer within ${timeoutMs} ms`);
  }
  // fetch's own errors name the failure (refused connection, bad certificate) in `cause`.
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return new ProviderRequestError(
    typeof cause === "string" ? `request failed (${cause})` : "request failed",
  );
}

export interface JsonAnswer {
  status: number;
  json: unknown;
}

/**
 * One bounded request whose answer must be JSON (any status): the token endpoint's
 * errors are JSON too, and their `error` code is worth logging.
 */
export async function requestJson(
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
  limits: Pick<RequestLimits, "timeoutMs" | "maxBytes">,
): Promise<JsonAnswer> {
  // A caller's header replaces the default of the same name in any case: as two object
  // keys ("accept" and "Accept") fetch would send both values joined.
  const headers = new Headers({ accept: "application/json", "user-agent": USER_AGENT });
  for (const [name, value] of Object.entries(init.headers)) headers.set(name, value);
  let response: Response;
  let body: Buffer;
  try {
    response = await fetch(url, {
      method: init.method,
      headers,
      body: init.body,
      redirect: "manual",
      signal: AbortSignal.timeout(limits.timeoutMs),
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderRequestError(`redirected (HTTP ${response.status})`);
    }
    if (!isJsonType(response.headers.get("content-type"))) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderRequestError(`HTTP ${response.status}, not JSON`);
    }
    body = await readCapped(response, limits.maxBytes);
  } catch (error) {
    throw describeFailure(error, limits.timeoutMs);
  }
  try {
    return { status: response.status, json: JSON.parse(body.toString("utf8")) };
  } catch {
    throw new ProviderRequestError(`HTTP ${response.status}, malformed JSON`);
  }
}

/** The ProviderFetch handed to provider definitions: JSON in, JSON out, 2xx only. */
export function createProviderFetch(limits: RequestLimits): ProviderFetch {
  return async (url, init) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.accessToken) headers.authorization = `Bearer ${init.accessToken}`;
    let body: string | undefined;
    if (init.form !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    } else if (init.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.body);
    }
    const answer = await requestJson(url, { method: init.method ?? "GET", headers, body }, limits);
    if (answer.status < 200 || answer.status >= 300) {
      throw new ProviderRequestError(`HTTP ${answer.status}`);
    }
    return answer.json;
  };
}

/**
 * A fetch for openid-client's discovery and jose's key sets: the same time and size
 * bounds, the answer handed back as a Response for them to check.
 */
export function boundedFetch(
  limits: Pick<RequestLimits, "discoveryTimeoutMs" | "maxBytes">,
): (url: string, options: RequestInit) => Promise<Response> {
  return async (url, options) => {
    const timeout = AbortSignal.timeout(limits.discoveryTimeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      const response = await fetch(url, {
        ...options,
        headers: { "user-agent": USER_AGENT, ...Object.fromEntries(new Headers(options.headers)) },
        redirect: "manual",
        signal,
      });
      const body = await readCapped(response, limits.maxBytes);
      return new Response(response.status === 204 ? null : body, {
        status: response.status,
        headers: response.headers,
      });
    } catch (error) {
      throw describeFailure(error, limits.discoveryTimeoutMs);
    }
  };
}

/**
 * Whether anything answers HTTP at `url` within `timeoutMs`: any status counts (a token
 * endpoint answers a bare GET with 400 or 405), only a failed connection or silence
 * does not. The answer's body is never read. Sends no credentials.
 */
export async function probeUrl(
  url: string,
  timeoutMs: number,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: "GET",
      headers: { "user-agent": USER_AGENT },
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status, ms: Math.round(performance.now() - started) };
  } catch (error) {
    throw describeFailure(error, timeoutMs);
  }
}
