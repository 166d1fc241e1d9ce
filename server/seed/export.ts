/**
 * `authd db export`: the database's content as a seed document (version 1, natural keys)
 * that round-trips with `db seed`: export, seed into an empty database, export again
 * gives the same document. Entities go out one at a time through a callback, in
 * natural-key order (users by email, organizations by slug, their teams by name, members
 * and invitations by email), read page by page inside one read-only repeatable-read
 * transaction, so a big database streams with `-o jsonl` and the snapshot is consistent.
 *
 * Passwords go out as their stored hash (`{hash}`); sessions, verification values, key
 * pairs and the audit log never do. What the seed format cannot carry is not exported:
 * a user's image and ban state, an invitation's inviter, non-pending or expired
 * invitations, team memberships of people who are not members.
 */
import { CREDENTIAL_PROVIDER } from "../accounts/accounts.js";
import type { AuthdConfig } from "../config.js";
import type { Queryable, Sql } from "../db/connection.js";
import { transaction } from "../db/transaction.js";
import { splitRoles } from "../role-list.js";

export const EXPORT_SECTIONS = ["users", "orgs", "members", "teams", "invitations"] as const;
export type ExportSection = (typeof EXPORT_SECTIONS)[number];

/** Rows per page read from the database. */
const PAGE = 500;

export interface ExportedUser {
  email: string;
  name: string;
  emailVerified: boolean;
  role?: string;
  password?: { hash: string };
  accounts?: Array<{ providerId: string; accountId: string }>;
}

export interface ExportedOrganization {
  slug: string;
  name: string;
  owner: string;
  logo?: string;
  metadata?: Record<string, unknown>;
}

export interface ExportedTeam {
  name: string;
}

export interface ExportedMember {
  user: string;
  role: string;
  team?: string;
  teams?: string[];
}

export interface ExportedInvitation {
  email: string;
  role: string;
  expiresAt: string;
  team?: string;
  teams?: string[];
}

/** One JSONL line of server/seed/document.ts. */
export type ExportEntity =
  | { kind: "seed"; version: 1 }
  | ({ kind: "user" } & ExportedUser)
  | ({ kind: "organization" } & ExportedOrganization)
  | ({ kind: "team"; organization: string } & ExportedTeam)
  | ({ kind: "member"; organization: string } & ExportedMember)
  | ({ kind: "invitation"; organization: string } & ExportedInvitation);

export interface SeedDocument {
  version: 1;
  users?: ExportedUser[];
  organizations?: Array<
    ExportedOrganization & {
      members?: ExportedMember[];
      teams?: ExportedTeam[];
      invitations?: ExportedInvitation[];
    }
  >;
}

export interface ExportOptions {
  config: AuthdConfig;
  /** The sections to export (default: all). members, teams and invitations imply organizations. */
  only?: ReadonlySet<ExportSection>;
  /** Told about what cannot be represented and was left out. */
  warn?: (message: string) => void;
}

/** `--only users,orgs`: the sections, `organizations` accepted for `orgs`. */
export function parseSections(value: string): Set<ExportSection> | string {
  const sections = new Set<ExportSection>();
  for (const raw of value.split(",")) {
    const name = raw.trim() === "organizations" ? "orgs" : raw.trim();
    if (name === "") continue;
    if (!(EXPORT_SECTIONS as readonly string[]).includes(name)) {
      return `unknown section "${name}": use ${EXPORT_SECTIONS.join(", ")}`;
    }
    sections.add(name as ExportSection);
  }
  return sections.size === 0 ? `expected one or more of ${EXPORT_SECTIONS.join(", ")}` : sections;
}

/** `team` for one team, `teams` for several, nothing for none. */
function teamField(names: string[]): { team?: string; teams?: string[] } {
  if (names.length === 0) return {};
  if (names.length === 1) return { team: names[0] };
  return { teams: names };
}

