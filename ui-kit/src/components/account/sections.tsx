/** The account settings' sections, each usable alone; each is its hook plus markup. */
import { type ReactNode, useId, useRef } from "react";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { ConfirmDialog } from "../../ui/confirm-dialog.js";
import { Dialog } from "../../ui/dialog.js";
import { Avatar, Button, Footer, Form, Header, Loading, Text, Title } from "../../ui/elements.js";
import { Checkbox, PasswordField, TextField } from "../../ui/fields.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { hasErrors } from "../../ui/form-errors.js";
import { usePart } from "../../ui/parts.js";
import { Root, type StyleProps } from "../../ui/root.js";
import {
  type UseChangeEmailOptions,
  type UseChangePasswordOptions,
  type UseDeleteAccountOptions,
  type UseLinkedAccountsOptions,
  useActiveSessions,
  useChangeEmail,
  useChangePassword,
  useDeleteAccount,
  useLinkedAccounts,
  useProfile,
} from "./hooks.js";

export type AccountSectionPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "form"
  | "field"
  | "input"
  | "hint"
  | "button"
  | "alert"
  | "avatar"
  | "badge"
  | "list"
  | "list-item"
  | "footer"
  | "loading"
  | "dialog";

export interface SectionLayoutProps extends StyleProps<AccountSectionPart> {
  /** The heading level of the section's title; 2 alone, 3 inside <AccountSettings/>. */
  headingLevel?: 2 | 3;
  /** Drops the card frame, for sections laid out inside another card. */
  embedded?: boolean;
}

function Section({
  component,
  title,
  description,
  state,
  headingLevel = 2,
  embedded,
  className,
  classNames,
  children,
}: SectionLayoutProps & {
  component: string;
  title: string;
  description?: ReactNode;
  state?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Root
      component={component}
      as="section"
      aria-labelledby={titleId}
      state={state}
      variant={embedded ? "inline" : "card"}
      className={className}
      classNames={classNames}
    >
      <Header>
        <Title id={titleId} level={headingLevel}>
          {title}
        </Title>
        {description ? <Text>{description}</Text> : null}
      </Header>
      {children}
    </Root>
  );
}

function Badge({ children, state }: { children: ReactNode; state?: string }) {
  return (
    <span data-state={state} {...usePart("badge")}>
      {children}
    </span>
  );
}

function stateOf(pending: boolean, error: unknown, done: boolean): string | undefined {
  return pending ? "pending" : error ? "error" : done ? "done" : undefined;
}

// ---------------------------------------------------------------------------------------

export type ProfileSectionProps = SectionLayoutProps;

/** The user's name and picture. */
export function ProfileSection(props: ProfileSectionProps) {
  const { common, account } = useMessages();
  const errorText = useErrorText();
  const state = useProfile();
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  useFocusOnChange(
    state.error ?? (hasErrors(state.fieldErrors) ? state.fieldErrors : null) ?? state.saved,
    form,
    alert,
  );
  const preview = /^https?:\/\/\S+$/i.test(state.image.trim()) ? state.image.trim() : null;
  return (
    <Section
      component="profile-section"
      title={account.profile.title}
      state={stateOf(state.pending, state.error, state.saved)}
      {...props}
    >
      <Form
        ref={form}
        onSubmit={(event) => void state.submit(event)}
        aria-label={account.profile.title}
      >
        <Avatar name={state.name || state.user?.name || ""} image={preview} size="lg" />
        <TextField
          label={common.name}
          name="name"
          autoComplete="name"
          required
          value={state.name}
          onChange={(event) => state.setName(event.target.value)}
          error={state.fieldErrors.name}
        />
        <TextField
          label={account.profile.imageUrl}
          name="image"
          type="url"
          inputMode="url"
          autoComplete="photo"
          value={state.image}
          onChange={(event) => state.setImage(event.target.value)}
          hint={account.profile.imageHint}
          error={state.fieldErrors.image}
        />
        <Alert ref={alert} tone={state.saved ? "success" : "error"}>
          {state.saved
            ? account.profile.saved
            : state.error && !hasErrors(state.fieldErrors)
              ? errorText(state.error)
              : null}
        </Alert>
        <Footer>
          <Button type="submit" pending={state.pending}>
            {common.save}
          </Button>
        </Footer>
      </Form>
    </Section>
  );
}

