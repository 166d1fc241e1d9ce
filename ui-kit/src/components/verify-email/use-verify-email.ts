/**
 * The verify-email logic without markup: the token from the mailed link (a prop or the
 * page's `?token=`) is sent once; an `?error=` authd redirected with is a failure;
 * without either, a signed-in but unverified user can have the link sent again.
 * <VerifyEmail/> is this plus markup.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import { useSession } from "../../hooks/use-session.js";
import { redirectError } from "../../ui/redirect-error.js";
import { useUrlQuery } from "../../ui/url-query.js";
import { absoluteURL, sameSitePath, withQuery } from "../../ui/urls.js";

export interface UseVerifyEmailOptions {
  /** The verification token; by default the page's `?token=` query parameter. */
  token?: string;
  /**
   * Where "Continue" goes once verified; default the page's `?redirectTo=` (a path of
   * this site, as the kit's sign-up and sign-in put there), else `paths.afterSignIn`.
   */
  redirectTo?: string;
  onVerified?: () => void;
}

/**
 * "loading" until the address and session are known; "verifying" while the token is
 * checked; "unverified" when signed in without a verified address and no link was
 * followed; "signed-out" when there is nothing to verify and nobody to send a link to.
 */
export type VerifyEmailStep =
  | "loading"
  | "verifying"
  | "verified"
  | "failed"
  | "unverified"
  | "sent"
  | "signed-out";

export interface UseVerifyEmailResult {
  step: VerifyEmailStep;
  /**
   * Why verifying failed, in the "failed" step; in the "verified" step, what failed
   * after the address was verified (joining the invitation the sign-up named).
   */
  error: AuthError | null;
  /** True when the address had been verified before (the link was followed twice). */
  alreadyVerified: boolean;
  /** The signed-in user's address, if any: where a new link goes. */
  email: string | null;
  /** True when a new link can be asked for (signed in with an unverified address). */
  canResend: boolean;
  resend: () => Promise<void>;
  resendPending: boolean;
  resendError: AuthError | null;
  /** Goes on to `redirectTo`. */
  continueToApp: () => void;
}

type Outcome = { ok: true; already: boolean } | { ok: false; error: AuthError };

/**
 * The codes authd redirects with when the link itself did not work. Any other code came
 * after the address was verified: a sign-up's invitation that could not be accepted.
 */
const LINK_FAILURES = new Set([
  "INVALID_TOKEN",
  "TOKEN_EXPIRED",
  "USER_NOT_FOUND",
  "COULD_NOT_UPDATE_EMAIL",
]);

export function useVerifyEmail(options: UseVerifyEmailOptions = {}): UseVerifyEmailResult {
  const { client, navigate, paths } = useAuthContext();
  const session = useSession();
  const query = useUrlQuery();
  const requested = useRef<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [resendPending, setResendPending] = useState(false);
  const [resendError, setResendError] = useState<AuthError | null>(null);
  const [sent, setSent] = useState(false);
  const onVerifiedRef = useRef(options.onVerified);
  onVerifiedRef.current = options.onVerified;

  const redirectTo =
    options.redirectTo ?? sameSitePath(query?.get("redirectTo")) ?? paths.afterSignIn;
  const token = options.token ?? query?.get("token") ?? undefined;
  const urlError = query?.get("error");

  useEffect(() => {
    // Strict mode runs effects twice and the ref survives: one token, one request.
    if (!token || urlError || requested.current === token) return;
    requested.current = token;
    setOutcome(null);
    void client.verifyEmail({ token }).then((result) => {
      if (requested.current !== token) return;
      if (!result.error) {
        setOutcome({ ok: true, already: false });
        onVerifiedRef.current?.();
      } else if (result.error.code === "EMAIL_ALREADY_VERIFIED") {
        setOutcome({ ok: true, already: true });
      } else {
        setOutcome({ ok: false, error: result.error });
      }
    });
  }, [client, token, urlError]);

  const user = session.data?.user ?? null;
  const email = user?.email ?? null;
  const canResend = Boolean(user && !user.emailVerified);

  let step: VerifyEmailStep;
  let error: AuthError | null = null;
  if (urlError) {
    error = redirectError(urlError);
    step = LINK_FAILURES.has(error.code) ? "failed" : "verified";
  } else if (token) {
    if (!outcome) step = "verifying";
    else if (outcome.ok) step = "verified";
    else {
      step = "failed";
      error = outcome.error;
    }
  } else if (query?.get("verified") === "1") step = "verified";
  else if (query === null || (session.isPending && !session.data)) step = "loading";
  else if (!user) step = "signed-out";
  else if (user.emailVerified) step = "verified";
  else step = sent ? "sent" : "unverified";
  if (step === "failed" && sent) step = "sent";

  const resend = useCallback(async () => {
    if (!email) return;
    setResendPending(true);
    setResendError(null);
    const result = await client.sendVerificationEmail({
      email,
      // A followed link comes back here without a token: the marker says it worked
      // (a failure comes back with `error` as well, which wins).
      callbackURL: absoluteURL(withQuery(paths.verifyEmail, "verified", "1")),
    });
    setResendPending(false);
    if (result.error) setResendError(result.error);
    else setSent(true);
  }, [client, email, paths.verifyEmail]);

  const continueToApp = useCallback(() => navigate(redirectTo), [navigate, redirectTo]);

  return {
    step,
    error,
    alreadyVerified: outcome?.ok === true && outcome.already,
    email,
    canResend,
    resend,
    resendPending,
    resendError,
    continueToApp,
  };
}
