/** The whole account page: the chosen sections, in the chosen order, under one heading. */
import { useRef } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import type { User } from "../../client/types.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { useSession } from "../../hooks/use-session.js";
import type { Messages } from "../../i18n/types.js";
import { Alert } from "../../ui/alert.js";
import { Header, Loading, Text, Title } from "../../ui/elements.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { type AccountLinkOutcome, useAccountLinkOutcome } from "./hooks.js";
import {
  type AccountSectionPart,
  DeleteAccountSection,
  EmailSection,
  LinkedAccountsSection,
  PasswordSection,
  ProfileSection,
  SessionsSection,
} from "./sections.js";

export type AccountSectionName =
  | "profile"
  | "email"
  | "password"
  | "linkedAccounts"
  | "sessions"
  | "deleteAccount";

export const DEFAULT_ACCOUNT_SECTIONS: readonly AccountSectionName[] = [
  "profile",
  "email",
  "password",
  "linkedAccounts",
  "sessions",
  "deleteAccount",
];

export interface UseAccountSettingsOptions {
  /** Which sections to show, in this order. All of them by default. */
  sections?: readonly AccountSectionName[];
}

export interface UseAccountSettingsResult {
  status: "loading" | "signed-out" | "signed-in";
  sections: readonly AccountSectionName[];
  /** What a mailed link that came back to this page says, if one did. */
  linkOutcome: AccountLinkOutcome | null;
}

export function useAccountSettings(
  options: UseAccountSettingsOptions = {},
): UseAccountSettingsResult {
  const session = useSession();
  return {
    status: session.data ? "signed-in" : session.isPending ? "loading" : "signed-out",
    sections: options.sections ?? DEFAULT_ACCOUNT_SECTIONS,
    linkOutcome: useAccountLinkOutcome(),
  };
}

/** The sentence for a mailed link's outcome, in the page's language. */
function linkOutcomeText(
  outcome: AccountLinkOutcome,
  user: User | null,
  messages: Messages,
  errorText: (error: AuthError) => string,
): string | null {
  const { email, deleteAccount } = messages.account;
  if (outcome.error) {
    const reason = errorText(outcome.error);
    if (outcome.link === "change-email") return `${email.linkFailed} ${reason}`;
    if (outcome.link === "delete-account") return `${deleteAccount.linkFailed} ${reason}`;
    return reason;
  }
  if (outcome.link === "change-email" && user) {
    return user.emailVerified
      ? email.changed({ email: user.email })
      : email.changedUnverified({ email: user.email });
  }
  return null;
}

export type AccountSettingsPart = AccountSectionPart;

export interface AccountSettingsProps
  extends UseAccountSettingsOptions,
    StyleProps<AccountSettingsPart> {
  /** Social providers to offer for linking instead of asking the server. */
  providers?: readonly string[];
  /** Where to go once the account is deleted; default `paths.afterSignOut`. */
  afterDeletePath?: string;
  /**
   * Where the mailed deletion link leads (authd adds `?error=` when it fails); default
   * `afterDeletePath`. Back on this page marked `?deleteAccount=1`, a failure is shown.
   */
  deleteCallbackURL?: string;
  /** The new password's bounds, checked before asking the server (match authd's settings). */
  minPasswordLength?: number;
  maxPasswordLength?: number;
}

export function AccountSettings({
  providers,
  afterDeletePath,
  deleteCallbackURL,
  minPasswordLength,
  maxPasswordLength,
  className,
  classNames,
  ...options
}: AccountSettingsProps) {
  const { Link, paths } = useAuthContext();
  const messages = useMessages();
  const { account } = messages;
  const errorText = useErrorText();
  const user = useSession().data?.user ?? null;
  const state = useAccountSettings(options);
  const layout = { headingLevel: 3 as const, embedded: true, classNames };
  const notice = useRef<HTMLDivElement>(null);
  const outcome = state.linkOutcome;
  const outcomeText = outcome ? linkOutcomeText(outcome, user, messages, errorText) : null;
  useFocusOnChange(outcomeText, notice, notice);
  return (
    <Root
      component="account-settings"
      state={state.status === "signed-in" ? undefined : state.status}
      className={className}
      classNames={classNames}
    >
      <Header>
        <Title>{account.settings.title}</Title>
        <Text>{account.settings.description}</Text>
      </Header>
      <Alert ref={notice} tone={outcome?.error ? "error" : "success"}>
        {outcomeText}
      </Alert>
      {state.status === "loading" ? <Loading /> : null}
      {state.status === "signed-out" ? (
        <Text>
          {account.settings.signedOut} <Link href={paths.signIn}>{account.userButton.signIn}</Link>
        </Text>
      ) : null}
      {state.status === "signed-in"
        ? state.sections.map((name) => {
            switch (name) {
              case "profile":
                return <ProfileSection key={name} {...layout} />;
              case "email":
                return <EmailSection key={name} {...layout} />;
              case "password":
                return (
                  <PasswordSection
                    key={name}
                    minPasswordLength={minPasswordLength}
                    maxPasswordLength={maxPasswordLength}
                    {...layout}
                  />
                );
              case "linkedAccounts":
                return <LinkedAccountsSection key={name} providers={providers} {...layout} />;
              case "sessions":
                return <SessionsSection key={name} {...layout} />;
              case "deleteAccount":
                return (
                  <DeleteAccountSection
                    key={name}
                    redirectTo={afterDeletePath}
                    callbackURL={deleteCallbackURL}
                    {...layout}
                  />
                );
              default:
                return null;
            }
          })
        : null}
    </Root>
  );
}