// ---------------------------------------------------------------------------------------

export interface EmailSectionProps extends UseChangeEmailOptions, SectionLayoutProps {}

/** The current address with its verification, and the change of address by mailed link. */
export function EmailSection({ callbackURL, ...props }: EmailSectionProps) {
  const { account } = useMessages();
  const errorText = useErrorText();
  const state = useChangeEmail({ callbackURL });
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  useFocusOnChange(
    state.error ?? (hasErrors(state.fieldErrors) ? state.fieldErrors : null) ?? state.sent,
    form,
    alert,
  );
  return (
    <Section
      component="email-section"
      title={account.email.title}
      state={stateOf(state.pending, state.error, state.sent !== null)}
      {...props}
    >
      <Text>
        {account.email.current}: <strong>{state.currentEmail}</strong>{" "}
        <Badge state={state.verified ? "verified" : "unverified"}>
          {state.verified ? account.email.verified : account.email.unverified}
        </Badge>
      </Text>
      <Form
        ref={form}
        onSubmit={(event) => void state.submit(event)}
        aria-label={account.email.title}
      >
        <TextField
          label={account.email.newEmail}
          name="newEmail"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          value={state.newEmail}
          onChange={(event) => state.setNewEmail(event.target.value)}
          error={state.fieldErrors.newEmail}
        />
        <Alert ref={alert} tone={state.sent ? "success" : "error"}>
          {state.sent
            ? state.sent.to === "current"
              ? account.email.sentToCurrent({ email: state.sent.email })
              : account.email.sentToNew({ email: state.sent.email })
            : state.error && !hasErrors(state.fieldErrors)
              ? errorText(state.error)
              : null}
        </Alert>
        <Footer>
          <Button type="submit" pending={state.pending}>
            {account.email.submit}
          </Button>
        </Footer>
      </Form>
    </Section>
  );
}

// ---------------------------------------------------------------------------------------

export interface PasswordSectionProps extends UseChangePasswordOptions, SectionLayoutProps {}

/** Changing the password; for a user without one, a mailed link to set it. */
export function PasswordSection({
  minPasswordLength,
  maxPasswordLength,
  ...props
}: PasswordSectionProps) {
  const { account, auth } = useMessages();
  const errorText = useErrorText();
  const state = useChangePassword({ minPasswordLength, maxPasswordLength });
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  useFocusOnChange(
    state.error ??
      (hasErrors(state.fieldErrors) ? state.fieldErrors : null) ??
      (state.changed || state.linkSent),
    form,
    alert,
  );
  const done = state.changed || state.linkSent;
  const formError = state.error && !hasErrors(state.fieldErrors) ? errorText(state.error) : null;

  let body: ReactNode;
  if (state.hasPassword === undefined) {
    body = state.loadError ? <Alert>{errorText(state.loadError)}</Alert> : <Loading />;
  } else if (!state.hasPassword) {
    body = (
      <>
        <Text>{account.password.noPassword}</Text>
        <Alert ref={alert} tone={state.linkSent ? "success" : "error"}>
          {state.linkSent ? account.password.linkSent({ email: state.email }) : formError}
        </Alert>
        {state.linkSent ? null : (
          <Footer>
            <Button
              variant="secondary"
              pending={state.pending}
              onClick={() => void state.sendSetPasswordLink()}
            >
              {account.password.sendLink}
            </Button>
          </Footer>
        )}
      </>
    );
  } else {
    body = (
      <Form
        ref={form}
        onSubmit={(event) => void state.submit(event)}
        aria-label={account.password.title}
      >
        <PasswordField
          label={account.password.current}
          name="currentPassword"
          autoComplete="current-password"
          required
          value={state.currentPassword}
          onChange={(event) => state.setCurrentPassword(event.target.value)}
          error={state.fieldErrors.currentPassword}
        />
        <PasswordField
          label={account.password.new}
          name="newPassword"
          autoComplete="new-password"
          required
          minLength={state.minPasswordLength}
          value={state.newPassword}
          onChange={(event) => state.setNewPassword(event.target.value)}
          hint={auth.signUp.passwordHint({ min: state.minPasswordLength })}
          error={state.fieldErrors.newPassword}
        />
        <Checkbox
          label={account.password.revokeOtherSessions}
          name="revokeOtherSessions"
          checked={state.revokeOtherSessions}
          onChange={(event) => state.setRevokeOtherSessions(event.target.checked)}
        />
        <Alert ref={alert} tone={state.changed ? "success" : "error"}>
          {state.changed ? account.password.changed : formError}
        </Alert>
        <Footer>
          <Button type="submit" pending={state.pending}>
            {account.password.submit}
          </Button>
        </Footer>
      </Form>
    );
  }
  return (
    <Section
      component="password-section"
      title={account.password.title}
      state={
        state.hasPassword === undefined
          ? state.loadError
            ? "error"
            : "loading"
          : stateOf(state.pending, state.error, done)
      }
      {...props}
    >
      {body}
    </Section>
  );
}

