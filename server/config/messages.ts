/**
 * What an operator reads when the configuration is wrong: one line per problem, naming
 * where the value came from, the key and what was expected, with a "did you mean" for
 * a mistyped key. The CLI turns a ConfigError into exit code 78, never a stack trace.
 */
import { z } from "zod";
import { type AuthdConfig, configSchema } from "./schema.js";

/** A configuration problem: exit code 78 from the CLI, never a stack trace. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join("\n"));
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/** Levenshtein distance, for "did you mean" hints on unknown keys. */
function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0] ?? 0;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j] ?? 0;
      const cost = a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1;
      previous[j] = Math.min(above + 1, (previous[j - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length] ?? 0;
}

/** The keys an object schema accepts at `keys` below the root, if it is an object there. */
function knownKeysAt(keys: PropertyKey[]): string[] {
  let schema: z.ZodType = configSchema;
  for (const key of [...keys, null]) {
    // Unwrap optional/default/prefault/nullable layers to reach the object.
    for (;;) {
      if (
        schema instanceof z.ZodOptional ||
        schema instanceof z.ZodNullable ||
        schema instanceof z.ZodDefault ||
        schema instanceof z.ZodPrefault
      ) {
        schema = schema.def.innerType as z.ZodType;
      } else if (schema instanceof z.ZodPipe) {
        schema = schema.def.in as z.ZodType;
      } else {
        break;
      }
    }
    if (key === null) break;
    if (schema instanceof z.ZodObject) {
      const next = (schema.shape as Record<string, z.ZodType>)[String(key)];
      if (!next) return [];
      schema = next;
    } else if (schema instanceof z.ZodRecord) {
      schema = schema.def.valueType as z.ZodType;
    } else {
      return [];
    }
  }
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

export function suggestKey(unknown: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(unknown, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.max(2, Math.floor(unknown.length / 3));
  return best !== undefined && bestDistance <= allowed ? best : undefined;
}

export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

function withArticle(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`;
}

/** One line per zod issue, in the words an operator reads: what was expected. */
function describeIssue(issue: z.core.$ZodIssue): string[] {
  switch (issue.code) {
    case "invalid_type": {
      const expected = issue.expected === "custom" ? "value" : issue.expected;
      return [
        "input" in issue && issue.input === undefined
          ? `expected ${withArticle(String(expected))}, but it is missing`
          : `expected ${withArticle(String(expected))}, got ${describeType(issue.input)}`,
      ];
    }
    case "too_small": {
      const bound = `${issue.inclusive ? ">=" : ">"} ${String(issue.minimum)}`;
      if (issue.origin === "number" || issue.origin === "int")
        return [`expected a number ${bound}`];
      if (issue.origin === "string") {
        return issue.message.startsWith("expected")
          ? [issue.message]
          : [
              Number(issue.minimum) === 1
                ? "expected a non-empty string"
                : `expected at least ${String(issue.minimum)} characters`,
            ];
      }
      if (issue.origin === "array") return [`expected at least ${String(issue.minimum)} items`];
      return [issue.message];
    }
    case "too_big": {
      const bound = `${issue.inclusive ? "<=" : "<"} ${String(issue.maximum)}`;
      if (issue.origin === "number" || issue.origin === "int")
        return [`expected a number ${bound}`];
      if (issue.origin === "string")
        return [`expected at most ${String(issue.maximum)} characters`];
      return [issue.message];
    }
    case "invalid_format":
      if (issue.message.startsWith("expected")) return [issue.message];
      if (issue.format === "url") return ["expected an http(s) URL"];
      return [`expected a valid ${issue.format}`];
    case "invalid_value":
      return [`expected one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`];
    case "invalid_union":
      return ["expected a value of another type (see the configuration reference)"];
    default:
      return [issue.message];
  }
}

/**
 * The variable or flag that set the value at `path`, or one of its parents: an
 * `AUTHD_SECRET` list sets `secret`, and a problem with `secret.1` is still its.
 */
function sourceAt(
  sources: Record<string, string>,
  path: readonly PropertyKey[],
): { name: string; exact: boolean } | undefined {
  for (let length = path.length; length > 0; length--) {
    const name = sources[path.slice(0, length).map(String).join(".")];
    if (name) return { name, exact: length === path.length };
  }
  return undefined;
}

/** Where a configuration's values came from: the file's label, and the variables and flags that set keys. */
export interface ProblemSources {
  label: string;
  envSources: Record<string, string>;
  flagSources?: Record<string, string>;
}

/**
 * One problem as a line naming where its value came from: the flag, else the variable
 * (a whole variable names itself; an entry of a list it set also its key), else the
 * file with the key path.
 */
export function problemLine(
  sources: ProblemSources,
  path: readonly PropertyKey[],
  message: string,
): string {
  const keyPath = path.map(String).join(".");
  const flag = sourceAt(sources.flagSources ?? {}, path);
  if (flag) return `${flag.name}: ${keyPath}: ${message}`;
  const variable = sourceAt(sources.envSources, path);
  if (variable) return `${variable.name}: ${variable.exact ? "" : `${keyPath}: `}${message}`;
  return `${sources.label}: ${keyPath || "(root)"}: ${message}`;
}

/**
 * Validate a raw config object. Each problem names where the value came from (the file,
 * the environment variable or the flag), the key path and what was expected.
 */
export function validateConfig(
  raw: unknown,
  sourceLabel: string,
  envSources: Record<string, string> = {},
  flagSources: Record<string, string> = {},
): AuthdConfig {
  const result = configSchema.safeParse(raw ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const problems: string[] = [];
  for (const issue of result.error.issues) {
    const keyPath = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      const known = knownKeysAt(issue.path);
      for (const key of issue.keys) {
        const hint = suggestKey(key, known);
        const full = keyPath ? `${keyPath}.${key}` : key;
        problems.push(
          `${sourceLabel}: ${full}: unknown key${hint ? ` (did you mean "${hint}"?)` : ""}`,
        );
      }
      continue;
    }
    const sources = { label: sourceLabel, envSources, flagSources };
    for (const line of describeIssue(issue)) problems.push(problemLine(sources, issue.path, line));
  }
  throw new ConfigError(problems);
}
