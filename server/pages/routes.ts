/**
 * The server-rendered pages: `/ok` (health) and `/error` (shows the error code from
 * the query, HTML-escaped so a crafted link cannot inject markup).
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { escapeHtml } from "../escape-html.js";
import { errorResponses, routeSchema } from "../http/schemas.js";
import type { ZodTypeProvider } from "../http/validation.js";

/** Repeated query keys arrive as arrays: the page shows the first. */
const firstString = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? (value[0] ?? "") : value))
  .pipe(z.string().max(512));

const errorPageQuery = z.object({
  error: firstString.optional(),
  error_description: firstString.optional(),
});

export function renderErrorPage(code: string, description?: string): string {
  const safeCode = escapeHtml(code);
  const detail = description
    ? `<p class="description">${escapeHtml(description)}</p>`
    : "<p>Something went wrong while signing you in. You can go back and try again.</p>";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Error: ${safeCode}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f6f7f9;color:#1f2328}
main{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:2rem;max-width:32rem}
h1{font-size:1.25rem;margin:0 0 1rem}
code{background:#f0f2f4;padding:.15rem .4rem;border-radius:4px;word-break:break-all}
</style>
</head>
<body>
<main>
<h1>Authentication error</h1>
<p>Error code: <code id="error-code">${safeCode}</code></p>
${detail}
</main>
</body>
</html>
`;
}

export async function pageRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get("/ok", routeSchema({}, z.object({ ok: z.boolean() })), async () => ({
    ok: true,
  }));

  typed.get(
    "/error",
    {
      schema: {
        querystring: errorPageQuery,
        response: {
          200: { content: { "text/html": { schema: z.string() } } },
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const code = request.query.error || "UNKNOWN";
      return reply
        .type("text/html; charset=utf-8")
        .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'")
        .header("cache-control", "no-store")
        .send(renderErrorPage(code, request.query.error_description));
    },
  );
}
