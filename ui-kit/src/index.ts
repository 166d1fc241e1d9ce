export type {
  Appearance,
  AuthContextValue,
  AuthPaths,
  LinkComponent,
  LinkProps,
  ThemeVariables,
} from "./auth-context.js";
export { DEFAULT_PATHS, useAuthContext } from "./auth-context.js";
export * from "./client/index.js";
// Account: the user menu and the account settings.
export {
  type AccountSectionName,
  AccountSettings,
  type AccountSettingsPart,
  type AccountSettingsProps,
  DEFAULT_ACCOUNT_SECTIONS,
  type UseAccountSettingsOptions,
  type UseAccountSettingsResult,
  useAccountSettings,
} from "./components/account/AccountSettings.js";
export {
  type ActiveSession,
  type ChangePasswordField,
  CREDENTIAL_PROVIDER,
  deviceLabel,
  type LinkedAccount,
  lastActiveText,
  type ProfileField,
  type UseActiveSessionsResult,
  type UseChangeEmailOptions,
  type UseChangeEmailResult,
  type UseChangePasswordResult,
  type UseDeleteAccountOptions,
  type UseDeleteAccountResult,
  type UseLinkedAccountsOptions,
  type UseLinkedAccountsResult,
  type UseProfileResult,
  useActiveSessions,
  useChangeEmail,
  useChangePassword,
  useDeleteAccount,
  useLinkedAccounts,
  useListAccounts,
  useListSessions,
  useProfile,
} from "./components/account/hooks.js";
export {
  type AccountSectionPart,
  DeleteAccountSection,
  type DeleteAccountSectionProps,
  EmailSection,
  type EmailSectionProps,
  LinkedAccountsSection,
  type LinkedAccountsSectionProps,
  PasswordSection,
  type PasswordSectionProps,
  ProfileSection,
  type ProfileSectionProps,
  type SectionLayoutProps,
  SessionsSection,
  type SessionsSectionProps,
} from "./components/account/sections.js";
export { type ParsedUserAgent, parseUserAgent } from "./components/account/user-agent.js";
export { SignIn, type SignInPart, type SignInProps } from "./components/sign-in/SignIn.js";
export {
  type SignInField,
  type UseSignInOptions,
  type UseSignInResult,
  useSignIn,
} from "./components/sign-in/use-sign-in.js";
export { SocialButtons, type SocialButtonsProps } from "./components/social/SocialButtons.js";
export {
  UserButton,
  type UserButtonPart,
  type UserButtonProps,
} from "./components/user-button/UserButton.js";
export {
  type UseUserButtonOptions,
  type UseUserButtonResult,
  useUserButton,
} from "./components/user-button/use-user-button.js";
export {
  type InvitationDetails,
  QUERY_KEYS,
  useActiveMember,
  useActiveOrganization,
  useInvitation,
  useListOrganizations,
  useTeams,
} from "./hooks/organization.js";
export { type ActionOptions, type ActionState, useAction } from "./hooks/use-action.js";
export { useErrorText, useMessages } from "./hooks/use-messages.js";
export { type QueryResult, useQuery } from "./hooks/use-query.js";
export { type UseSessionResult, useSession } from "./hooks/use-session.js";
export { useSocialProviders } from "./hooks/use-social-providers.js";
export {
  LANGUAGE_IDS,
  LOCALES,
  type LocaleInput,
  loadMessages,
  negotiateLocale,
  resolveLocale,
} from "./i18n/locale.js";
export { pseudoLocalize } from "./i18n/pseudo.js";
export type { LocaleCode, Messages } from "./i18n/types.js";
export { AuthProvider, type AuthProviderProps } from "./provider.js";
export type { QueryState } from "./query-cache.js";
export type { StyleProps } from "./ui/root.js";
