/**
 * The account settings' logic without markup, one hook per section. Each section's
 * component is its hook plus markup; <AccountSettings/> lays the sections out.
 */
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import type { Account, Session, SocialProvider, User } from "../../client/types.js";
import { QUERY_KEYS } from "../../hooks/organization.js";
import { useAction } from "../../hooks/use-action.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { type QueryResult, useQuery } from "../../hooks/use-query.js";
import { useSession } from "../../hooks/use-session.js";
import { providerName, useSocialProviders } from "../../hooks/use-social-providers.js";
import type { Messages } from "../../i18n/types.js";
import {
  type FieldErrors,
  fieldsOfValidationError,
  hasErrors,
  looksLikeEmail,
  newPasswordProblem,
  passwordBounds,
  refusedLengthText,
} from "../../ui/form-errors.js";
import { redirectError } from "../../ui/redirect-error.js";
import { absoluteURL, withQuery } from "../../ui/urls.js";
import { parseUserAgent } from "./user-agent.js";

/** The provider id of the email-and-password account. */
export const CREDENTIAL_PROVIDER = "credential";

/** The page the user is on, for the server to send them back to (only in handlers). */
function currentPageURL(fallback: string): string {
  const { location } = globalThis as { location?: { href?: string } };
  return location?.href ?? absoluteURL(fallback);
}

/** The signed-in user's sign-in methods (password, providers), shared by every section. */
export function useListAccounts(): QueryResult<Account[]> {
  const { client } = useAuthContext();
  const session = useSession();
  const userId = session.data?.user.id ?? null;
  const result = useQuery(userId && `${QUERY_KEYS.accounts}${userId}`, () => client.listAccounts());
  return userId
    ? result
    : {
        data: undefined,
        error: null,
        isPending: session.isPending,
        refetch: () => Promise.resolve(),
      };
}

/** The signed-in user's live sessions. */
export function useListSessions(): QueryResult<Session[]> {
  const { client } = useAuthContext();
  const session = useSession();
  const userId = session.data?.user.id ?? null;
  const result = useQuery(userId && `${QUERY_KEYS.sessions}${userId}`, () => client.listSessions());
  return userId
    ? result
    : {
        data: undefined,
        error: null,
        isPending: session.isPending,
        refetch: () => Promise.resolve(),
      };
}

/** Whether the user has a password (undefined while the accounts load), and why it is unknown. */
function useHasPassword(): { hasPassword: boolean | undefined; loadError: AuthError | null } {
  const accounts = useListAccounts();
  return {
    hasPassword: accounts.data?.some((account) => account.providerId === CREDENTIAL_PROVIDER),
    loadError: accounts.data ? null : accounts.error,
  };
}

// ---------------------------------------------------------------------------------------
// Mailed links that come back to the account page

/** Marks the address a change-email link comes back to, so its outcome can be told. */
export const CHANGE_EMAIL_MARKER = "changeEmail";
/** The same for an account-deletion link (which comes back only when it failed). */
export const DELETE_ACCOUNT_MARKER = "deleteAccount";

/** The query parameters a mailed link brought back, removed once read. */
const LINK_PARAMETERS = [CHANGE_EMAIL_MARKER, DELETE_ACCOUNT_MARKER, "error", "error_description"];

export interface AccountLinkOutcome {
  /** Which of the page's mailed links came back; null for an `?error=` of unknown origin. */
  link: "change-email" | "delete-account" | null;
  /** authd's reason when the link did not work; null when it did. */
  error: AuthError | null;
}

/**
 * What a mailed link that came back to this page says (`?error=` when it failed), read
 * once after mounting and then taken out of the address, so a reload does not show it
 * again. Null when the address carries none.
 */
