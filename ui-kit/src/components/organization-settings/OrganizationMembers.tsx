import { useRef } from "react";
import type { MemberWithUser } from "../../client/types.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { ConfirmDialog } from "../../ui/confirm-dialog.js";
import { Avatar, Button, Header, Text, Title } from "../../ui/elements.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { usePart } from "../../ui/parts.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { SelectField } from "../../ui/select-field.js";
import { OrganizationGate } from "./OrganizationGate.js";
import { roleLabel } from "./roles.js";
import {
  type UseOrganizationMembersOptions,
  type UseOrganizationMembersResult,
  useOrganizationMembers,
} from "./use-organization-members.js";

export type OrganizationMembersPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "list"
  | "member"
  | "member-details"
  | "member-name"
  | "member-email"
  | "member-role"
  | "member-actions"
  | "select"
  | "avatar"
  | "button"
  | "alert"
  | "dialog"
  | "empty";

export interface OrganizationMembersProps
  extends UseOrganizationMembersOptions,
    StyleProps<OrganizationMembersPart> {
  /** "card" (default), or "inline" inside <OrganizationSettings/> (its heading a level lower). */
  variant?: "card" | "inline";
}

/** The organization's members with their roles; owners and admins change roles and remove members. */
export function OrganizationMembers({
  variant = "card",
  className,
  classNames,
  ...options
}: OrganizationMembersProps) {
  const { organization: text } = useMessages();
  const errorText = useErrorText();
  const state = useOrganizationMembers(options);
  const alert = useRef<HTMLDivElement>(null);
  useFocusOnChange(state.error, alert, alert);
  const listPart = usePart("list");
  const emptyPart = usePart("empty");

  return (
    <Root
      component="organization-members"
      variant={variant}
      state={state.pendingMemberId ? "pending" : state.error ? "error" : undefined}
      className={className}
      classNames={classNames}
    >
      <Header>
        <Title level={variant === "inline" ? 3 : 2}>{text.members.title}</Title>
      </Header>
      <OrganizationGate scope={state.scope}>
        <Alert ref={alert}>{state.error ? errorText(state.error) : null}</Alert>
        <ul aria-label={text.members.title} {...listPart}>
          {state.members.map((member) => (
            <MemberRow key={member.id} member={member} state={state} />
          ))}
        </ul>
        {state.alone ? (
          <div data-state="empty" {...emptyPart}>
            <Text>{text.members.alone}</Text>
          </div>
        ) : null}
        {state.removing ? (
          <ConfirmDialog
            title={text.members.removeTitle}
            description={text.members.removeDescription({
              name: state.removing.user.name || state.removing.user.email,
            })}
            confirmLabel={text.members.removeConfirm}
            onCancel={state.cancelRemove}
            onConfirm={state.confirmRemove}
            pending={state.pendingMemberId === state.removing.id}
          />
        ) : null}
      </OrganizationGate>
    </Root>
  );
}

function MemberRow({
  member,
  state,
}: {
  member: MemberWithUser;
  state: UseOrganizationMembersResult;
}) {
  const { organization: text } = useMessages();
  const rowPart = usePart("member");
  const detailsPart = usePart("member-details");
  const namePart = usePart("member-name");
  const emailPart = usePart("member-email");
  const rolePart = usePart("member-role");
  const actionsPart = usePart("member-actions");
  const displayName = member.user.name || member.user.email;
  const editable = state.canEdit(member);
  const pending = state.pendingMemberId === member.id;
  // A role outside the choices (several roles, or a custom one) stays shown as it is.
  const options = state.roles.includes(member.role) ? state.roles : [member.role, ...state.roles];

  return (
    <li data-state={pending ? "pending" : undefined} {...rowPart}>
      <Avatar name={displayName} image={member.user.image} />
      <div {...detailsPart}>
        <span {...namePart}>
          {displayName}
          {state.isMe(member) ? ` ${text.members.you}` : null}
        </span>
        <span {...emailPart}>{member.user.email}</span>
      </div>
      {editable ? (
        <div {...actionsPart}>
          <SelectField
            label={text.members.roleOf({ name: displayName })}
            hideLabel
            part="member-role"
            value={member.role}
            disabled={pending}
            options={options.map((role) => ({ value: role, label: roleLabel(role, text) }))}
            onChange={(event) => void state.changeRole(member, event.target.value)}
          />
          <Button
            variant="ghost"
            disabled={pending}
            aria-label={text.members.removeMember({ name: displayName })}
            onClick={() => state.requestRemove(member)}
          >
            {text.members.remove}
          </Button>
        </div>
      ) : (
        <span {...rolePart}>{roleLabel(member.role, text)}</span>
      )}
    </li>
  );
}
