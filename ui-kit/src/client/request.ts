/**
 * One HTTP round trip to authd, answered as `{data, error}`: never a thrown
 * exception, so a caller renders an error the same way whatever went wrong.
 */

export interface AuthError {
  /** The HTTP status, or 0 when no answer arrived. */
  status: number;
  code: string;
  message: string;
  details?: unknown;
}

export type Result<T> = { data: T; error: null } | { data: null; error: AuthError };

/**
 * `attempts` counts the retries after the first try. Only answers a retry can change
 * are retried: no answer at all, 429 and 5xx; a 4xx is a decision the server made
 * about this request and would be made again.
 */
export type RetryOptions =
  | { type: "linear"; attempts: number; delay?: number }
  | { type: "exponential"; attempts: number; baseDelay: number; maxDelay: number };

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface RequestOptions {
  method: "GET" | "POST";
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
}

export interface Transport {
  url: string;
  fetch: FetchLike;
  retry: RetryOptions | undefined;
}

function networkError(cause: unknown): AuthError {
  const message = cause instanceof Error ? cause.message : "The server could not be reached";
  return { status: 0, code: "NETWORK_ERROR", message };
}

function isErrorBody(value: unknown): value is { code: string; message?: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { code?: unknown }).code === "string"
  );
}

/** The wait before retry number `retry` (1-based). */
export function retryDelay(options: RetryOptions, retry: number): number {
  if (options.type === "linear") return options.delay ?? 1000;
  return Math.min(options.baseDelay * 2 ** (retry - 1), options.maxDelay);
}

function retryable(result: Result<unknown>): boolean {
  if (!result.error) return false;
  const { status } = result.error;
  return status === 0 || status === 429 || status >= 500;
}

function withQuery(url: string, query: RequestOptions["query"]): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

async function once<T>(transport: Transport, path: string, options: RequestOptions) {
  const init: RequestInit = {
    method: options.method,
    // The session lives in a cookie, also when the app and authd are on two origins.
    credentials: "include",
    headers: options.method === "POST" ? { "content-type": "application/json" } : {},
  };
  if (options.method === "POST") init.body = JSON.stringify(options.body ?? {});
  let response: Response;
  try {
    response = await transport.fetch(withQuery(`${transport.url}${path}`, options.query), init);
  } catch (cause) {
    return { data: null, error: networkError(cause) } satisfies Result<T>;
  }
  let body: unknown;
  try {
    const text = await response.text();
    body = text === "" ? null : JSON.parse(text);
  } catch {
    return {
      data: null,
      error: {
        status: response.status,
        code: response.ok ? "INVALID_RESPONSE" : "HTTP_ERROR",
        message: `The server answered ${response.status} without JSON`,
      },
    } satisfies Result<T>;
  }
  if (response.ok) return { data: body as T, error: null } satisfies Result<T>;
  const error: AuthError = isErrorBody(body)
    ? { status: response.status, code: body.code, message: body.message ?? body.code }
    : { status: response.status, code: "HTTP_ERROR", message: `HTTP ${response.status}` };
  if (isErrorBody(body) && "details" in body) error.details = body.details;
  return { data: null, error } satisfies Result<T>;
}

export async function request<T>(
  transport: Transport,
  path: string,
  options: RequestOptions,
): Promise<Result<T>> {
  let result: Result<T> = await once<T>(transport, path, options);
  const retry = transport.retry;
  if (!retry) return result;
  for (let attempt = 1; attempt <= retry.attempts && retryable(result); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, retryDelay(retry, attempt)));
    result = await once<T>(transport, path, options);
  }
  return result;
}
