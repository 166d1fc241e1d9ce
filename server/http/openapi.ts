/**
 * The OpenAPI 3.1 document of the auth API, served at `{basePath}/openapi.json`: every route
 * registered after registerOpenApi, with the zod schemas it validates requests with and
 * the zod schemas of its answers, converted like the serializer converts them
 * (server/http/json-schema.ts). It is built once, when the app is ready.
 */
import { STATUS_CODES } from "node:http";
import type { FastifyInstance, FastifySchema } from "fastify";
import { z } from "zod";
import {
  collapseNullables,
  conversionOptions,
  type JsonSchema,
  toJsonSchema,
} from "./json-schema.js";

export interface DocumentedRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  jsonSchemaDialect: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, OpenApiSecurityScheme>;
  };
}

type OpenApiSecurityScheme =
  | { type: "apiKey"; in: "cookie"; name: string; description: string }
  | { type: "http"; scheme: "bearer"; description: string };

/** How callers authenticate: what the document says about sessions. */
export interface DocumentedAuth {
  /** The session cookie's name (without the `__Secure-` prefix it takes on https). */
  cookieName: string;
  /** `Authorization: Bearer` is accepted (`bearer.enabled`). */
  bearer: boolean;
}

interface OpenApiParameter {
  name: string;
  in: "query" | "path";
  required: boolean;
  schema: JsonSchema;
}

interface OpenApiOperation {
  operationId: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<
    string,
    { description: string; content?: Record<string, { schema: JsonSchema }> }
  >;
}

const COMPONENTS = "#/components/schemas/";
/** Where zod puts named schemas met inside others when converting a registry. */
const SHARED = "__shared";

function isZodSchema(value: unknown): value is z.ZodType {
  return value instanceof z.ZodType;
}

/** `/reset-password/:token` → `/reset-password/{token}`. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/** `POST /api/auth/organization/create` → `postOrganizationCreate`. */
function operationIdOf(method: string, url: string, prefix: string): string {
  const words = url
    .slice(prefix.length)
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [
    method.toLowerCase(),
    ...words.map((word) => word[0]?.toUpperCase() + word.slice(1)),
  ].join("");
}

function tagOf(url: string, prefix: string): string {
  const first = url.slice(prefix.length).split("/")[1] ?? "";
  return first === "organization" || first === "admin" ? first : "auth";
}

/** Query or path parameters: one per property of the (object) schema of that part. */
function parametersOf(schema: unknown, place: "query" | "path"): OpenApiParameter[] {
  if (!isZodSchema(schema)) return [];
  const json = toJsonSchema(schema, "input");
  const required = new Set(Array.isArray(json.required) ? json.required : []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: place,
    required: place === "path" || required.has(name),
    schema: property as JsonSchema,
  }));
}

/** The zod answers of a response map, by status and content type. */
function answersOf(
  response: unknown,
): Array<{ status: string; contentType: string; schema: z.ZodType }> {
  if (typeof response !== "object" || response === null) return [];
  const answers: Array<{ status: string; contentType: string; schema: z.ZodType }> = [];
  for (const [status, value] of Object.entries(response)) {
    if (isZodSchema(value)) {
      answers.push({ status, contentType: "application/json", schema: value });
    } else if (typeof value === "object" && value !== null && "content" in value) {
      // Fastify's per-content-type form: { content: { "text/html": { schema } } }.
      for (const [contentType, entry] of Object.entries(value.content as object)) {
        const schema = (entry as { schema?: unknown }).schema;
        if (isZodSchema(schema)) answers.push({ status, contentType, schema });
      }
    }
  }
  return answers;
}

function describeStatus(status: string): string {
  return STATUS_CODES[status] ?? (status === "default" ? "Any other answer" : `${status} answer`);
}

/** A copy of `value` with every `$ref` into zod's shared defs pointing at a component. */
function rewriteSharedRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteSharedRefs);
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    copy[key] =
      key === "$ref" && typeof child === "string"
        ? child.replace(`${COMPONENTS}${SHARED}#/$defs/`, COMPONENTS)
        : rewriteSharedRefs(child);
  }
  return copy;
}

