/**
 * The one conversion from zod to JSON Schema (draft 2020-12, which OpenAPI 3.1 uses), shared
 * by the response serializer and the OpenAPI document so both read the same shape.
 */
import { z } from "zod";

export type JsonSchema = z.core.JSONSchema.BaseSchema;

/** What the client sends (before transforms) or what it receives. */
export type SchemaSide = "input" | "output";

/**
 * Options of every conversion: answers carry Date objects, which go over the wire as ISO
 * strings (JSON.stringify and fast-json-stringify both write toISOString), so a date is
 * rendered as a date-time string rather than refused as unrepresentable.
 */
export function conversionOptions(io: SchemaSide) {
  return {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema._zod.def.type === "date") {
        jsonSchema.type = "string";
        jsonSchema.format = "date-time";
      }
    },
  } satisfies z.core.ToJSONSchemaParams;
}

function isNullOnly(schema: unknown): boolean {
  return (
    typeof schema === "object" &&
    schema !== null &&
    Object.keys(schema).length === 1 &&
    (schema as JsonSchema).type === "null"
  );
}

/**
 * `anyOf: [{type: T, ...}, {type: "null"}]` becomes `{type: [T, "null"], ...}`: the same
 * set of values, but fast-json-stringify writes a type list directly where an anyOf makes
 * it validate each branch per value (a nullable date or object on a hot answer).
 */
export function collapseNullables(schema: JsonSchema): JsonSchema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== "object" || value === null) return value;
    const node: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) node[key] = walk(child);
    const anyOf = node.anyOf;
    if (Array.isArray(anyOf) && anyOf.length === 2 && Object.keys(node).length === 1) {
      const nullIndex = anyOf.findIndex(isNullOnly);
      const other = anyOf[1 - nullIndex] as JsonSchema | undefined;
      if (nullIndex !== -1 && other && typeof other.type === "string" && !("$ref" in other)) {
        return { ...other, type: [other.type, "null"] };
      }
    }
    return node;
  };
  return walk(schema) as JsonSchema;
}

/** A zod schema as a self-contained JSON Schema (no $refs: shared pieces are inlined). */
export function toJsonSchema(schema: z.ZodType, io: SchemaSide): JsonSchema {
  // An empty registry: ids given with .meta() name OpenAPI components, but a schema
  // compiled on its own inlines them.
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    ...conversionOptions(io),
    metadata: z.registry<Record<string, unknown>>(),
  });
  return collapseNullables(json);
}
