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
  type SignUpAnswer,
  type SignUpField,
  type SignUpStep,
  type UseSignUpOptions,
  type UseSignUpResult,
  useSignUp,
} from "./components/sign-up/use-sign-up.js";
export { SocialButtons, type SocialButtonsProps } from "./components/social/SocialButtons.js";
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
