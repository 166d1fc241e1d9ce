import { plural } from "../../plural.js";

/** <Teams/>: an organization's teams and their members. */
export const teams = {
  title: "Teams",
  description: "Group the organization's members into teams.",
  loading: "Loading teams…",
  noOrganization: "Choose an organization to see its teams.",
  disabled: "Teams are not enabled.",
  disabledHint: "The administrator of this service can turn them on.",
  readOnly: "Only the organization's owners and admins can change its teams.",
  empty: "This organization has no teams yet.",
  nameLabel: "Team name",
  create: "Create team",
  created: ({ name }: { name: string }) => `Team “${name}” created.`,
  rename: "Rename",
  renameTeam: ({ name }: { name: string }) => `Rename ${name}`,
  renameLabel: ({ name }: { name: string }) => `New name for ${name}`,
  removeTeam: ({ name }: { name: string }) => `Remove ${name}`,
  removeTitle: ({ name }: { name: string }) => `Remove the team “${name}”?`,
  removeDescription:
    "Its members stay in the organization but leave the team. This cannot be undone.",
  removeConfirm: "Remove team",
  members: "Members",
  membersOf: ({ name }: { name: string }) => `Members of ${name}`,
  membersLoading: "Loading members…",
  memberCount: ({ count }: { count: number }) =>
    plural("en", count, { one: "# member", other: "# members" }),
  noMembers: "No one is in this team yet.",
  unknownMember: "Former member",
  addMemberTo: ({ name }: { name: string }) => `Add a member to ${name}`,
  addMemberLabel: "Organization member",
  chooseMember: "Choose a member…",
  addMember: "Add to team",
  everyoneInTeam: "Every member of the organization is already in this team.",
  removeMember: ({ name, team }: { name: string; team: string }) => `Remove ${name} from ${team}`,
  removeMemberTitle: ({ name, team }: { name: string; team: string }) =>
    `Remove ${name} from ${team}?`,
  removeMemberDescription: "They stay a member of the organization.",
  removeMemberConfirm: "Remove from team",
};
