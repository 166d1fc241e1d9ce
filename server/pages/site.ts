/**
 * The pages authd serves itself (the Vite app in ui-kit/pages, built into dist/pages):
 * read into memory once when the app is built, with the runtime settings written into
 * index.html, and answered from memory with a map lookup and prepared headers.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type AuthdConfig, isPathWithin, PAGE_SEGMENTS } from "../config/schema.js";
import { contentDigest } from "../crypto/digest.js";
import { packageRoot } from "../db/migrations.js";
import { escapeHtml } from "../escape-html.js";

/** Where `npm run build` puts the pages, inside the package. */
export function pagesDirectory(): string {
  return path.join(packageRoot(), "dist", "pages");
}

/**
 * The HTML's policy: its own scripts and styles only (no inline code, no eval), images
 * also from https (avatars) and data: URLs, never framed.
 */
export const PAGES_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const IMMUTABLE = "public, max-age=31536000, immutable";

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json; charset=utf-8",
};

type Encoding = "br" | "gzip";

/** One encoding of a file, with every header it is sent with. */
interface Variant {
  body: Buffer;
  etag: string;
  headers: Record<string, string>;
}

interface ServedFile {
  identity: Variant;
  br: Variant;
  gzip: Variant;
}

/** What one app serves: the prepared index.html and the assets by file name. */
export interface LoadedPages {
  index: ServedFile;
  assets: Map<string, ServedFile>;
}

function compress(data: Buffer, encoding: Encoding): Buffer {
  return encoding === "br"
    ? brotliCompressSync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      })
    : gzipSync(data, { level: 9 });
}

function servedFile(
  identity: Buffer,
  encoded: Record<Encoding, Buffer>,
  headers: Record<string, string>,
): ServedFile {
  const digest = contentDigest(identity).slice(0, 27);
  const variant = (body: Buffer, encoding: Encoding | null): Variant => {
    // Each encoding is its own representation, so its own validator.
    const etag = `"${digest}${encoding ? `-${encoding}` : ""}"`;
    return {
      body,
      etag,
      headers: {
        ...headers,
        etag,
        vary: "accept-encoding",
        ...(encoding ? { "content-encoding": encoding } : {}),
      },
    };
  };
  return {
    identity: variant(identity, null),
    br: variant(encoded.br, "br"),
    gzip: variant(encoded.gzip, "gzip"),
  };
}

/** The settings the app reads from <html>, and absolute asset URLs for deep links. */
export function prepareIndex(html: string, config: AuthdConfig): string {
  const prefix = config.pages.path === "/" ? "" : config.pages.path;
  const features = [
    config.organization.enabled ? "organization" : "",
    config.organization.enabled && config.organization.teams.enabled ? "teams" : "",
    config.user.deleteUser.enabled ? "delete-user" : "",
    config.user.changeEmail.enabled ? "change-email" : "",
  ].filter(Boolean);
  const { minPasswordLength, maxPasswordLength } = config.emailAndPassword;
  const settings =
    ` data-authd-api-base-path="${escapeHtml(config.basePath)}"` +
    ` data-authd-pages-path="${escapeHtml(config.pages.path)}"` +
    ` data-authd-features="${features.join(" ")}"` +
    // The password policy, so the pages' hints and checks say what the server enforces.
    ` data-authd-password-min-length="${minPasswordLength}"` +
    ` data-authd-password-max-length="${maxPasswordLength}"`;
  return html
    .replaceAll('"./assets/', `"${escapeHtml(prefix)}/assets/`)
    .replace(/<html([^>]*)>/, `<html$1${settings}>`);
}

/**
 * Reads the built pages into memory; null when they were never built (a checkout
 * before `npm run build`). Assets come with the .br and .gz copies the build made.
 */
export function loadPages(config: AuthdConfig, directory = pagesDirectory()): LoadedPages | null {
  const indexFile = path.join(directory, "index.html");
  if (!existsSync(indexFile)) return null;
  const html = Buffer.from(prepareIndex(readFileSync(indexFile, "utf8"), config), "utf8");
  const index = servedFile(
    html,
    { br: compress(html, "br"), gzip: compress(html, "gzip") },
    {
      "content-type": CONTENT_TYPES[".html"] as string,
      "cache-control": "no-store",
      "content-security-policy": PAGES_CSP,
      "referrer-policy": "no-referrer",
    },
  );
  const assets = new Map<string, ServedFile>();
  const assetDirectory = path.join(directory, "assets");
  const names = existsSync(assetDirectory) ? readdirSync(assetDirectory) : [];
  for (const name of names) {
    if (name.endsWith(".br") || name.endsWith(".gz")) continue;
    const file = path.join(assetDirectory, name);
    const data = readFileSync(file);
    const copy = (encoding: Encoding, extension: string) =>
      names.includes(`${name}${extension}`)
        ? readFileSync(`${file}${extension}`)
        : compress(data, encoding);
    assets.set(
      name,
      servedFile(
        data,
        { br: copy("br", ".br"), gzip: copy("gzip", ".gz") },
        {
          "content-type":
            CONTENT_TYPES[path.extname(name).toLowerCase()] ?? "application/octet-stream",
          "cache-control": IMMUTABLE,
          "referrer-policy": "no-referrer",
        },
      ),
    );
  }
  return { index, assets };
}

