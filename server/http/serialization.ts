/**
 * Serializing answers from their zod response schemas. By default an answer is written by
 * JSON.stringify, as if the route had no response schema: a zod object is no promise that
 * the handler adds nothing, and fast-json-stringify drops what its schema does not list.
 * Hot answers whose schemas are complete opt in to fast-json-stringify with
 * `serializerCompiler: fastSerializerCompiler`, compiled from the same zod schema.
 */
import fastJson from "fast-json-stringify";
import type { FastifySerializerCompiler } from "fastify";
import { z } from "zod";
import { toJsonSchema } from "./json-schema.js";

type Serializer = (data: unknown) => string;
/** What Fastify hands a serializer compiler: one response schema of one route. */
type RouteSchemaDef<T> = Parameters<FastifySerializerCompiler<T>>[0];

const stringify: Serializer = (data) => JSON.stringify(data);

export function plainSerializerCompiler<T>(_route: RouteSchemaDef<T>): Serializer {
  return stringify;
}

/**
 * The schema without its `required` lists: fast-json-stringify throws on a missing
 * required field, where JSON.stringify leaves it out. An answer is never refused for it.
 */
function withoutRequired(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRequired);
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // A property named "required" holds a schema, never an array of names.
    if (key === "required" && Array.isArray(child)) continue;
    copy[key] = withoutRequired(child);
  }
  return copy;
}

/** fast-json-stringify for 2xx answers; error bodies keep JSON.stringify. */
export function fastSerializerCompiler<T>(route: RouteSchemaDef<T>): Serializer {
  if (!/^2/.test(String(route.httpStatus))) return stringify;
  const schema: unknown = route.schema;
  if (!(schema instanceof z.ZodType)) {
    throw new Error(`${route.method} ${route.url}: a response schema must be a zod schema`);
  }
  // zod's JSON Schema types are wider than fast-json-stringify's; the shapes are the same
  // draft 2020-12 keywords.
  return fastJson(withoutRequired(toJsonSchema(schema, "output")) as fastJson.Schema);
}
