import { type KeyboardEvent, useEffect, useId, useRef } from "react";
import type { MemberWithUser, Team } from "../../client/types.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { ConfirmDialog } from "../../ui/confirm-dialog.js";
import { Avatar, Button, Footer, Form, Header, Loading, Text, Title } from "../../ui/elements.js";
import { TextField } from "../../ui/fields.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { usePart } from "../../ui/parts.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { roleLabel } from "../organization-settings/roles.js";
import {
  type TeamPermissions,
  type UseTeamManagerOptions,
  useTeamManager,
  useTeamMembers,
} from "./use-teams.js";

export type TeamsPart =
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
  | "list"
  | "list-item"
  | "team-row"
  | "team-name"
  | "team-actions"
  | "team-members"
  | "member-name"
  | "member-email"
  | "badge"
  | "avatar"
  | "dialog"
  | "footer";

export interface TeamsProps extends UseTeamManagerOptions, StyleProps<TeamsPart> {}

/** The teams of the active organization (or `organizationId`): create, rename, remove, and manage their members. */
export function Teams({ className, classNames, ...options }: TeamsProps) {
  const { teams: text, common } = useMessages();
  const errorText = useErrorText();
  const state = useTeamManager(options);
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  useFocusOnChange(state.createError ?? state.nameError, form, alert);
  const rowPart = usePart("team-row");
  const namePart = usePart("team-name");
  const actionsPart = usePart("team-actions");
  const listPart = usePart("list");
  const readOnly = !state.permissionsPending && !Object.values(state.can).some(Boolean);

  return (
    <Root
      component="teams"
      state={state.status}
      className={className}
      classNames={classNames}
      as="section"
    >
      <Header>
        <Title>{text.title}</Title>
        <Text>{text.description}</Text>
      </Header>
      {state.status === "loading" ? <Loading label={text.loading} /> : null}
      {state.status === "no-organization" ? <Text>{text.noOrganization}</Text> : null}
      {state.status === "disabled" ? (
        <Alert tone="info">
          <strong>{text.disabled}</strong> {text.disabledHint}
        </Alert>
      ) : null}
      {state.status === "error" && state.error ? (
        <>
          <Alert>{errorText(state.error)}</Alert>
          <Button variant="secondary" onClick={() => void state.retry()}>
            {common.retry}
          </Button>
        </>
      ) : null}
      {state.status === "ready" ? (
        <>
          {state.can.create ? (
            <Form
              ref={form}
              onSubmit={(event) => void state.create(event)}
              aria-label={text.create}
            >
              <TextField
                label={text.nameLabel}
                name="name"
                autoComplete="off"
                maxLength={255}
                required
                value={state.name}
                onChange={(event) => state.setName(event.target.value)}
                error={state.nameError}
              />
              <Alert ref={alert} tone={state.created ? "success" : "error"}>
                {state.created
                  ? text.created({ name: state.created.name })
                  : state.createError && !state.nameError
                    ? errorText(state.createError)
                    : null}
              </Alert>
              <Button type="submit" pending={state.creating}>
                {text.create}
              </Button>
            </Form>
          ) : readOnly ? (
            <Text>{text.readOnly}</Text>
          ) : null}
          {state.teams.length === 0 ? (
            <Text>{text.empty}</Text>
          ) : (
            <ul aria-label={text.title} {...listPart}>
              {state.teams.map((team) => (
                <TeamItem
                  key={team.id}
                  team={team}
                  state={state}
                  rowPart={rowPart}
                  namePart={namePart}
                  actionsPart={actionsPart}
                />
              ))}
            </ul>
          )}
        </>
      ) : null}
      {state.removing ? (
        <ConfirmDialog
          title={text.removeTitle({ name: state.removing.name })}
          description={text.removeDescription}
          confirmLabel={text.removeConfirm}
          onCancel={state.cancelRemove}
          onConfirm={state.confirmRemove}
          pending={state.removePending}
          error={state.removeError}
        />
      ) : null}
    </Root>
  );
}

type Part = ReturnType<typeof usePart>;