export function useAccountLinkOutcome(): AccountLinkOutcome | null {
  const [outcome, setOutcome] = useState<AccountLinkOutcome | null>(null);
  useEffect(() => {
    const { location, history } = globalThis as {
      location?: { href: string };
      history?: {
        state: unknown;
        replaceState: (data: unknown, unused: string, url: string) => void;
      };
    };
    if (!location) return;
    const url = new URL(location.href);
    const params = url.searchParams;
    const link =
      params.get(CHANGE_EMAIL_MARKER) === "1"
        ? "change-email"
        : params.get(DELETE_ACCOUNT_MARKER) === "1"
          ? "delete-account"
          : null;
    const code = params.get("error");
    if (!link && !code) return;
    setOutcome({ link, error: code ? redirectError(code, params.get("error_description")) : null });
    for (const name of LINK_PARAMETERS) params.delete(name);
    history?.replaceState(history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, []);
  return outcome;
}

// ---------------------------------------------------------------------------------------
// Profile

export type ProfileField = "name" | "image";

export interface UseProfileResult {
  user: User | null;
  name: string;
  setName: (value: string) => void;
  image: string;
  setImage: (value: string) => void;
  fieldErrors: FieldErrors<ProfileField>;
  error: AuthError | null;
  pending: boolean;
  /** True after a save, until the next edit. */
  saved: boolean;
  submit: (event?: FormEvent) => Promise<void>;
}

function isImageURL(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

export function useProfile(): UseProfileResult {
  const { client } = useAuthContext();
  const { common, account } = useMessages();
  const user = useSession().data?.user ?? null;
  // Null until edited: the fields show the user's current values, also once they load.
  const [name, setName] = useState<string | null>(null);
  const [image, setImage] = useState<string | null>(null);
  const [checked, setChecked] = useState<FieldErrors<ProfileField>>({});
  const [saved, setSaved] = useState(false);
  const action = useAction((body: { name: string; image: string | null }) =>
    client.updateUser(body),
  );
  const currentName = name ?? user?.name ?? "";
  const currentImage = image ?? user?.image ?? "";

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      const found: FieldErrors<ProfileField> = {};
      if (!currentName.trim()) found.name = common.required;
      if (currentImage.trim() && !isImageURL(currentImage.trim()))
        found.image = account.profile.invalidImage;
      setChecked(found);
      setSaved(false);
      if (hasErrors(found)) return action.reset();
      const result = await action.run({
        name: currentName.trim(),
        image: currentImage.trim() || null,
      });
      if (!result.error) {
        await client.session.refetch();
        setName(null);
        setImage(null);
        setSaved(true);
      }
    },
    [action, client, common, account, currentName, currentImage],
  );

  const fromServer = fieldsOfValidationError(action.error, ["name", "image"], common.invalidField);
  return {
    user,
    name: currentName,
    setName: (value) => {
      setName(value);
      setSaved(false);
    },
    image: currentImage,
    setImage: (value) => {
      setImage(value);
      setSaved(false);
    },
    fieldErrors: hasErrors(checked) ? checked : fromServer,
    error: action.error,
    pending: action.isPending,
    saved,
    submit,
  };
}

// ---------------------------------------------------------------------------------------
// Email

export interface UseChangeEmailOptions {
  /**
   * Where the confirmation link leads; by default the page the user is on, marked so that
   * <AccountSettings/> there says whether the change went through.
   */
  callbackURL?: string;
}

export interface UseChangeEmailResult {
  currentEmail: string;
  verified: boolean;
  newEmail: string;
  setNewEmail: (value: string) => void;
  fieldErrors: FieldErrors<"newEmail">;
  error: AuthError | null;
  pending: boolean;
  /** Set once the server has mailed the link: to which address, and whether it is the current one. */
  sent: { email: string; to: "current" | "new" } | null;
  submit: (event?: FormEvent) => Promise<void>;
  reset: () => void;
}

/** Errors of change-email that are about the new address rather than the whole form. */
const NEW_EMAIL_ERRORS = new Set([
  "INVALID_EMAIL",
  "EMAIL_IS_THE_SAME",
  "USER_ALREADY_EXISTS",
  "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
  "COULD_NOT_UPDATE_EMAIL",
]);

export function useChangeEmail(options: UseChangeEmailOptions = {}): UseChangeEmailResult {
  const { client, paths } = useAuthContext();
  const { common } = useMessages();
  const errorText = useErrorText();
  const user = useSession().data?.user ?? null;
  const [newEmail, setNewEmail] = useState("");
  const [checked, setChecked] = useState<FieldErrors<"newEmail">>({});
  const [sent, setSent] = useState<UseChangeEmailResult["sent"]>(null);
  const action = useAction((body: { newEmail: string; callbackURL: string }) =>
    client.changeEmail(body),
  );

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      const found: FieldErrors<"newEmail"> = {};
      if (!newEmail.trim()) found.newEmail = common.required;
      else if (!looksLikeEmail(newEmail)) found.newEmail = common.invalidEmail;
      setChecked(found);
      setSent(null);
      if (hasErrors(found)) return action.reset();
      const address = newEmail.trim();
      const result = await action.run({
        newEmail: address,
        callbackURL:
          options.callbackURL ?? withQuery(currentPageURL(paths.account), CHANGE_EMAIL_MARKER, "1"),
      });
      if (result.error || !user) return;
      // A verified user confirms from the current address; otherwise the new one is verified.
      setSent(
        user.emailVerified
          ? { email: user.email, to: "current" }
          : { email: address.toLowerCase(), to: "new" },
      );
      setNewEmail("");
    },
    [action, common, newEmail, options.callbackURL, paths.account, user],
  );

  const { error } = action;
  const fieldErrors: FieldErrors<"newEmail"> = hasErrors(checked)
    ? checked
    : error && NEW_EMAIL_ERRORS.has(error.code)
      ? { newEmail: errorText(error) }
      : fieldsOfValidationError(error, ["newEmail"], common.invalidField);
  return {
    currentEmail: user?.email ?? "",
    verified: user?.emailVerified ?? false,
    newEmail,
    setNewEmail,
    fieldErrors,
    error,
    pending: action.isPending,
    sent,
    submit,
    reset: () => {
      setSent(null);
      action.reset();
    },
  };
}

