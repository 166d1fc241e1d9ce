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
export {
  AcceptInvitation,
  type AcceptInvitationPart,
  type AcceptInvitationProps,
} from "./components/accept-invitation/AcceptInvitation.js";
export {
  type AcceptInvitationStatus,
  type UseAcceptInvitationOptions,
  type UseAcceptInvitationResult,
  useAcceptInvitation,
} from "./components/accept-invitation/use-accept-invitation.js";
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
  type AccountLinkOutcome,
  type ActiveSession,
  CHANGE_EMAIL_MARKER,
  type ChangePasswordField,
  CREDENTIAL_PROVIDER,
  DELETE_ACCOUNT_MARKER,
  deviceLabel,
  type LinkedAccount,
  lastActiveText,
  type ProfileField,
  type UseActiveSessionsResult,
  type UseChangeEmailOptions,
  type UseChangeEmailResult,
  type UseChangePasswordOptions,
  type UseChangePasswordResult,
  type UseDeleteAccountOptions,
  type UseDeleteAccountResult,
  type UseLinkedAccountsOptions,
  type UseLinkedAccountsResult,
  type UseProfileResult,
  useAccountLinkOutcome,
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
// Organizations: switcher, creation and settings.
export {
  CreateOrganization,
  type CreateOrganizationPart,
  type CreateOrganizationProps,
} from "./components/create-organization/CreateOrganization.js";
export {
  type CreateOrganizationField,
  cleanSlugInput,
  isValidSlug,
  type SlugStatus,
  slugify,
  type UseCreateOrganizationOptions,
  type UseCreateOrganizationResult,
  useCreateOrganization,
} from "./components/create-organization/use-create-organization.js";
export {
  ForgotPassword,
  type ForgotPasswordPart,
  type ForgotPasswordProps,
} from "./components/forgot-password/ForgotPassword.js";
export {
  type ForgotPasswordStep,
  type UseForgotPasswordOptions,
  type UseForgotPasswordResult,
  useForgotPassword,
} from "./components/forgot-password/use-forgot-password.js";
export {
  Invitations,
  type InvitationsPart,
  type InvitationsProps,
} from "./components/invitations/Invitations.js";
export {
  type InvitationOutcome,
  type UserInvitation,
  type UserInvitationEntry,
  type UserInvitationsStatus,
  type UseUserInvitationsOptions,
  type UseUserInvitationsResult,
  useUserInvitations,
} from "./components/invitations/use-user-invitations.js";
export {
  InviteMember,
  type InviteMemberPart,
  type InviteMemberProps,
} from "./components/organization-settings/InviteMember.js";
export {
  OrganizationDetails,
  type OrganizationDetailsPart,
  type OrganizationDetailsProps,
} from "./components/organization-settings/OrganizationDetails.js";
export {
  OrganizationMembers,
  type OrganizationMembersPart,
  type OrganizationMembersProps,
} from "./components/organization-settings/OrganizationMembers.js";
export {
  OrganizationSettings,
  type OrganizationSettingsPart,
  type OrganizationSettingsProps,
} from "./components/organization-settings/OrganizationSettings.js";
export {
  PendingInvitations,
  type PendingInvitationsPart,
  type PendingInvitationsProps,
} from "./components/organization-settings/PendingInvitations.js";
export {
  assignableRoles,
  BUILT_IN_ROLES,
  type BuiltInRole,
  canManage,
  canManageMember,
  rolesOf,
} from "./components/organization-settings/roles.js";
export {
  type InviteMemberField,
  type UseInviteMemberOptions,
  type UseInviteMemberResult,
  useInviteMember,
} from "./components/organization-settings/use-invite-member.js";
export {
  type OrganizationDetailsField,
  type UseOrganizationDetailsOptions,
  type UseOrganizationDetailsResult,
  useOrganizationDetails,
} from "./components/organization-settings/use-organization-details.js";
export {
  type UseOrganizationMembersOptions,
  type UseOrganizationMembersResult,
  useOrganizationMembers,
} from "./components/organization-settings/use-organization-members.js";
export {
  type OrganizationScope,
  type UseOrganizationScopeOptions,
  useOrganizationScope,
} from "./components/organization-settings/use-organization-scope.js";
export {
  type UsePendingInvitationsOptions,
  type UsePendingInvitationsResult,
  usePendingInvitations,
} from "./components/organization-settings/use-pending-invitations.js";
export {
  OrganizationSwitcher,
  type OrganizationSwitcherPart,
  type OrganizationSwitcherProps,
} from "./components/organization-switcher/OrganizationSwitcher.js";
export {
  type UseOrganizationSwitcherOptions,
  type UseOrganizationSwitcherResult,
  useOrganizationSwitcher,
} from "./components/organization-switcher/use-organization-switcher.js";
export {
  ResetPassword,
  type ResetPasswordPart,
  type ResetPasswordProps,
} from "./components/reset-password/ResetPassword.js";
export {
  type ResetPasswordField,
  type ResetPasswordStep,
  type UseResetPasswordOptions,
  type UseResetPasswordResult,
  useResetPassword,
} from "./components/reset-password/use-reset-password.js";
export { SignIn, type SignInPart, type SignInProps } from "./components/sign-in/SignIn.js";
export {
  type SignInField,
  type UseSignInOptions,
  type UseSignInResult,
  useSignIn,
} from "./components/sign-in/use-sign-in.js";
export { SignUp, type SignUpPart, type SignUpProps } from "./components/sign-up/SignUp.js";
export {
  type SignUpField,
  type SignUpStep,
  type UseSignUpOptions,
  type UseSignUpResult,
  useSignUp,
} from "./components/sign-up/use-sign-up.js";
export { SocialButtons, type SocialButtonsProps } from "./components/social/SocialButtons.js";
export { Teams, type TeamsPart, type TeamsProps } from "./components/teams/Teams.js";
export {
  type TeamManagerStatus,
  type TeamMemberEntry,
  type TeamPermissions,
  type UseTeamManagerOptions,
  type UseTeamManagerResult,
  type UseTeamMembersOptions,
  type UseTeamMembersResult,
  useTeamManager,
  useTeamMembers,
  useTeamPermissions,
} from "./components/teams/use-teams.js";
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
  type UseVerifyEmailOptions,
  type UseVerifyEmailResult,
  useVerifyEmail,
  type VerifyEmailStep,
} from "./components/verify-email/use-verify-email.js";
export {
  VerifyEmail,
  type VerifyEmailPart,
  type VerifyEmailProps,
} from "./components/verify-email/VerifyEmail.js";
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
