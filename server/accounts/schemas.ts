/** Linked accounts as clients receive them (accountResponse and accountInfo in accounts.ts). */
import { z } from "zod";

export const accountSchema = z
  .object({
    id: z.string(),
    /** The older clients' name of providerId. */
    provider: z.string(),
    providerId: z.string(),
    accountId: z.string(),
    userId: z.string(),
    createdAt: z.date(),
    updatedAt: z.date(),
    scopes: z.array(z.string()),
  })
  .meta({ id: "Account" });

export const accountInfoSchema = z.object({
  user: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    image: z.string().nullable(),
    emailVerified: z.boolean(),
  }),
  /** The provider's own fields about the user, read now; empty for the credential account. */
  data: z.record(z.string(), z.unknown()),
  account: z.object({ id: z.string(), providerId: z.string(), accountId: z.string() }),
});