// ---------------------------------------------------------------------------------------
// Password

export type ChangePasswordField = "currentPassword" | "newPassword";

export interface UseChangePasswordOptions {
  /** The shortest new password accepted before asking the server (match authd's setting). Default 8. */
  minPasswordLength?: number;
  /** The longest new password accepted before asking the server (match authd's setting). Default 128. */
  maxPasswordLength?: number;
}

export interface UseChangePasswordResult {
  /** Whether the user has a password to change; undefined while that loads. */
  hasPassword: boolean | undefined;
  /** Why the sign-in methods could not be read. */
  loadError: AuthError | null;
  email: string;
  currentPassword: string;
  setCurrentPassword: (value: string) => void;
  newPassword: string;
  setNewPassword: (value: string) => void;
  minPasswordLength: number;
  maxPasswordLength: number;
  revokeOtherSessions: boolean;
  setRevokeOtherSessions: (value: boolean) => void;
  fieldErrors: FieldErrors<ChangePasswordField>;
  error: AuthError | null;
  pending: boolean;
  changed: boolean;
  submit: (event?: FormEvent) => Promise<void>;
  /** Without a password: mails a link to set one (the reset-password flow). */
  sendSetPasswordLink: () => Promise<void>;
  linkSent: boolean;
}

export function useChangePassword(options: UseChangePasswordOptions = {}): UseChangePasswordResult {
  const { client, paths } = useAuthContext();
  const { common } = useMessages();
  const errorText = useErrorText();
  const user = useSession().data?.user ?? null;
  const { hasPassword, loadError } = useHasPassword();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [revokeOtherSessions, setRevokeOtherSessions] = useState(false);
  const [checked, setChecked] = useState<FieldErrors<ChangePasswordField>>({});
  const [changed, setChanged] = useState(false);
  const [minPasswordLength, maxPasswordLength] = passwordBounds(options);
  const change = useAction(
    (body: { currentPassword: string; newPassword: string; revokeOtherSessions: boolean }) =>
      client.changePassword(body),
    { invalidates: [QUERY_KEYS.sessions] },
  );
  const reset = useAction((email: string) =>
    client.requestPasswordReset({ email, redirectTo: absoluteURL(paths.resetPassword) }),
  );

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      const found: FieldErrors<ChangePasswordField> = {};
      if (!currentPassword) found.currentPassword = common.required;
      const passwordProblem = newPasswordProblem(
        newPassword,
        minPasswordLength,
        maxPasswordLength,
        common,
      );
      if (passwordProblem) found.newPassword = passwordProblem;
      setChecked(found);
      setChanged(false);
      if (hasErrors(found)) return change.reset();
      const result = await change.run({ currentPassword, newPassword, revokeOtherSessions });
      if (result.error) return;
      // Signing out the other devices gives this one a new session; the client reads it again.
      setCurrentPassword("");
      setNewPassword("");
      setRevokeOtherSessions(false);
      setChanged(true);
    },
    [
      change,
      common,
      currentPassword,
      newPassword,
      revokeOtherSessions,
      minPasswordLength,
      maxPasswordLength,
    ],
  );

  const sendSetPasswordLink = useCallback(async () => {
    if (user) await reset.run(user.email);
  }, [reset, user]);

  const error = change.error ?? reset.error;
  let fieldErrors: FieldErrors<ChangePasswordField> = checked;
  if (!hasErrors(checked) && change.error) {
    const code = change.error.code;
    if (code === "INVALID_PASSWORD") fieldErrors = { currentPassword: errorText(change.error) };
    else if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG")
      fieldErrors = {
        newPassword: refusedLengthText(change.error, common) ?? errorText(change.error),
      };
    else
      fieldErrors = fieldsOfValidationError(
        change.error,
        ["currentPassword", "newPassword"],
        common.invalidField,
      );
  }
  return {
    hasPassword,
    loadError,
    email: user?.email ?? "",
    currentPassword,
    setCurrentPassword,
    newPassword,
    setNewPassword,
    minPasswordLength,
    maxPasswordLength,
    revokeOtherSessions,
    setRevokeOtherSessions,
    fieldErrors,
    error,
    pending: change.isPending || reset.isPending,
    changed,
    submit,
    sendSetPasswordLink,
    linkSent: reset.data !== undefined && !reset.error,
  };
}

