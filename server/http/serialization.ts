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

/** fast-json-stringify for 2xx answers; error bodies keep JSON.stringify. */
export function fastSerializerCompiler<T>(route: RouteSchemaDef<T>): Serializer {
  if (!/^2/.test(String(route.httpStatus))) return stringify;
  const schema: unknown = route.schema;
  if (!(schema instanceof z.ZodType)) {
    throw new Error(`${route.method} ${route.url}: a response schema must be a zod schema`);
  }
  // zod's JSON Schema types are wider than fast-json-stringify's; the shapes are the same
  // draft 2020-12 keywords.
  return fastJson(toJsonSchema(schema, "output") as fastJson.Schema);
}