/** Map.groupBy, which Node 20 lacks. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const name = key(row);
    const group = groups.get(name);
    if (group) group.push(row);
    else groups.set(name, [row]);
  }
  return groups;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function exportUsers(
  sql: Queryable,
  emit: (entity: ExportEntity) => Promise<void>,
): Promise<void> {
  let after = "";
  for (;;) {
    const users = await sql<
      Array<{
        id: string;
        email: string;
        name: string;
        emailVerified: boolean;
        role: string | null;
      }>
    >`select id, email, name, email_verified, role from "user"
      where email > ${after} order by email limit ${PAGE}`;
    if (users.length === 0) return;
    const accounts = await sql<
      Array<{ userId: string; providerId: string; accountId: string; password: string | null }>
    >`select user_id, provider_id, account_id, password from account
      where user_id in ${sql(users.map((user) => user.id))}
      order by provider_id, account_id`;
    const ofUser = groupBy(accounts, (account) => account.userId);
    for (const user of users) {
      const entity: ExportEntity = {
        kind: "user",
        email: user.email,
        name: user.name,
        emailVerified: user.emailVerified,
      };
      if (user.role !== null) entity.role = user.role;
      const linked: Array<{ providerId: string; accountId: string }> = [];
      for (const account of ofUser.get(user.id) ?? []) {
        if (account.providerId !== CREDENTIAL_PROVIDER) {
          linked.push({ providerId: account.providerId, accountId: account.accountId });
        } else if (account.password) entity.password = { hash: account.password };
      }
      if (linked.length > 0) entity.accounts = linked;
      await emit(entity);
    }
    const last = users.at(-1);
    if (!last || users.length < PAGE) return;
    after = last.email;
  }
}

interface MemberRow {
  organizationId: string;
  userId: string;
  email: string;
  role: string;
}

async function exportOrganizations(
  sql: Queryable,
  config: AuthdConfig,
  only: ReadonlySet<ExportSection>,
  emit: (entity: ExportEntity) => Promise<void>,
  warn: (message: string) => void,
): Promise<void> {
  const { creatorRole } = config.organization;
  let after = "";
  for (;;) {
    const organizations = await sql<
      Array<{ id: string; slug: string; name: string; logo: string | null; metadata: unknown }>
    >`select id, slug, name, logo, metadata from organization
      where slug > ${after} order by slug limit ${PAGE}`;
    if (organizations.length === 0) return;
    const ids = organizations.map((organization) => organization.id);
    const members = await sql<MemberRow[]>`
      select m.organization_id, m.user_id, u.email, m.role
      from member m join "user" u on u.id = m.user_id
      where m.organization_id in ${sql(ids)}
      order by u.email`;
    const teams = await sql<Array<{ id: string; organizationId: string; name: string }>>`
      select id, organization_id, name from team where organization_id in ${sql(ids)}
      order by name`;
    const teamMembers = await sql<Array<{ organizationId: string; userId: string; name: string }>>`
      select t.organization_id, tm.user_id, t.name
      from team_member tm join team t on t.id = tm.team_id
      where t.organization_id in ${sql(ids)} order by t.name`;
    const invitations = only.has("invitations")
      ? await sql<
          Array<{
            organizationId: string;
            email: string;
            role: string;
            teamId: string | null;
            expiresAt: Date;
          }>
        >`select organization_id, email, role, team_id, expires_at from invitation
          where organization_id in ${sql(ids)} and status = 'pending' and expires_at > now()
          order by email`
      : [];
    const membersOf = groupBy(members, (row) => row.organizationId);
    const teamsOf = groupBy(teams, (row) => row.organizationId);
    const teamNames = new Map(teams.map((team) => [team.id, team.name]));
    const userTeams = groupBy(teamMembers, (row) => `${row.organizationId}/${row.userId}`);
    const invitationsOf = groupBy(invitations, (row) => row.organizationId);

    for (const organization of organizations) {
      const slug = organization.slug;
      const orgMembers = membersOf.get(organization.id) ?? [];
      // The owner: the first member by email holding the creator role. By email, not
      // by age: a seed writes all members at once, so only this survives a round trip.
      const owner =
        orgMembers.find((member) => splitRoles(member.role).includes(creatorRole)) ?? orgMembers[0];
      if (!owner) {
        warn(`organization "${slug}" has no members, so no owner: left out of the export`);
        continue;
      }
      if (!splitRoles(owner.role).includes(creatorRole)) {
        warn(
          `organization "${slug}" has no member with the "${creatorRole}" role: exported with ${owner.email} as owner (seeding it makes them "${creatorRole}")`,
        );
      }
      const entity: ExportEntity = {
        kind: "organization",
        slug,
        name: organization.name,
        owner: owner.email,
      };
      if (organization.logo !== null) entity.logo = organization.logo;
      if (isPlainObject(organization.metadata)) entity.metadata = organization.metadata;
      else if (organization.metadata !== null) {
        warn(`organization "${slug}": metadata that is not a JSON object left out`);
      }
      await emit(entity);

      if (only.has("teams")) {
        for (const team of teamsOf.get(organization.id) ?? []) {
          await emit({ kind: "team", organization: slug, name: team.name });
        }
      }
      if (only.has("members")) {
        for (const member of orgMembers) {
          const names = only.has("teams")
            ? (userTeams.get(`${organization.id}/${member.userId}`) ?? []).map((row) => row.name)
            : [];
          // The owner is implied with exactly the creator role; listed otherwise.
          const implied = member === owner && member.role === creatorRole && names.length === 0;
          if (implied) continue;
          const role =
            member === owner && !splitRoles(member.role).includes(creatorRole)
              ? `${creatorRole},${member.role}`
              : member.role;
          await emit({
            kind: "member",
            organization: slug,
            user: member.email,
            role,
            ...teamField(names),
          });
        }
      }
      for (const invitation of invitationsOf.get(organization.id) ?? []) {
        const names = only.has("teams")
          ? (invitation.teamId ?? "").split(",").flatMap((id) => {
              const name = teamNames.get(id);
              return name === undefined ? [] : [name];
            })
          : [];
        await emit({
          kind: "invitation",
          organization: slug,
          email: invitation.email,
          role: invitation.role,
          expiresAt: invitation.expiresAt.toISOString(),
          ...teamField(names),
        });
      }
    }
    const last = organizations.at(-1);
    if (!last || organizations.length < PAGE) return;
    after = last.slug;
  }
}

/**
 * Streams the database as seed entities: first `{kind: "seed", version: 1}`, then the
 * users, then each organization followed by its teams, members and invitations.
 */