// ---------------------------------------------------------------------------------------
// Linked accounts

export interface LinkedAccount {
  account: Account;
  /** The provider's display name ("GitHub"), or the words for email and password. */
  name: string;
  isCredential: boolean;
  /** "Linked on 3 Jan 2026", in the provider's language. */
  since: string;
}

export interface UseLinkedAccountsOptions {
  /** Providers to offer instead of asking the server which are configured. */
  providers?: readonly (string | SocialProvider)[];
  /** Where the provider sends the user back after linking; by default this page. */
  callbackURL?: string;
}

export interface UseLinkedAccountsResult {
  accounts: LinkedAccount[];
  isPending: boolean;
  loadError: AuthError | null;
  /** Configured providers the user has not linked yet. */
  available: SocialProvider[];
  link: (providerId: string) => Promise<void>;
  /** The provider whose redirect is under way. */
  linking: string | null;
  /** The account waiting for the user to confirm its unlinking. */
  confirming: LinkedAccount | null;
  requestUnlink: (account: LinkedAccount) => void;
  cancelUnlink: () => void;
  confirmUnlink: () => Promise<void>;
  unlinking: boolean;
  /** The name of the provider just unlinked. */
  unlinked: string | null;
  error: AuthError | null;
}

export function useLinkedAccounts(options: UseLinkedAccountsOptions = {}): UseLinkedAccountsResult {
  const { client, paths, locale } = useAuthContext();
  const { account: strings } = useMessages();
  const list = useListAccounts();
  const dates = new Intl.DateTimeFormat(locale === "pseudo" ? "en" : locale, {
    dateStyle: "medium",
  });
  const providers = useSocialProviders(options.providers);
  const [linking, setLinking] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<LinkedAccount | null>(null);
  const [unlinked, setUnlinked] = useState<string | null>(null);
  const linkAction = useAction((provider: string) =>
    client.linkSocial({
      provider,
      callbackURL: options.callbackURL ?? currentPageURL(paths.account),
    }),
  );
  const unlinkAction = useAction(
    (account: Account) =>
      client.unlinkAccount({ providerId: account.providerId, accountId: account.accountId }),
    { invalidates: [QUERY_KEYS.accounts] },
  );

  const names = new Map((providers.data ?? []).map((provider) => [provider.id, provider.name]));
  const accounts: LinkedAccount[] = (list.data ?? []).map((account) => {
    const isCredential = account.providerId === CREDENTIAL_PROVIDER;
    const created = new Date(account.createdAt);
    return {
      account,
      isCredential,
      since: Number.isNaN(created.getTime())
        ? ""
        : strings.linkedAccounts.linkedSince({ date: dates.format(created) }),
      name: isCredential
        ? strings.linkedAccounts.credential
        : (names.get(account.providerId) ?? providerName(account.providerId)),
    };
  });
  const linked = new Set(accounts.map((entry) => entry.account.providerId));
  const available = list.data
    ? (providers.data ?? []).filter((provider) => !linked.has(provider.id))
    : [];

  const link = useCallback(
    async (providerId: string) => {
      setUnlinked(null);
      unlinkAction.reset();
      setLinking(providerId);
      const result = await linkAction.run(providerId);
      // On success the browser is on its way to the provider: the button stays busy.
      if (result.error) setLinking(null);
    },
    [linkAction, unlinkAction],
  );

  const confirmUnlink = useCallback(async () => {
    const target = confirming;
    if (!target) return;
    // The dialog closes first: a re-authentication dialog may need the screen.
    setConfirming(null);
    setUnlinked(null);
    linkAction.reset();
    const result = await unlinkAction.run(target.account);
    if (!result.error) setUnlinked(target.name);
  }, [confirming, linkAction, unlinkAction]);

  return {
    accounts,
    isPending: list.isPending && !list.data,
    loadError: list.error,
    available,
    link,
    linking,
    confirming,
    requestUnlink: (account) => {
      unlinkAction.reset();
      setConfirming(account);
    },
    cancelUnlink: () => setConfirming(null),
    confirmUnlink,
    unlinking: unlinkAction.isPending,
    unlinked,
    error: linkAction.error ?? unlinkAction.error,
  };
}

