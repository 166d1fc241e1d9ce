/** The whole account page: the chosen sections, in the chosen order, under one heading. */
import { useAuthContext } from "../../auth-context.js";
import { useMessages } from "../../hooks/use-messages.js";
import { useSession } from "../../hooks/use-session.js";
import { Header, Loading, Text, Title } from "../../ui/elements.js";
import { Root, type StyleProps } from "../../ui/root.js";
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
}

export function useAccountSettings(
  options: UseAccountSettingsOptions = {},
): UseAccountSettingsResult {
  const session = useSession();
  return {
    status: session.data ? "signed-in" : session.isPending ? "loading" : "signed-out",
    sections: options.sections ?? DEFAULT_ACCOUNT_SECTIONS,
  };
}

export type AccountSettingsPart = AccountSectionPart;

export interface AccountSettingsProps
  extends UseAccountSettingsOptions,
    StyleProps<AccountSettingsPart> {
  /** Social providers to offer for linking instead of asking the server. */
  providers?: readonly string[];
  /** Where to go once the account is deleted; default `paths.afterSignOut`. */
  afterDeletePath?: string;
  /** The new password's bounds, checked before asking the server (match authd's settings). */
  minPasswordLength?: number;
  maxPasswordLength?: number;
}

export function AccountSettings({
  providers,
  afterDeletePath,
  minPasswordLength,
  maxPasswordLength,
  className,
  classNames,
  ...options
}: AccountSettingsProps) {
  const { Link, paths } = useAuthContext();
  const { account } = useMessages();
  const state = useAccountSettings(options);
  const layout = { headingLevel: 3 as const, embedded: true, classNames };
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
                return <DeleteAccountSection key={name} redirectTo={afterDeletePath} {...layout} />;
              default:
                return null;
            }
          })
        : null}
    </Root>
  );
}