// ---------------------------------------------------------------------------------------

export interface LinkedAccountsSectionProps extends UseLinkedAccountsOptions, SectionLayoutProps {}

/** The ways the user signs in: linking another provider, unlinking one (confirmed). */
export function LinkedAccountsSection({
  providers,
  callbackURL,
  ...props
}: LinkedAccountsSectionProps) {
  const { account } = useMessages();
  const errorText = useErrorText();
  const state = useLinkedAccounts({ providers, callbackURL });
  const alert = useRef<HTMLDivElement>(null);
  const container = useRef<HTMLDivElement>(null);
  useFocusOnChange(state.error ?? state.unlinked, container, alert);
  const list = usePart("list");
  const item = usePart("list-item");
  const strings = account.linkedAccounts;
  return (
    <Section
      component="linked-accounts-section"
      title={strings.title}
      state={
        state.isPending
          ? "loading"
          : stateOf(state.unlinking || state.linking !== null, state.error, false)
      }
      {...props}
    >
      <div ref={container}>
        {state.isPending ? (
          <Loading />
        ) : state.loadError ? (
          <Alert>{errorText(state.loadError)}</Alert>
        ) : (
          <ul {...list}>
            {state.accounts.map((entry) => (
              <li key={entry.account.id} data-provider={entry.account.providerId} {...item}>
                <strong>{entry.name}</strong>
                {entry.since ? <Text>{entry.since}</Text> : null}
                {entry.isCredential ? null : (
                  <Button
                    variant="secondary"
                    aria-label={strings.unlinkLabel({ provider: entry.name })}
                    pending={state.unlinking && state.confirming === null}
                    onClick={() => state.requestUnlink(entry)}
                  >
                    {strings.unlink}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        <Alert ref={alert} tone={state.unlinked ? "success" : "error"}>
          {state.unlinked
            ? strings.unlinked({ provider: state.unlinked })
            : state.error
              ? errorText(state.error)
              : null}
        </Alert>
        {state.available.length > 0 ? (
          <Footer>
            {state.available.map((provider) => (
              <Button
                key={provider.id}
                variant="secondary"
                data-provider={provider.id}
                pending={state.linking === provider.id}
                disabled={state.linking !== null && state.linking !== provider.id}
                onClick={() => void state.link(provider.id)}
              >
                {strings.link({ provider: provider.name })}
              </Button>
            ))}
          </Footer>
        ) : null}
      </div>
      {state.confirming ? (
        <ConfirmDialog
          title={strings.confirmTitle({ provider: state.confirming.name })}
          description={strings.confirmDescription}
          confirmLabel={strings.unlink}
          onCancel={state.cancelUnlink}
          onConfirm={state.confirmUnlink}
        />
      ) : null}
    </Section>
  );
}

// ---------------------------------------------------------------------------------------

export type SessionsSectionProps = SectionLayoutProps;

/** The devices signed in to the account, each of which can be signed out. */
export function SessionsSection(props: SessionsSectionProps) {
  const { account } = useMessages();
  const errorText = useErrorText();
  const state = useActiveSessions();
  const alert = useRef<HTMLDivElement>(null);
  const container = useRef<HTMLDivElement>(null);
  useFocusOnChange(state.error ?? state.notice, container, alert);
  const list = usePart("list");
  const item = usePart("list-item");
  const strings = account.sessions;
  const others = state.sessions.filter((entry) => !entry.current);
  return (
    <Section
      component="sessions-section"
      title={strings.title}
      description={strings.description}
      state={
        state.isPending
          ? "loading"
          : stateOf(state.revoking !== null || state.revokingOthers, state.error, false)
      }
      {...props}
    >
      <div ref={container}>
        {state.isPending ? (
          <Loading />
        ) : state.loadError ? (
          <Alert>{errorText(state.loadError)}</Alert>
        ) : (
          <ul {...list}>
            {state.sessions.map((entry) => (
              <li
                key={entry.session.id}
                data-state={entry.current ? "current" : undefined}
                {...item}
              >
                <span>
                  <strong>{entry.device}</strong>{" "}
                  {entry.current ? <Badge state="current">{strings.thisDevice}</Badge> : null}
                </span>
                <Text>
                  {[
                    entry.session.ipAddress
                      ? strings.ipAddress({ ip: entry.session.ipAddress })
                      : "",
                    entry.lastActive,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </Text>
                {entry.current ? null : (
                  <Button
                    variant="secondary"
                    aria-label={strings.revokeLabel({ device: entry.device })}
                    pending={state.revoking === entry.session.id}
                    onClick={() => void state.revoke(entry.session)}
                  >
                    {strings.revoke}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {!state.isPending && !state.loadError && others.length === 0 ? (
          <Text>{strings.none}</Text>
        ) : null}
        <Alert ref={alert} tone={state.notice ? "success" : "error"}>
          {state.notice
            ? state.notice === "revoked"
              ? strings.revoked
              : strings.othersRevoked
            : state.error
              ? errorText(state.error)
              : null}
        </Alert>
        {others.length > 0 ? (
          <Footer>
            <Button
              variant="danger"
              pending={state.revokingOthers}
              onClick={state.requestRevokeOthers}
            >
              {strings.revokeOthers}
            </Button>
          </Footer>
        ) : null}
      </div>
      {state.confirmingOthers ? (
        <ConfirmDialog
          title={strings.confirmRevokeOthers}
          description={strings.confirmRevokeOthersDescription}
          confirmLabel={strings.revokeOthers}
          onCancel={state.cancelRevokeOthers}
          onConfirm={state.revokeOthers}
        />
      ) : null}
    </Section>
  );
}

// ---------------------------------------------------------------------------------------

export interface DeleteAccountSectionProps extends UseDeleteAccountOptions, SectionLayoutProps {}

/** Deleting the account, confirmed in a dialog (with the password when the user has one). */
export function DeleteAccountSection({
  redirectTo,
  callbackURL,
  ...props
}: DeleteAccountSectionProps) {
  const { common, account } = useMessages();
  const errorText = useErrorText();
  const state = useDeleteAccount({ redirectTo, callbackURL });
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  const notice = useRef<HTMLDivElement>(null);
  useFocusOnChange(
    state.error ?? (hasErrors(state.fieldErrors) ? state.fieldErrors : null),
    form,
    alert,
  );
  useFocusOnChange(state.emailSent, notice, notice);
  const strings = account.deleteAccount;
  return (
    <Section
      component="delete-account-section"
      title={strings.title}
      description={strings.description}
      state={stateOf(state.pending, state.error, state.emailSent)}
      {...props}
    >
      <Alert ref={notice} tone="success">
        {state.emailSent ? strings.emailSent : null}
      </Alert>
      <Footer>
        <Button variant="danger" onClick={state.requestDelete}>
          {strings.open}
        </Button>
      </Footer>
      {state.confirming ? (
        <Dialog
          title={strings.confirmTitle}
          description={strings.confirmDescription}
          onClose={state.cancel}
        >
          <Form ref={form} onSubmit={(event) => void state.submit(event)}>
            {state.needsPassword ? (
              <PasswordField
                label={common.password}
                name="password"
                autoComplete="current-password"
                required
                value={state.password}
                onChange={(event) => state.setPassword(event.target.value)}
                hint={strings.passwordHint}
                error={state.fieldErrors.password}
              />
            ) : null}
            <Alert ref={alert}>
              {state.error && !hasErrors(state.fieldErrors) ? errorText(state.error) : null}
            </Alert>
            <Footer>
              <Button variant="secondary" onClick={state.cancel}>
                {common.cancel}
              </Button>
              <Button
                type="submit"
                variant="danger"
                pending={state.pending}
                disabled={state.needsPassword === undefined}
              >
                {strings.confirm}
              </Button>
            </Footer>
          </Form>
        </Dialog>
      ) : null}
    </Section>
  );
}
