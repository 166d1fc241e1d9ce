/**
 * The bounded string every request schema builds on, kept below HTTP so that a domain's
 * request schemas can use it without depending on server/http/.
 */
import { z } from "zod";

/** A string of at most `max` characters with no NUL byte (PostgreSQL cannot store one). */
export function boundedString(max: number) {
  return z
    .string()
    .max(max)
    .refine((value) => !value.includes("\u0000"), "must not contain NUL bytes");
}
