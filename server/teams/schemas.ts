/**
 * Teams as clients receive them (teamResponse in teams.ts, teamMemberResponse in
 * team-members.ts).
 */
import { z } from "zod";

export const teamSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    organizationId: z.string(),
    createdAt: z.date(),
    updatedAt: z.date().nullable(),
  })
  .meta({ id: "Team" });

export const teamMemberSchema = z
  .object({ id: z.string(), teamId: z.string(), userId: z.string(), createdAt: z.date() })
  .meta({ id: "TeamMember" });

export const messageAnswer = z.object({ message: z.string() });
