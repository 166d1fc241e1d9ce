/**
 * JSON Schemas of the session and user objects clients receive. Fastify compiles them
 * with fast-json-stringify, which serializes get-session several times faster than
 * JSON.stringify; they must list every field of sessionResponse and userResponse.
 */
const nullableString = { type: ["string", "null"] } as const;
const dateTime = { type: "string", format: "date-time" } as const;

export const sessionJsonSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    token: { type: "string" },
    userId: { type: "string" },
    expiresAt: dateTime,
    createdAt: dateTime,
    updatedAt: dateTime,
    ipAddress: nullableString,
    userAgent: nullableString,
    activeOrganizationId: nullableString,
    activeTeamId: nullableString,
    impersonatedBy: nullableString,
  },
} as const;

export const userJsonSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    email: { type: "string" },
    emailVerified: { type: "boolean" },
    image: nullableString,
    createdAt: dateTime,
    updatedAt: dateTime,
    role: nullableString,
    banned: { type: "boolean" },
    banReason: nullableString,
    banExpires: { type: ["string", "null"], format: "date-time" },
  },
} as const;

/** get-session: `{session, user}` or null. */
export const sessionPayloadJsonSchema = {
  type: ["object", "null"],
  properties: { session: sessionJsonSchema, user: userJsonSchema },
} as const;
