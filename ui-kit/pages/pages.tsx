/**
 * One component per page: a <main> landmark, one <h1>, the page's title, and the kit's
 * screen for it. Pages of the signed-in send a signed-out visitor to sign-in and back.
 */
import { type ReactNode, useEffect } from "react";
import {
  AcceptInvitation,
  type AccountSectionName,
  AccountSettings,
  CreateOrganization,
  DEFAULT_ACCOUNT_SECTIONS,
  DELETE_ACCOUNT_MARKER,
  ForgotPassword,
  OrganizationSettings,
  OrganizationSwitcher,
  ResetPassword,
  SignIn,
  SignUp,
  Teams,
  UserButton,
  useAuthContext,
  useMessages,
  useSession,
  VerifyEmail,
} from "../src/index.js";
import { absoluteURL } from "../src/ui/urls.js";
import { type Route, safeRedirect } from "./router.js";
import type { PageSettings } from "./settings.js";
import { pageText } from "./text.js";

interface FrameProps {
  title: string;
  /** Shown as the page's heading; otherwise the <h1> is for screen readers only. */
  visibleHeading?: boolean;
  narrow?: boolean;
  children?: ReactNode;
}

function Frame({ title, visibleHeading, narrow, children }: FrameProps) {
  useEffect(() => {
    document.title = `${title} · authd`;
  }, [title]);
  return (
    <main className={narrow ? "page page-narrow" : "page"}>
      <h1 className={visibleHeading ? undefined : "visually-hidden"}>{title}</h1>
      {children}
    </main>
  );
}

function useText() {
  return pageText(useAuthContext().locale);
}

/** The address of this page, to come back to after signing in. */
function currentPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/**
 * Renders `children` for a signed-in visitor; sends anyone else to sign-in and back, or
 * to `signedOutHref` when given.
 */
function SignedIn({
  replace,
  signedOutHref,
  children,
}: {
  replace: (href: string) => void;
  signedOutHref?: string;
  children: ReactNode;
}) {
  const session = useSession();
  const { paths } = useAuthContext();
  const text = useText();
  const signedOut = !session.data && !session.isPending;
  useEffect(() => {
    if (!signedOut) return;
    const query = new URLSearchParams({ redirectTo: currentPath() });
    replace(signedOutHref ?? `${paths.signIn}?${query.toString()}`);
  }, [signedOut, signedOutHref, paths.signIn, replace]);
  if (!session.data) return <p aria-live="polite">{text.loading}</p>;
  return <>{children}</>;
}

function query(): URLSearchParams {
  return new URLSearchParams(window.location.search);
}

function HomePage({ settings, replace }: PageProps) {
  const session = useSession();
  const { Link, paths } = useAuthContext();
  const { account, organization } = useMessages();
  const text = useText();
  const signedOut = !session.data && !session.isPending;
  useEffect(() => {
    if (signedOut) replace(paths.signIn);
  }, [signedOut, paths.signIn, replace]);
  return (
    <Frame title={text.home} visibleHeading>
      {session.data ? (
        <>
          <div className="page-bar">
            {settings.organization ? <OrganizationSwitcher /> : <span />}
            <UserButton />
          </div>
          <nav className="page-links" aria-label={text.home}>
            <Link href={paths.account}>{account.userButton.account}</Link>
            {settings.organization ? (
              <Link href={paths.organization}>{organization.settings.title}</Link>
            ) : null}
          </nav>
        </>
      ) : (
        <p aria-live="polite">{text.loading}</p>
      )}
    </Frame>
  );
}

function SignInPage() {
  const { auth } = useMessages();
  const text = useText();
  const params = query();
  return (
    <Frame title={auth.signIn.title} narrow>
      {params.get("deleted") === "1" ? (
        <p className="page-notice" role="status">
          {text.accountDeleted}
        </p>
      ) : null}
      <SignIn redirectTo={safeRedirect(params.get("redirectTo"))} />
    </Frame>
  );
}

function SignUpPage({ settings }: PageProps) {
  const { auth } = useMessages();
  const params = query();
  return (
    <Frame title={auth.signUp.title} narrow>
      <SignUp
        redirectTo={safeRedirect(params.get("redirectTo"))}
        invitationId={params.get("invitationId") ?? undefined}
        minPasswordLength={settings.passwordMinLength}
        maxPasswordLength={settings.passwordMaxLength}
      />
    </Frame>
  );
}

