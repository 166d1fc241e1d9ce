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
export { SignIn, type SignInPart, type SignInProps } from "./components/sign-in/SignIn.js";
export {
  type SignInField,
  type UseSignInOptions,
  type UseSignInResult,
  useSignIn,
} from "./components/sign-in/use-sign-in.js";
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