/** br when the client takes it, else gzip, else none (a `q=0` refuses one). */
export function chooseEncoding(header: string | string[] | undefined): Encoding | null {
  if (typeof header !== "string" || header === "") return null;
  let br = false;
  let gzip = false;
  for (const part of header.split(",")) {
    const [name = "", ...parameters] = part.split(";");
    const refused = parameters.some((parameter) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(parameter));
    if (refused) continue;
    const token = name.trim().toLowerCase();
    if (token === "br") br = true;
    else if (token === "gzip") gzip = true;
    else if (token === "*") br = gzip = true;
  }
  return br ? "br" : gzip ? "gzip" : null;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag || header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** How many distinct Accept-Encoding values one app remembers its choice for. */
const REMEMBERED_ENCODINGS = 64;

/**
 * chooseEncoding, remembered per header value: browsers send a handful of values, and
 * parsing one (splits, trims, a pattern per part) costs a page answer about 8% of its
 * instructions. Owned by one app's routes; past the bound, choices are made afresh.
 */
function encodingChooser(): (header: string | string[] | undefined) => Encoding | null {
  const chosen = new Map<string, Encoding | null>();
  return (header) => {
    if (typeof header !== "string") return null;
    const known = chosen.get(header);
    if (known !== undefined) return known;
    const encoding = chooseEncoding(header);
    if (chosen.size < REMEMBERED_ENCODINGS) chosen.set(header, encoding);
    return encoding;
  };
}

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  file: ServedFile,
  status: number,
  encodingOf: (header: string | string[] | undefined) => Encoding | null,
) {
  const encoding = encodingOf(request.headers["accept-encoding"]);
  const variant = encoding ? file[encoding] : file.identity;
  reply.headers(variant.headers);
  if (status === 200 && matchesEtag(request.headers["if-none-match"], variant.etag)) {
    return reply.code(304).send();
  }
  return reply.code(status).send(variant.body);
}

/**
 * The routes: every page answers index.html (the app routes in the browser), assets by
 * name, an unknown asset 404, and any other path under the pages the index with 404
 * (the app shows "not found"); paths of the API keep its own 404.
 */
export function servePages(app: FastifyInstance, config: AuthdConfig, pages: LoadedPages): void {
  const prefix = config.pages.path === "/" ? "" : config.pages.path;
  // Static files from memory: nothing to count, and the limiter's work per request is
  // more than the answer's. No CORS either: the pages are for the browser that opens
  // them, and their Vary header is the encoding's alone.
  const options = { config: { rateLimit: false, cors: false } } as const;
  const encodingOf = encodingChooser();
  const page = (request: FastifyRequest, reply: FastifyReply) =>
    send(request, reply, pages.index, 200, encodingOf);
  const routes = new Set([prefix || "/", `${prefix}/`]);
  for (const segment of PAGE_SEGMENTS) {
    if (segment === "assets" || segment === "accept-invitation") continue;
    routes.add(`${prefix}/${segment}`);
  }
  routes.add(`${prefix}/organization/new`);
  for (const url of routes) app.get(url, options, page);
  // `/accept-invitation/` names no invitation: the app shows "not found", and so does the status.
  app.get<{ Params: { id: string } }>(
    `${prefix}/accept-invitation/:id`,
    options,
    (request, reply) =>
      send(request, reply, pages.index, request.params.id === "" ? 404 : 200, encodingOf),
  );

  app.get<{ Params: { name: string } }>(`${prefix}/assets/:name`, options, (request, reply) => {
    const file = pages.assets.get(request.params.name);
    if (!file) return reply.callNotFound();
    return send(request, reply, file, 200, encodingOf);
  });

  const assetsPath = `${prefix}/assets`;
  app.get(`${prefix}/*`, options, (request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    if (isPathWithin(pathname, config.basePath) || isPathWithin(pathname, assetsPath)) {
      return reply.callNotFound();
    }
    return send(request, reply, pages.index, 404, encodingOf);
  });
}
