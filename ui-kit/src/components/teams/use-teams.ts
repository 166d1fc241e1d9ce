/**
 * The teams logic without markup: an organization's teams, what the signed-in member
 * may change, creating, renaming and removing teams, and each team's members.
 * <Teams/> is these hooks plus markup.
 */
import { type FormEvent, useCallback, useMemo, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { Permissions } from "../../client/client.js";
import type { AuthError } from "../../client/request.js";
import type { FullOrganization, MemberWithUser, Team, TeamMember } from "../../client/types.js";
import { QUERY_KEYS } from "../../hooks/organization.js";
import { useAction } from "../../hooks/use-action.js";
import { useMessages } from "../../hooks/use-messages.js";
import { type QueryResult, useQuery } from "../../hooks/use-query.js";
import { useSession } from "../../hooks/use-session.js";
import { fieldsOfValidationError } from "../../ui/form-errors.js";

/** What the signed-in member may change about teams; all false until the server says. */
export interface TeamPermissions {
  create: boolean;
  rename: boolean;
  remove: boolean;
  addMember: boolean;
  removeMember: boolean;
}

const PERMISSIONS: Readonly<Record<keyof TeamPermissions, Permissions>> = {
  create: { team: ["create"] },
  rename: { team: ["update"] },
  remove: { team: ["delete"] },
  addMember: { member: ["update"] },
  removeMember: { member: ["delete"] },
};

/** One has-permission answer, shared by every component asking the same of the same organization. */
function usePermission(
  organizationId: string | null,
  permissions: Permissions,
): QueryResult<{ success: boolean }> {
  const { client } = useAuthContext();
  const wanted = JSON.stringify(permissions);
  return useQuery(organizationId && `${QUERY_KEYS.permission}${organizationId}|${wanted}`, () =>
    client.organization.hasPermission({ permissions, organizationId: organizationId ?? "" }),
  );
}

/**
 * What the signed-in member may do with teams in `organizationId`, and whether the
 * server is still being asked. Asked rather than read from the role's name, since an
 * organization may define its own roles.
 */
export function useTeamPermissions(organizationId: string | null): {
  can: TeamPermissions;
  pending: boolean;
} {
  const answers = {
    create: usePermission(organizationId, PERMISSIONS.create),
    rename: usePermission(organizationId, PERMISSIONS.rename),
    remove: usePermission(organizationId, PERMISSIONS.remove),
    addMember: usePermission(organizationId, PERMISSIONS.addMember),
    removeMember: usePermission(organizationId, PERMISSIONS.removeMember),
  };
  const allowed = (answer: QueryResult<{ success: boolean }>) => answer.data?.success === true;
  return {
    can: {
      create: allowed(answers.create),
      rename: allowed(answers.rename),
      remove: allowed(answers.remove),
      addMember: allowed(answers.addMember),
      removeMember: allowed(answers.removeMember),
    },
    pending: Object.values(answers).some((answer) => answer.data === undefined && !answer.error),
  };
}

/** The full organization (members, teams), shared with useActiveOrganization's answer for the same id. */
function useFullOrganization(organizationId: string | null): QueryResult<FullOrganization | null> {
  const { client } = useAuthContext();
  return useQuery(organizationId && `${QUERY_KEYS.fullOrganization}${organizationId}`, () =>
    client.organization.getFullOrganization({ organizationId: organizationId ?? undefined }),
  );
}

/** Teams switched off answer 404 on every team route. */
function meansTeamsDisabled(error: AuthError | null): boolean {
  return error?.code === "NOT_FOUND" || error?.status === 404;
}

export interface UseTeamManagerOptions {
  /** The organization whose teams to manage; default the session's active one. */
  organizationId?: string | null;
}

export type TeamManagerStatus =
  | "loading"
  /** Signed out, or no organization is active and none was given. */
  | "no-organization"
  /** Teams are switched off on the server. */
  | "disabled"
  | "error"
  | "ready";

export interface UseTeamManagerResult {
  status: TeamManagerStatus;
  organizationId: string | null;
  teams: Team[];
  /** The organization's members, to name team members and offer as new ones. */
  members: MemberWithUser[];
  /** Why the list could not load (status "error"). */
  error: AuthError | null;
  can: TeamPermissions;
  /** True while the server is asked what the member may change (nothing is offered yet). */
  permissionsPending: boolean;
  retry: () => Promise<void>;

  /** The new team's name. */
  name: string;
  setName: (value: string) => void;
  nameError: string | null;
  createError: AuthError | null;
  creating: boolean;
  /** The team created last, until the next change. */
  created: Team | null;
  create: (event?: FormEvent) => Promise<void>;

  /** The team being renamed inline, null when none. */
  renaming: Team | null;
  renameValue: string;
  setRenameValue: (value: string) => void;
  renameError: AuthError | null;
  renameFieldError: string | null;
  renamePending: boolean;
  startRename: (team: Team) => void;
  cancelRename: () => void;
  submitRename: (event?: FormEvent) => Promise<void>;

  /** The team waiting for the remove confirmation, null when none. */
  removing: Team | null;
  askRemove: (team: Team) => void;
  cancelRemove: () => void;
  confirmRemove: () => Promise<void>;
  removeError: AuthError | null;
  removePending: boolean;

  /** The team whose members are shown, null when none. */
  expandedId: string | null;
  toggle: (teamId: string) => void;
}

export function useTeamManager(options: UseTeamManagerOptions = {}): UseTeamManagerResult {
  const { client } = useAuthContext();
  const { common } = useMessages();
  const session = useSession();
  const organizationId =
    options.organizationId ?? session.data?.session.activeOrganizationId ?? null;
  const full = useFullOrganization(organizationId);
  const list = useQuery(organizationId && `${QUERY_KEYS.teams}${organizationId}`, () =>
    client.organization.listTeams({ organizationId: organizationId ?? undefined }),
  );
  const permissions = useTeamPermissions(organizationId);

  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [created, setCreated] = useState<Team | null>(null);
  const [renaming, setRenaming] = useState<Team | null>(null);
  const [renameValue, setRenameValue] = useState("");
  const [renameFieldError, setRenameFieldError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Team | null>(null);
  const [expandedId, setExpandedId] = useState<string | null>(null);

  const changes = [QUERY_KEYS.teams, QUERY_KEYS.teamMembers, QUERY_KEYS.fullOrganization];
  const createAction = useAction(
    (teamName: string) =>
      client.organization.createTeam({ name: teamName, organizationId: organizationId ?? "" }),
    { invalidates: changes },
  );
  const renameAction = useAction(
    (teamId: string, teamName: string) =>
      client.organization.updateTeam({ teamId, data: { name: teamName } }),
    { invalidates: changes },
  );
  const removeAction = useAction(
    (teamId: string) =>
      client.organization.removeTeam({ teamId, organizationId: organizationId ?? undefined }),
    { invalidates: changes },
  );

  const create = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      setCreated(null);
      const trimmed = name.trim();
      if (!trimmed) {
        setNameError(common.required);
        createAction.reset();
        return;
      }
      setNameError(null);
      const result = await createAction.run(trimmed);
      if (result.error) {
        setNameError(
          fieldsOfValidationError(result.error, ["name"], common.invalidField).name ?? null,
        );
        return;
      }
      setName("");
      setCreated(result.data);
    },
    [name, common, createAction],
  );

  const startRename = useCallback(
    (team: Team) => {
      renameAction.reset();
      setRenameFieldError(null);
      setRenaming(team);
      setRenameValue(team.name);
    },
    [renameAction],
  );
  const cancelRename = useCallback(() => {
    renameAction.reset();
    setRenaming(null);
  }, [renameAction]);

  const submitRename = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      if (!renaming) return;
      const trimmed = renameValue.trim();
      if (!trimmed) {
        setRenameFieldError(common.required);
        return;
      }
      setRenameFieldError(null);
      if (trimmed === renaming.name) {
        setRenaming(null);
        return;
      }
      const result = await renameAction.run(renaming.id, trimmed);
      if (result.error) {
        setRenameFieldError(
          fieldsOfValidationError(result.error, ["data", "name"], common.invalidField).data ?? null,
        );
        return;
      }
      setRenaming(null);
    },
    [renaming, renameValue, common, renameAction],
  );

  const askRemove = useCallback(
    (team: Team) => {
      removeAction.reset();
      setRemoving(team);
    },
    [removeAction],
  );
  const cancelRemove = useCallback(() => setRemoving(null), []);
  const confirmRemove = useCallback(async () => {
    if (!removing) return;
    const result = await removeAction.run(removing.id);
    if (result.error) return;
    if (expandedId === removing.id) setExpandedId(null);
    setRemoving(null);
  }, [removing, removeAction, expandedId]);

  const toggle = useCallback(
    (teamId: string) => setExpandedId((current) => (current === teamId ? null : teamId)),
    [],
  );

  const disabled =
    meansTeamsDisabled(list.error) || (full.data !== undefined && full.data?.teams === null);
  let status: TeamManagerStatus;
  if (!organizationId) status = session.isPending ? "loading" : "no-organization";
  else if (disabled) status = "disabled";
  else if (list.data) status = "ready";
  else if (list.error) status = "error";
  else status = "loading";

  return {
    status,
    organizationId,
    teams: list.data ?? [],
    members: full.data?.members ?? [],
    error: status === "error" ? list.error : null,
    can: permissions.can,
    permissionsPending: permissions.pending,
    retry: list.refetch,
    name,
    setName,
    nameError,
    createError: createAction.error,
    creating: createAction.isPending,
    created,
    create,
    renaming,
    renameValue,
    setRenameValue,
    renameError: renameAction.error,
    renameFieldError,
    renamePending: renameAction.isPending,
    startRename,
    cancelRename,
    submitRename,
    removing,
    askRemove,
    cancelRemove,
    confirmRemove,
    removeError: removeAction.error,
    removePending: removeAction.isPending,
    expandedId,
    toggle,
  };
}

