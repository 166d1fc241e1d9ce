/**
 * Building blocks of the request schemas: every string has a maximum length, checked
 * before any hashing or database work, and NUL bytes are refused.
 */
import { z } from "zod";

/** A string of at most `max` characters with no NUL byte (PostgreSQL cannot store one). */
export function boundedString(max: number) {
  return z
    .string()
    .max(max)
    .refine((value) => !value.includes("\u0000"), "must not contain NUL bytes");
}

/** Booleans as JSON, or as the strings a query or a form carries. */
export const booleanish = z.union([
  z.boolean(),
  z
    .enum(["true", "false", "1", "0", ""])
    .transform((value) => value === "true" || value === "1" || value === ""),
]);

/** A redirect target; its safety is checked by the origin hook (server/http/origin.ts). */
export const callbackUrl = boundedString(2048);

/**
 * RFC 5321 caps an address at 254 characters; the format check is the domain's
 * (requireValidEmail, which every route taking an email calls first), so that a NUL or
 * any other character no address may hold answers INVALID_EMAIL like a bad format.
 */
export const emailInput = z.string().max(320);

/** Display names (names over 255 characters are refused). */
export const nameInput = boundedString(255);

/** Image URLs or data references. */
export const imageInput = boundedString(2048);

export const passwordInput = boundedString(4096);
