import { useMessages } from "../../hooks/use-messages.js";
import { Header, Title } from "../../ui/elements.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { InviteMember, type InviteMemberPart } from "./InviteMember.js";
import { OrganizationDetails, type OrganizationDetailsPart } from "./OrganizationDetails.js";
import { OrganizationGate } from "./OrganizationGate.js";
import { OrganizationMembers, type OrganizationMembersPart } from "./OrganizationMembers.js";
import { PendingInvitations, type PendingInvitationsPart } from "./PendingInvitations.js";
import {
  type UseOrganizationScopeOptions,
  useOrganizationScope,
} from "./use-organization-scope.js";

/** Its own parts and every section's, which it hands its `classNames` on to. */
export type OrganizationSettingsPart =
  | OrganizationDetailsPart
  | OrganizationMembersPart
  | InviteMemberPart
  | PendingInvitationsPart;

export interface OrganizationSettingsProps
  extends UseOrganizationScopeOptions,
    StyleProps<OrganizationSettingsPart> {
  /** Where to go after deleting or leaving the organization; by default the page stays. */
  redirectTo?: string;
}

/** The organization's page: details, members, inviting and pending invitations. */
export function OrganizationSettings({
  organizationId,
  redirectTo,
  className,
  classNames,
}: OrganizationSettingsProps) {
  const { organization: text } = useMessages();
  const scope = useOrganizationScope({ organizationId });
  const section = { organizationId, classNames, variant: "inline" as const };

  return (
    <Root
      component="organization-settings"
      as="section"
      state={scope.isPending ? "loading" : undefined}
      className={className}
      classNames={classNames}
    >
      <Header>
        {/* Level 2 like every screen's title: the page around it owns the one <h1>. */}
        <Title>{scope.organization.data?.name ?? text.settings.title}</Title>
      </Header>
      <OrganizationGate scope={scope}>
        <OrganizationDetails {...section} redirectTo={redirectTo} />
        <OrganizationMembers {...section} />
        <InviteMember {...section} />
        <PendingInvitations {...section} />
      </OrganizationGate>
    </Root>
  );
}