/** The session cookie, and the bearer header where it is on. */
function securitySchemesOf(auth: DocumentedAuth): Record<string, OpenApiSecurityScheme> {
  const schemes: Record<string, OpenApiSecurityScheme> = {
    sessionCookie: {
      type: "apiKey",
      in: "cookie",
      name: auth.cookieName,
      description: `The signed session cookie sign-in and sign-up set (named __Secure-${auth.cookieName} on https). Cookie-carrying POSTs must come from a trusted Origin.`,
    },
  };
  if (auth.bearer) {
    schemes.bearerSession = {
      type: "http",
      scheme: "bearer",
      description:
        "The session token (the `token` of a sign-in or sign-up answer) or the signed value of the `set-auth-token` header, used when the request carries no session cookie.",
    };
  }
  return schemes;
}

export function buildOpenApiDocument(
  routes: readonly DocumentedRoute[],
  options: { prefix: string; version: string; auth: DocumentedAuth },
): OpenApiDocument {
  // Answers become components, named by their .meta() id or after their operation; a
  // schema several routes answer with is one component.
  const registry = z.registry<{ id: string }>();
  const componentOf = (schema: z.ZodType, fallback: string): string => {
    const known = registry.get(schema)?.id;
    if (known) return known;
    const declared = z.globalRegistry.get(schema)?.id;
    const id = typeof declared === "string" ? declared : fallback;
    registry.add(schema, { id });
    return id;
  };

  const paths: OpenApiDocument["paths"] = {};
  for (const route of routes) {
    const schema = route.schema ?? {};
    const operationId = operationIdOf(route.method, route.url, options.prefix);
    const operation: OpenApiOperation = {
      operationId,
      tags: [tagOf(route.url, options.prefix)],
      responses: {},
    };
    const parameters = [
      ...parametersOf(schema.params, "path"),
      ...parametersOf(schema.querystring, "query"),
    ];
    if (parameters.length > 0) operation.parameters = parameters;
    if (isZodSchema(schema.body)) {
      operation.requestBody = {
        // A body that accepts undefined may be left out.
        required: !schema.body.safeParse(undefined).success,
        content: { "application/json": { schema: toJsonSchema(schema.body, "input") } },
      };
    }
    for (const answer of answersOf(schema.response)) {
      const entry = operation.responses[answer.status] ?? {
        description: describeStatus(answer.status),
      };
      operation.responses[answer.status] = entry;
      if (answer.schema._zod.def.type === "undefined") continue;
      const id = componentOf(answer.schema, `${operationId}${answer.status}`);
      entry.content = {
        ...entry.content,
        [answer.contentType]: { schema: { $ref: COMPONENTS + id } },
      };
    }
    const path = openApiPath(route.url);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }

  const converted = z.toJSONSchema(registry, {
    ...conversionOptions("output"),
    uri: (id) => COMPONENTS + id,
  }).schemas;
  const schemas: Record<string, JsonSchema> = {};
  const { [SHARED]: shared, ...named } = converted;
  const sharedDefs = (shared?.$defs ?? {}) as Record<string, JsonSchema>;
  for (const [id, json] of Object.entries({ ...named, ...sharedDefs })) {
    // A component is a schema inside this document: no dialect or id of its own (an $id
    // holding a fragment is not valid JSON Schema).
    const { $schema: _dialect, $id: _id, ...rest } = json;
    schemas[id] = collapseNullables(rewriteSharedRefs(rest) as JsonSchema);
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "authd",
      version: options.version,
      description:
        "Accounts, sessions and organizations. Every error answers {code, message, details?}.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    paths,
    components: { schemas, securitySchemes: securitySchemesOf(options.auth) },
  };
}

/**
 * Collects the routes registered from now on and serves their document at
 * `{prefix}/openapi.json`. Call it before registering the routes to document.
 */
export function registerOpenApi(
  app: FastifyInstance,
  options: { prefix: string; version: string; auth: DocumentedAuth },
): void {
  const routes: DocumentedRoute[] = [];
  const documentUrl = `${options.prefix}/openapi.json`;
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // HEAD routes are Fastify's copies of the GET ones.
      if (method === "HEAD" || route.url === documentUrl) continue;
      routes.push({ method, url: route.url, schema: route.schema });
    }
  });
  // Built on the first request, not at start: converting every route's schemas takes
  // tens of milliseconds and megabytes that a server nobody asks for its document would
  // spend on every start. No route can be added once the app serves, so the first
  // request sees them all.
  let documentText: string | undefined;
  app.get(documentUrl, (_request, reply) => {
    documentText ??= JSON.stringify(buildOpenApiDocument(routes, options));
    void reply.type("application/json; charset=utf-8").send(documentText);
  });
}