export async function exportSeed(
  sql: Sql,
  options: ExportOptions,
  emit: (entity: ExportEntity) => Promise<void>,
): Promise<void> {
  const only = options.only ?? new Set(EXPORT_SECTIONS);
  const warn = options.warn ?? (() => {});
  await transaction(
    sql,
    async (tx) => {
      await emit({ kind: "seed", version: 1 });
      if (only.has("users")) await exportUsers(tx, emit);
      if (only.has("orgs") || only.has("members") || only.has("teams") || only.has("invitations")) {
        await exportOrganizations(tx, options.config, only, emit, warn);
      }
    },
    // One snapshot for the whole file; not retried, since entities are already out.
    { isolation: "repeatable read", readOnly: true, retries: 0 },
  );
}

/** Collects the entities into one document (`-o json`, `-o yaml`). */
type DocumentOrganization = NonNullable<SeedDocument["organizations"]>[number];
type OrganizationPart = "teams" | "members" | "invitations";

export class SeedDocumentBuilder {
  readonly document: SeedDocument = { version: 1 };
  private organization: DocumentOrganization | undefined;

  /** A team, member or invitation goes under the organization streamed before it. */
  private addToOrganization<Part extends OrganizationPart>(
    part: Part,
    item: NonNullable<DocumentOrganization[Part]>[number],
  ): void {
    if (!this.organization) return;
    const items: Array<typeof item> = this.organization[part] ?? [];
    items.push(item);
    this.organization[part] = items as DocumentOrganization[Part];
  }

  add(entity: ExportEntity): void {
    const { document } = this;
    switch (entity.kind) {
      case "seed":
        return;
      case "user": {
        const { kind: _kind, ...user } = entity;
        document.users ??= [];
        document.users.push(user);
        return;
      }
      case "organization": {
        const { kind: _kind, ...organization } = entity;
        this.organization = organization;
        document.organizations ??= [];
        document.organizations.push(organization);
        return;
      }
      case "team": {
        const { kind: _kind, organization: _slug, ...team } = entity;
        this.addToOrganization("teams", team);
        return;
      }
      case "member": {
        const { kind: _kind, organization: _slug, ...member } = entity;
        this.addToOrganization("members", member);
        return;
      }
      case "invitation": {
        const { kind: _kind, organization: _slug, ...invitation } = entity;
        this.addToOrganization("invitations", invitation);
        return;
      }
    }
  }
}