/** A team member with who they are, when the organization's member list names them. */
export interface TeamMemberEntry extends TeamMember {
  member: MemberWithUser | null;
}

export interface UseTeamMembersOptions {
  teamId: string;
  /** The organization the team belongs to; default the session's active one. */
  organizationId?: string | null;
}

export interface UseTeamMembersResult {
  status: "loading" | "error" | "ready";
  entries: TeamMemberEntry[];
  /** Why the members could not load. */
  error: AuthError | null;
  /** Organization members not yet in the team. */
  candidates: MemberWithUser[];
  /** The user id chosen to add ("" when none). */
  selected: string;
  setSelected: (userId: string) => void;
  add: (event?: FormEvent) => Promise<void>;
  adding: boolean;
  addError: AuthError | null;
  /** The entry waiting for the remove confirmation. */
  removing: TeamMemberEntry | null;
  askRemove: (entry: TeamMemberEntry) => void;
  cancelRemove: () => void;
  confirmRemove: () => Promise<void>;
  removePending: boolean;
  removeError: AuthError | null;
}

/** One team's members, joined with the organization's members for names and addresses. */
export function useTeamMembers(options: UseTeamMembersOptions): UseTeamMembersResult {
  const { client } = useAuthContext();
  const session = useSession();
  const { teamId } = options;
  const organizationId =
    options.organizationId ?? session.data?.session.activeOrganizationId ?? null;
  const full = useFullOrganization(organizationId);
  const list = useQuery(`${QUERY_KEYS.teamMembers}${teamId}`, () =>
    client.organization.listTeamMembers({ teamId }),
  );
  const [selected, setSelected] = useState("");
  const [removing, setRemoving] = useState<TeamMemberEntry | null>(null);

  const changes = [QUERY_KEYS.teamMembers, QUERY_KEYS.teams, QUERY_KEYS.fullOrganization];
  const addAction = useAction(
    (userId: string) =>
      client.organization.addTeamMember({
        teamId,
        userId,
        organizationId: organizationId ?? undefined,
      }),
    { invalidates: changes },
  );
  const removeAction = useAction(
    (userId: string) =>
      client.organization.removeTeamMember({
        teamId,
        userId,
        organizationId: organizationId ?? undefined,
      }),
    { invalidates: changes },
  );

  const members = full.data?.members;
  const entries = useMemo(
    () =>
      (list.data ?? []).map((row) => ({
        ...row,
        member: members?.find((member) => member.userId === row.userId) ?? null,
      })),
    [list.data, members],
  );
  const candidates = useMemo(() => {
    const inTeam = new Set((list.data ?? []).map((row) => row.userId));
    return (members ?? []).filter((member) => !inTeam.has(member.userId));
  }, [list.data, members]);

  const add = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      if (!selected) return;
      const result = await addAction.run(selected);
      if (!result.error) setSelected("");
    },
    [selected, addAction],
  );

  const askRemove = useCallback(
    (entry: TeamMemberEntry) => {
      removeAction.reset();
      setRemoving(entry);
    },
    [removeAction],
  );
  const cancelRemove = useCallback(() => setRemoving(null), []);
  const confirmRemove = useCallback(async () => {
    if (!removing) return;
    const result = await removeAction.run(removing.userId);
    if (!result.error) setRemoving(null);
  }, [removing, removeAction]);

  return {
    status: list.data ? "ready" : list.error ? "error" : "loading",
    entries,
    error: list.data ? null : list.error,
    candidates,
    selected,
    setSelected,
    add,
    adding: addAction.isPending,
    addError: addAction.error,
    removing,
    askRemove,
    cancelRemove,
    confirmRemove,
    removePending: removeAction.isPending,
    removeError: removeAction.error,
  };
}
