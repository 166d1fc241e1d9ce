/**
 * Zod as Fastify's validator: route schemas are zod schemas, handlers get
 * their parsed types, and a failure becomes 400 VALIDATION_ERROR in the error handler
 * before any domain code runs.
 */
import type { FastifySchemaCompiler, FastifyTypeProvider } from "fastify";
import type { z } from "zod";

/**
 * An answer is what its response schema accepts, or JSON text built elsewhere (the signed
 * session cache, PostgreSQL's full organization) that is sent as it is.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this["schema"] extends z.ZodType ? z.output<this["schema"]> : unknown;
  serializer: this["schema"] extends z.ZodType
    ? z.input<this["schema"]> | string | Buffer
    : unknown;
}

export interface InputIssue {
  /** Dotted path of the offending field inside the body or query ("" for the whole). */
  path: string;
  message: string;
}

/** Thrown (through Fastify) when a request part does not match its schema. */
export class InvalidInputError extends Error {
  readonly issues: InputIssue[];
  validationContext?: string;
  constructor(issues: InputIssue[]) {
    super("invalid input");
    this.name = "InvalidInputError";
    this.issues = issues;
  }
}

export function toInputIssues(issues: readonly z.core.$ZodIssue[]): InputIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
}

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema }) => {
  return (data: unknown) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new InvalidInputError(toInputIssues(result.error.issues)) };
  };
};
