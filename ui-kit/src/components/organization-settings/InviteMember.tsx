import { useRef } from "react";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { Button, Form, Header, Text, Title } from "../../ui/elements.js";
import { TextField } from "../../ui/fields.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { SelectField } from "../../ui/select-field.js";
import { OrganizationGate } from "./OrganizationGate.js";
import { roleLabel } from "./roles.js";
import { type UseInviteMemberOptions, useInviteMember } from "./use-invite-member.js";

export type InviteMemberPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "form"
  | "field"
  | "input"
  | "select"
  | "button"
  | "alert"
  | "empty";

export interface InviteMemberProps extends UseInviteMemberOptions, StyleProps<InviteMemberPart> {
  /** "card" (default), or "inline" inside <OrganizationSettings/> (its heading a level lower). */
  variant?: "card" | "inline";
}

/** Invites someone by email with a role (and a team when teams are on). */
export function InviteMember({
  variant = "card",
  className,
  classNames,
  ...options
}: InviteMemberProps) {
  const { organization: text } = useMessages();
  const errorText = useErrorText();
  const state = useInviteMember(options);
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  const hasFieldErrors = Object.keys(state.fieldErrors).length > 0;
  useFocusOnChange(state.error ?? (hasFieldErrors ? state.fieldErrors : null), form, alert);

  // Members cannot invite: the section says nothing rather than offer a form that fails.
  if (!state.scope.isPending && state.scope.me && !state.canInvite) return null;

  return (
    <Root
      component="invite-member"
      variant={variant}
      state={state.pending ? "pending" : state.error ? "error" : state.sentTo ? "done" : undefined}
      className={className}
      classNames={classNames}
    >
      <Header>
        <Title level={variant === "inline" ? 3 : 2}>{text.invite.title}</Title>
        <Text>{text.invite.description}</Text>
      </Header>
      <OrganizationGate scope={state.scope}>
        <Form
          ref={form}
          onSubmit={(event) => void state.submit(event)}
          aria-label={text.invite.title}
        >
          <TextField
            label={text.fields.email}
            name="email"
            type="email"
            inputMode="email"
            autoComplete="off"
            required
            value={state.email}
            onChange={(event) => state.setEmail(event.target.value)}
            error={state.fieldErrors.email}
          />
          <SelectField
            label={text.fields.role}
            name="role"
            value={state.role}
            onChange={(event) => state.setRole(event.target.value)}
            options={state.roles.map((role) => ({ value: role, label: roleLabel(role, text) }))}
            error={state.fieldErrors.role}
          />
          {state.teams && state.teams.length > 0 ? (
            <SelectField
              label={text.fields.team}
              name="teamId"
              value={state.teamId}
              onChange={(event) => state.setTeamId(event.target.value)}
              options={[
                { value: "", label: text.invite.noTeam },
                ...state.teams.map((team) => ({ value: team.id, label: team.name })),
              ]}
              error={state.fieldErrors.teamId}
            />
          ) : null}
          <Alert ref={alert} tone={state.sentTo ? "success" : "error"}>
            {state.sentTo
              ? state.resent
                ? text.invite.resent({ email: state.sentTo })
                : text.invite.sent({ email: state.sentTo })
              : state.error && !hasFieldErrors
                ? state.alreadyInvited
                  ? text.invite.alreadyInvited
                  : errorText(state.error)
                : null}
          </Alert>
          {state.alreadyInvited ? (
            <Button variant="secondary" pending={state.pending} onClick={() => void state.resend()}>
              {text.invite.resend}
            </Button>
          ) : null}
          <Button type="submit" pending={state.pending && !state.alreadyInvited}>
            {text.invite.submit}
          </Button>
        </Form>
      </OrganizationGate>
    </Root>
  );
}
