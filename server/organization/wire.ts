/**
 * JSON Schemas of the larger organization answers, compiled by fast-json-stringify:
 * get-full-organization carries up to a page of members with their users, and
 * serializing it was a tenth of its cost with JSON.stringify (bench/README.md).
 * They must list every field the handlers return.
 */
const nullableString = { type: ["string", "null"] } as const;
const dateTime = { type: "string", format: "date-time" } as const;

const organizationProperties = {
  id: { type: "string" },
  name: { type: "string" },
  slug: { type: "string" },
  logo: nullableString,
  metadata: { type: ["object", "null"], additionalProperties: true },
  createdAt: dateTime,
} as const;

const memberWithUser = {
  type: "object",
  properties: {
    id: { type: "string" },
    organizationId: { type: "string" },
    userId: { type: "string" },
    role: { type: "string" },
    createdAt: dateTime,
    user: {
      type: "object",
      properties: {
        id: { type: "string" },
        name: { type: "string" },
        email: { type: "string" },
        image: nullableString,
      },
    },
  },
} as const;

const invitation = {
  type: "object",
  properties: {
    id: { type: "string" },
    organizationId: { type: "string" },
    email: { type: "string" },
    role: { type: "string" },
    status: { type: "string" },
    teamId: nullableString,
    inviterId: { type: "string" },
    expiresAt: dateTime,
    createdAt: dateTime,
  },
} as const;

const team = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    organizationId: { type: "string" },
    createdAt: dateTime,
    updatedAt: { type: ["string", "null"], format: "date-time" },
  },
} as const;

export const fullOrganizationJsonSchema = {
  type: ["object", "null"],
  properties: {
    ...organizationProperties,
    members: { type: "array", items: memberWithUser },
    membersTotal: { type: "integer" },
    invitations: { type: "array", items: invitation },
    teams: { type: ["array", "null"], items: team },
  },
} as const;
