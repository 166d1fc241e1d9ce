/**
 * What every component and hook of the kit shares under one <AuthProvider>: the client,
 * the answer cache, the language, the appearance, routing and step-up.
 */
import { type AnchorHTMLAttributes, type ComponentType, createContext, useContext } from "react";
import type { AuthClient } from "./client/client.js";
import type { SessionData } from "./client/types.js";
import type { LocaleCode, Messages } from "./i18n/types.js";
import type { QueryCache } from "./query-cache.js";

export type Appearance = "light" | "dark" | "system";

/** Theme values set as `--authd-*` custom properties on every component's root. */
export interface ThemeVariables {
  colorPrimary?: string;
  colorPrimaryForeground?: string;
  colorBackground?: string;
  colorForeground?: string;
  colorMuted?: string;
  colorBorder?: string;
  colorDanger?: string;
  colorSuccess?: string;
  radius?: string;
  spacing?: string;
  fontFamily?: string;
  fontSize?: string;
}

/** Where the kit's screens live in the app, for links between them and redirects. */
export interface AuthPaths {
  signIn: string;
  signUp: string;
  forgotPassword: string;
  resetPassword: string;
  verifyEmail: string;
  account: string;
  organization: string;
  createOrganization: string;
  acceptInvitation: string;
  /** Where a successful sign-in or sign-up goes unless a component is told otherwise. */
  afterSignIn: string;
  afterSignOut: string;
}

export const DEFAULT_PATHS: AuthPaths = Object.freeze({
  signIn: "/sign-in",
  signUp: "/sign-up",
  forgotPassword: "/forgot-password",
  resetPassword: "/reset-password",
  verifyEmail: "/verify-email",
  account: "/account",
  organization: "/organization",
  createOrganization: "/organization/new",
  acceptInvitation: "/accept-invitation",
  afterSignIn: "/",
  afterSignOut: "/sign-in",
});

export type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string };
export type LinkComponent = ComponentType<LinkProps>;

export interface AuthContextValue {
  client: AuthClient;
  cache: QueryCache;
  messages: Messages;
  locale: LocaleCode | "pseudo";
  /** False while the chosen language loads; components stay hidden, not in English. */
  localeReady: boolean;
  appearance: Appearance;
  variables: ThemeVariables | undefined;
  navigate: (href: string) => void;
  Link: LinkComponent;
  paths: AuthPaths;
  initialSession: SessionData | null | undefined;
  /** Opens the re-authentication dialog; resolves true once the session is fresh again. */
  requestStepUp: () => Promise<boolean>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuthContext(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("@authd/react: wrap the app in <AuthProvider client={…}>");
  return value;
}
