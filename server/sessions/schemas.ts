/**
 * The session and user as clients receive them (sessionResponse and userResponse in
 * sessions.ts build them). get-session is serialized from these schemas by
 * fast-json-stringify, which drops what they do not list: they name every field.
 */
import { z } from "zod";

const nullableString = z.string().nullable();

export const sessionSchema = z
  .object({
    id: z.string(),
    /** The opaque handle (the session id), never the secret token. */
    token: z.string(),
    userId: z.string(),
    expiresAt: z.date(),
    createdAt: z.date(),
    updatedAt: z.date(),
    ipAddress: nullableString,
    userAgent: nullableString,
    activeOrganizationId: nullableString,
    activeTeamId: nullableString,
    impersonatedBy: nullableString,
  })
  .meta({ id: "Session" });

export const userSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    image: nullableString,
    createdAt: z.date(),
    updatedAt: z.date(),
    role: nullableString,
    banned: z.boolean(),
    banReason: nullableString,
    banExpires: z.date().nullable(),
  })
  .meta({ id: "User" });

export const sessionAndUserSchema = z
  .object({ session: sessionSchema, user: userSchema })
  .meta({ id: "SessionAndUser" });

/** get-session: the session and its user, or null when signed out. */
export const getSessionAnswer = sessionAndUserSchema.nullable();

export const signInAnswer = z.object({
  redirect: z.boolean(),
  token: z.string(),
  url: z.string().optional(),
  user: userSchema,
});