// ---------------------------------------------------------------------------------------
// Sessions

export interface ActiveSession {
  session: Session;
  /** True for the session of this browser. */
  current: boolean;
  /** "Firefox on Linux", in the provider's language. */
  device: string;
  /** "5 minutes ago", or a date for older sessions. */
  lastActive: string;
}

export interface UseActiveSessionsResult {
  /** This device first, then the most recently active. */
  sessions: ActiveSession[];
  isPending: boolean;
  loadError: AuthError | null;
  revoke: (session: Session) => Promise<void>;
  /** The id of the session being signed out. */
  revoking: string | null;
  confirmingOthers: boolean;
  requestRevokeOthers: () => void;
  cancelRevokeOthers: () => void;
  revokeOthers: () => Promise<void>;
  revokingOthers: boolean;
  notice: "revoked" | "othersRevoked" | null;
  error: AuthError | null;
}

/** "Firefox on Linux" for a User-Agent header, in the provider's language. */
export function deviceLabel(userAgent: string | null | undefined, messages: Messages): string {
  const strings = messages.account.sessions;
  const { browser, os } = parseUserAgent(userAgent);
  if (!browser && !os) return strings.unknownDevice;
  return strings.device({
    browser: browser ?? strings.unknownBrowser,
    os: os ?? strings.unknownOs,
  });
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["minute", 60],
  ["hour", 60 * 60],
  ["day", 24 * 60 * 60],
];

/** How long ago `date` was: relative within a week, a date after that. */
export function lastActiveText(
  date: string,
  locale: string,
  messages: Messages,
  now: number = Date.now(),
): string {
  const time = new Date(date).getTime();
  if (Number.isNaN(time)) return "";
  const seconds = Math.round((now - time) / 1000);
  let when: string;
  if (seconds < 60) when = messages.account.sessions.justNow;
  else if (seconds < 7 * 24 * 60 * 60) {
    let unit: [Intl.RelativeTimeFormatUnit, number] = ["minute", 60];
    for (const candidate of UNITS) if (seconds >= candidate[1]) unit = candidate;
    when = new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(
      -Math.floor(seconds / unit[1]),
      unit[0],
    );
  } else when = new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(time);
  return messages.account.sessions.lastActive({ when });
}

