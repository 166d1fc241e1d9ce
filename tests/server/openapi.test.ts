/**
 * The OpenAPI document at {basePath}/openapi.json: every route the app registers is in it
 * with its success and error answers, and the document holds together as OpenAPI 3.1
 * (every $ref resolves, every schema compiles as JSON Schema draft 2020-12).
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";

interface Operation {
  operationId: string;
  parameters?: Array<{ name: string; in: string; required: boolean; schema: object }>;
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: object }> }>;
}

interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every `$ref` string anywhere in `value`. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) refsIn(item, found);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") found.push(child);
      else refsIn(child, found);
    }
  }
  return found;
}

/** Follows a local JSON pointer (`#/components/schemas/User`) in `document`. */
function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

describe.each([
  ["the default base path", undefined, "/api/auth"],
  ["a custom base path", "/auth", "/auth"],
])("OpenAPI document with %s", (_label, basePath, prefix) => {
  let testApp: TestApp;
  const registered: Array<{ method: string; url: string }> = [];
  let document: Document;

  beforeAll(async () => {
    testApp = await createTestApp({
      config: {
        ...(basePath ? { basePath } : {}),
        // Every optional route family registered, so every one is checked.
        organization: { enabled: true, teams: { enabled: true } },
        admin: { enabled: true },
        jwt: { enabled: true },
      },
      extend: (app) => {
        // Routes added from now on; the ones buildApp registered are read from printRoutes.
        app.addHook("onRoute", (route) => {
          const methods = Array.isArray(route.method) ? route.method : [route.method];
          for (const method of methods) registered.push({ method, url: route.url });
        });
      },
    });
    const response = await testApp.app.inject({ method: "GET", url: `${prefix}/openapi.json` });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    document = response.json() as Document;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("is OpenAPI 3.1 in structure", () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.title).toBe("authd");
    expect(typeof document.info.version).toBe("string");
    expect(Object.keys(document.paths).length).toBeGreaterThan(50);
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      expect(path.startsWith("/")).toBe(true);
      for (const [method, operation] of Object.entries(item)) {
        expect(METHODS).toContain(method);
        expect(operationIds.has(operation.operationId)).toBe(false);
        operationIds.add(operation.operationId);
        expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
        for (const response of Object.values(operation.responses)) {
          expect(typeof response.description).toBe("string");
        }
        // Each {name} of the path is a required path parameter.
        for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
          expect(operation.parameters).toContainEqual(
            expect.objectContaining({ name, in: "path", required: true }),
          );
        }
      }
    }
  });

  it("resolves every $ref inside the document", () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(resolvePointer(document, ref), ref).toBeDefined();
    }
  });

  it("holds JSON Schemas that compile as draft 2020-12", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    // The components under the id a $ref names them by.
    ajv.addSchema({ components: document.components }, "document");
    const toDocument = (schema: object) =>
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"document#/components/'));
    for (const item of Object.values(document.paths)) {
      for (const operation of Object.values(item)) {
        const schemas = [
          ...(operation.parameters ?? []).map((parameter) => parameter.schema),
          ...Object.values(operation.requestBody?.content ?? {}).map((entry) => entry.schema),
          ...Object.values(operation.responses).flatMap((response) =>
            Object.values(response.content ?? {}).map((entry) => entry.schema),
          ),
        ];
        for (const schema of schemas) {
          expect(() => ajv.compile(toDocument(schema)), operation.operationId).not.toThrow();
        }
      }
    }
  });

  it("documents every route the app registered, with its answers and errors", () => {
    // printRoutes draws Fastify's routing tree: a child line continues its parent's path.
    const fromFastify: Array<{ method: string; url: string }> = [];
    const parents: string[] = [];
    for (const line of testApp.app.printRoutes({ commonPrefix: false }).split("\n")) {
      const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([^)]+)\))?$/.exec(line);
      if (!match) continue;
      const [, indent = "", segment = "", methods] = match;
      const depth = indent.length / 4;
      const url = (depth > 0 ? (parents[depth - 1] ?? "") : "") + segment;
      parents[depth] = url;
      parents.length = depth + 1;
      for (const method of methods?.split(", ") ?? []) fromFastify.push({ method, url });
    }
    expect(fromFastify.length).toBeGreaterThan(50);
    const checked = fromFastify.filter(
      (route) =>
        route.method !== "HEAD" &&
        route.url !== `${prefix}/openapi.json` &&
        // The probes are served outside the base path (and on the management port).
        route.url.startsWith(`${prefix}/`),
    );
    expect(checked.length).toBeGreaterThan(50);
    for (const route of checked) {
      const path = route.url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      const label = `${route.method} ${route.url}`;
      expect(operation, label).toBeDefined();
      if (!operation) continue;
      const statuses = Object.keys(operation.responses);
      // A success answer (a 2xx with content, or a redirect).
      expect(
        statuses.some((status) => /^2/.test(status) || status === "302"),
        label,
      ).toBe(true);
      const success = statuses.find((status) => /^2/.test(status));
      if (success) {
        expect(operation.responses[success]?.content, label).toBeDefined();
      }
      // The error answers: 400 takes the validation error; the others the generic one.
      const badRequestRef = refsIn(operation.responses["400"]?.content ?? {})[0] ?? "";
      const badRequest = JSON.stringify(resolvePointer(document, badRequestRef) ?? {});
      expect(badRequest, label).toContain("#/components/schemas/ValidationError");
      expect(badRequest, label).toContain("#/components/schemas/Error");
      expect(operation.responses["500"]?.content?.["application/json"]?.schema, label).toEqual({
        $ref: "#/components/schemas/Error",
      });
    }
    // Routes added after buildApp (none by default) would be missed by the document.
    expect(registered).toEqual([]);
  });

  it("describes the error body as the error handler writes it", async () => {
    const error = document.components.schemas.Error as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(error.required).toEqual(["code", "message"]);
    expect(Object.keys(error.properties)).toEqual(["code", "message", "details"]);
    const response = await testApp.app.inject({
      method: "POST",
      url: `${prefix}/sign-in/email`,
      headers: { origin: "http://localhost:3000" },
      payload: { email: 1 },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json() as Record<string, unknown>;
    expect(body.code).toBe("VALIDATION_ERROR");
    const validation = document.components.schemas.ValidationError as {
      properties: Record<string, unknown>;
    };
    for (const key of Object.keys(body)) expect(Object.keys(validation.properties)).toContain(key);
  });
});