function ForgotPasswordPage() {
  const { auth } = useMessages();
  return (
    <Frame title={auth.forgotPassword.title} narrow>
      <ForgotPassword />
    </Frame>
  );
}

function ResetPasswordPage({ settings }: PageProps) {
  const { auth } = useMessages();
  return (
    <Frame title={auth.resetPassword.title} narrow>
      <ResetPassword
        minPasswordLength={settings.passwordMinLength}
        maxPasswordLength={settings.passwordMaxLength}
      />
    </Frame>
  );
}

function VerifyEmailPage() {
  const { auth } = useMessages();
  return (
    <Frame title={auth.verifyEmail.unverifiedTitle} narrow>
      <VerifyEmail />
    </Frame>
  );
}

function AcceptInvitationPage({ invitationId }: { invitationId: string }) {
  const { invitations } = useMessages();
  return (
    <Frame title={invitations.page.title} narrow>
      <AcceptInvitation invitationId={invitationId} />
    </Frame>
  );
}

function AccountPage({ settings, replace }: PageProps) {
  const { account } = useMessages();
  const { paths } = useAuthContext();
  const sections: readonly AccountSectionName[] = settings.deleteUser
    ? DEFAULT_ACCOUNT_SECTIONS
    : DEFAULT_ACCOUNT_SECTIONS.filter((section) => section !== "deleteAccount");
  const deleted = `${paths.signIn}?deleted=1`;
  // The mailed deletion link comes back here: without an error the account is gone (and
  // the visitor signed out), so sign-in says so; with one, this page shows it.
  const params = query();
  const linkDeleted = params.get(DELETE_ACCOUNT_MARKER) === "1" && !params.has("error");
  return (
    <Frame title={account.settings.title}>
      <SignedIn replace={replace} signedOutHref={linkDeleted ? deleted : undefined}>
        <AccountSettings
          sections={sections}
          afterDeletePath={deleted}
          deleteCallbackURL={absoluteURL(`${paths.account}?${DELETE_ACCOUNT_MARKER}=1`)}
          minPasswordLength={settings.passwordMinLength}
          maxPasswordLength={settings.passwordMaxLength}
        />
      </SignedIn>
    </Frame>
  );
}

function OrganizationPage({ settings, replace }: PageProps) {
  const { organization } = useMessages();
  return (
    <Frame title={organization.settings.title}>
      <SignedIn replace={replace}>
        <div className="page-bar">
          <OrganizationSwitcher />
          <UserButton />
        </div>
        <OrganizationSettings />
        {settings.teams ? <Teams /> : null}
      </SignedIn>
    </Frame>
  );
}

function CreateOrganizationPage({ replace }: PageProps) {
  const { organization } = useMessages();
  return (
    <Frame title={organization.create.title} narrow>
      <SignedIn replace={replace}>
        <CreateOrganization />
      </SignedIn>
    </Frame>
  );
}

function NotFoundPage() {
  const { Link, paths } = useAuthContext();
  const text = useText();
  return (
    <Frame title={text.notFoundTitle} visibleHeading narrow>
      <p>{text.notFoundText}</p>
      <p>
        <Link href={paths.afterSignIn}>{text.backHome}</Link>
      </p>
    </Frame>
  );
}

interface PageProps {
  settings: PageSettings;
  replace: (href: string) => void;
}

export function Page({ route, ...props }: PageProps & { route: Route }) {
  switch (route.name) {
    case "home":
      return <HomePage {...props} />;
    case "sign-in":
      return <SignInPage />;
    case "sign-up":
      return <SignUpPage {...props} />;
    case "forgot-password":
      return <ForgotPasswordPage />;
    case "reset-password":
      return <ResetPasswordPage {...props} />;
    case "verify-email":
      return <VerifyEmailPage />;
    case "accept-invitation":
      return <AcceptInvitationPage invitationId={route.invitationId} />;
    case "account":
      return <AccountPage {...props} />;
    case "organization":
      return <OrganizationPage {...props} />;
    case "create-organization":
      return <CreateOrganizationPage {...props} />;
    case "not-found":
      return <NotFoundPage />;
  }
}