export function useActiveSessions(): UseActiveSessionsResult {
  const { client, locale } = useAuthContext();
  const messages = useMessages();
  const current = useSession().data?.session.id ?? null;
  const list = useListSessions();
  const [revoking, setRevoking] = useState<string | null>(null);
  const [confirmingOthers, setConfirmingOthers] = useState(false);
  const [notice, setNotice] = useState<UseActiveSessionsResult["notice"]>(null);
  const revokeAction = useAction((token: string) => client.revokeSession({ token }), {
    invalidates: [QUERY_KEYS.sessions],
  });
  const othersAction = useAction(() => client.revokeOtherSessions(), {
    invalidates: [QUERY_KEYS.sessions],
  });
  const language = locale === "pseudo" ? "en" : locale;

  const sessions = (list.data ?? [])
    .map((session) => ({
      session,
      current: session.id === current,
      device: deviceLabel(session.userAgent, messages),
      lastActive: lastActiveText(session.updatedAt, language, messages),
    }))
    .sort(
      (a, b) =>
        Number(b.current) - Number(a.current) ||
        new Date(b.session.updatedAt).getTime() - new Date(a.session.updatedAt).getTime(),
    );

  const revoke = useCallback(
    async (session: Session) => {
      setNotice(null);
      othersAction.reset();
      setRevoking(session.id);
      const result = await revokeAction.run(session.token);
      setRevoking(null);
      if (!result.error) setNotice("revoked");
    },
    [othersAction, revokeAction],
  );

  const revokeOthers = useCallback(async () => {
    setConfirmingOthers(false);
    setNotice(null);
    revokeAction.reset();
    const result = await othersAction.run();
    if (!result.error) setNotice("othersRevoked");
  }, [othersAction, revokeAction]);

  return {
    sessions,
    isPending: list.isPending && !list.data,
    loadError: list.error,
    revoke,
    revoking,
    confirmingOthers,
    requestRevokeOthers: () => setConfirmingOthers(true),
    cancelRevokeOthers: () => setConfirmingOthers(false),
    revokeOthers,
    revokingOthers: othersAction.isPending,
    notice,
    error: revokeAction.error ?? othersAction.error,
  };
}

// ---------------------------------------------------------------------------------------
// Delete account

export interface UseDeleteAccountOptions {
  /** Where to go once the account is deleted; default the provider's `paths.afterSignOut`. */
  redirectTo?: string;
  /**
   * Where the mailed confirmation link leads once followed: authd goes there after
   * deleting, and (a bad, expired or used link) with `?error=` added. Default `redirectTo`.
   */
  callbackURL?: string;
}

export interface UseDeleteAccountResult {
  /** Whether the confirmation asks for the password (the user has one); undefined while loading. */
  needsPassword: boolean | undefined;
  confirming: boolean;
  requestDelete: () => void;
  cancel: () => void;
  password: string;
  setPassword: (value: string) => void;
  fieldErrors: FieldErrors<"password">;
  error: AuthError | null;
  pending: boolean;
  /** True when the server mailed a confirmation link instead of deleting at once. */
  emailSent: boolean;
  submit: (event?: FormEvent) => Promise<void>;
}

/** The answer delete-user gives when it mailed a link and deleted nothing yet. */
const CONFIRMATION_SENT = "Verification email sent";

export function useDeleteAccount(options: UseDeleteAccountOptions = {}): UseDeleteAccountResult {
  const { client, navigate, paths } = useAuthContext();
  const { common } = useMessages();
  const errorText = useErrorText();
  const { hasPassword: needsPassword } = useHasPassword();
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState("");
  const [checked, setChecked] = useState<FieldErrors<"password">>({});
  const [emailSent, setEmailSent] = useState(false);
  const redirectTo = options.redirectTo ?? paths.afterSignOut;
  const callbackURL = absoluteURL(options.callbackURL ?? redirectTo);
  const action = useAction((body: { password?: string; callbackURL: string }) =>
    client.deleteUser(body),
  );

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      const found: FieldErrors<"password"> = {};
      if (needsPassword && !password) found.password = common.required;
      setChecked(found);
      if (hasErrors(found)) return action.reset();
      const result = await action.run({
        ...(needsPassword ? { password } : {}),
        callbackURL,
      });
      if (result.error) return;
      setPassword("");
      setConfirming(false);
      if (result.data.message === CONFIRMATION_SENT) setEmailSent(true);
      else navigate(redirectTo);
    },
    [action, common, navigate, needsPassword, password, redirectTo, callbackURL],
  );

  const { error } = action;
  const fieldErrors: FieldErrors<"password"> = hasErrors(checked)
    ? checked
    : error && (error.code === "INVALID_PASSWORD" || error.code === "USER_ALREADY_HAS_PASSWORD")
      ? { password: errorText(error) }
      : {};
  return {
    needsPassword,
    confirming,
    requestDelete: () => {
      action.reset();
      setChecked({});
      setEmailSent(false);
      setConfirming(true);
    },
    cancel: () => {
      setConfirming(false);
      setPassword("");
    },
    password,
    setPassword,
    fieldErrors,
    error,
    pending: action.isPending,
    emailSent,
    submit,
  };
}