function TeamItem({
  team,
  state,
  rowPart,
  namePart,
  actionsPart,
}: {
  team: Team;
  state: ReturnType<typeof useTeamManager>;
  rowPart: Part;
  namePart: Part;
  actionsPart: Part;
}) {
  const { teams: text, common } = useMessages();
  const errorText = useErrorText();
  const panelId = useId();
  const expanded = state.expandedId === team.id;
  const renaming = state.renaming?.id === team.id;
  const input = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const wasRenaming = useRef(false);
  const itemPart = usePart("list-item");

  // Focus goes into the field when renaming starts and back to its button when it ends.
  useEffect(() => {
    if (renaming) {
      input.current?.focus();
      input.current?.select();
    } else if (wasRenaming.current) renameButton.current?.focus();
    wasRenaming.current = renaming;
  }, [renaming]);

  const onRenameKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      state.cancelRename();
    }
  };

  return (
    <li data-state={expanded ? "expanded" : "collapsed"} {...itemPart}>
      <div {...rowPart}>
        {renaming ? (
          <Form
            onSubmit={(event) => void state.submitRename(event)}
            aria-label={text.renameTeam({ name: team.name })}
          >
            <TextField
              ref={input}
              label={text.renameLabel({ name: team.name })}
              name="name"
              autoComplete="off"
              maxLength={255}
              value={state.renameValue}
              onChange={(event) => state.setRenameValue(event.target.value)}
              onKeyDown={onRenameKey}
              error={state.renameFieldError}
            />
            <Alert>
              {state.renameError && !state.renameFieldError ? errorText(state.renameError) : null}
            </Alert>
            <Footer>
              <Button variant="secondary" onClick={state.cancelRename}>
                {common.cancel}
              </Button>
              <Button type="submit" pending={state.renamePending}>
                {common.save}
              </Button>
            </Footer>
          </Form>
        ) : (
          <span {...namePart}>{team.name}</span>
        )}
        <div {...actionsPart}>
          <Button
            variant="ghost"
            aria-expanded={expanded}
            aria-controls={expanded ? panelId : undefined}
            aria-label={text.membersOf({ name: team.name })}
            onClick={() => state.toggle(team.id)}
          >
            {text.members}
          </Button>
          {state.can.rename && !renaming ? (
            <Button
              ref={renameButton}
              variant="secondary"
              aria-label={text.renameTeam({ name: team.name })}
              onClick={() => state.startRename(team)}
            >
              {text.rename}
            </Button>
          ) : null}
          {state.can.remove ? (
            <Button
              variant="danger"
              aria-label={text.removeTeam({ name: team.name })}
              onClick={() => state.askRemove(team)}
            >
              {common.remove}
            </Button>
          ) : null}
        </div>
      </div>
      {expanded ? (
        <TeamMembersPanel
          id={panelId}
          team={team}
          organizationId={state.organizationId}
          can={state.can}
        />
      ) : null}
    </li>
  );
}

function memberName(member: MemberWithUser | null, fallback: string): string {
  return member?.user.name || member?.user.email || fallback;
}

function TeamMembersPanel({
  id,
  team,
  organizationId,
  can,
}: {
  id: string;
  team: Team;
  organizationId: string | null;
  can: TeamPermissions;
}) {
  const messages = useMessages();
  const { teams: text, common } = messages;
  const errorText = useErrorText();
  const state = useTeamMembers({ teamId: team.id, organizationId });
  const selectId = useId();
  const alert = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useFocusOnChange(state.addError, form, alert);
  const panel = usePart("team-members");
  const itemPart = usePart("list-item");
  const listPart = usePart("list");
  const memberNamePart = usePart("member-name");
  const memberEmailPart = usePart("member-email");
  const badgePart = usePart("badge");
  const labelPart = usePart("label");
  const fieldPart = usePart("field");
  const selectPart = usePart("select");

  return (
    <div id={id} data-state={state.status} {...panel}>
      {state.status === "loading" ? <Loading label={text.membersLoading} /> : null}
      {state.status === "error" && state.error ? <Alert>{errorText(state.error)}</Alert> : null}
      {state.status === "ready" ? (
        <>
          <Text>{text.memberCount({ count: state.entries.length })}</Text>
          {state.entries.length === 0 ? (
            <Text>{text.noMembers}</Text>
          ) : (
            <ul aria-label={text.membersOf({ name: team.name })} {...listPart}>
              {state.entries.map((entry) => {
                const name = memberName(entry.member, text.unknownMember);
                return (
                  <li key={entry.id} {...itemPart}>
                    <Avatar name={name} image={entry.member?.user.image} size="sm" />
                    <span {...memberNamePart}>{name}</span>
                    {entry.member ? (
                      <>
                        <span {...memberEmailPart}>{entry.member.user.email}</span>
                        <span {...badgePart}>
                          {roleLabel(entry.member.role, messages.organization)}
                        </span>
                      </>
                    ) : null}
                    {can.removeMember ? (
                      <Button
                        variant="ghost"
                        aria-label={text.removeMember({ name, team: team.name })}
                        onClick={() => state.askRemove(entry)}
                      >
                        {common.remove}
                      </Button>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
          {can.addMember ? (
            state.candidates.length === 0 ? (
              <Text>{text.everyoneInTeam}</Text>
            ) : (
              <Form
                ref={form}
                onSubmit={(event) => void state.add(event)}
                aria-label={text.addMemberTo({ name: team.name })}
              >
                <div {...fieldPart}>
                  <label htmlFor={selectId} {...labelPart}>
                    {text.addMemberLabel}
                  </label>
                  <select
                    id={selectId}
                    value={state.selected}
                    onChange={(event) => state.setSelected(event.target.value)}
                    {...selectPart}
                  >
                    <option value="">{text.chooseMember}</option>
                    {state.candidates.map((member) => (
                      <option key={member.userId} value={member.userId}>
                        {member.user.name
                          ? `${member.user.name} (${member.user.email})`
                          : member.user.email}
                      </option>
                    ))}
                  </select>
                </div>
                <Alert ref={alert}>{state.addError ? errorText(state.addError) : null}</Alert>
                <Button type="submit" pending={state.adding} disabled={!state.selected}>
                  {text.addMember}
                </Button>
              </Form>
            )
          ) : null}
        </>
      ) : null}
      {state.removing ? (
        <ConfirmDialog
          title={text.removeMemberTitle({
            name: memberName(state.removing.member, text.unknownMember),
            team: team.name,
          })}
          description={text.removeMemberDescription}
          confirmLabel={text.removeMemberConfirm}
          onCancel={state.cancelRemove}
          onConfirm={state.confirmRemove}
          pending={state.removePending}
          error={state.removeError}
        />
      ) : null}
    </div>
  );
}
