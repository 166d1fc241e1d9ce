/**
 * Social sign-in over HTTP: sign-in/social and link-social start an authorization (or
 * take an id token), the callback finishes it with a redirect, social-providers lists
 * what a sign-in page may offer, and get-access-token and refresh-token hand a linked
 * account's provider tokens to the signed-in user.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AuthError } from "../errors.js";
import { type AuthContext, publicBaseUrl, requireSession } from "../http/auth-context.js";
import { isAllowedRedirect } from "../http/origin.js";
import { withQuery } from "../http/redirects.js";
import { errorResponses, redirectAnswer, routeSchema } from "../http/schemas.js";
import { expireCookieIfSent, readStateCookie, setStateCookie } from "../http/session-cookies.js";
import { issueSession } from "../http/session-response.js";
import type { ZodTypeProvider } from "../http/validation.js";
import { countSignIn, socialCallbackOutcome } from "../metrics/metrics.js";
import { userResponse } from "../sessions/sessions.js";
import { registeredCallbackURL } from "./callback-url.js";
import { beginAuthorization, type CallbackOutcome, completeAuthorization } from "./flow.js";
import { linkWithIdToken, signInWithIdToken } from "./id-token-sign-in.js";
import {
  getAccessToken,
  refreshTokens,
  type TokenAccountSelector,
  type TokenRequest,
} from "./provider-tokens.js";
import { listConfiguredProviders, type ResolvedProvider, resolveProvider } from "./resolve.js";
import {
  accessTokenAnswer,
  CALLBACK_PARAMETER_NAMES,
  callbackParameters,
  callbackPath,
  linkSocialAnswer,
  linkSocialBody,
  refreshTokenAnswer,
  signInSocialAnswer,
  signInSocialBody,
  socialProvidersAnswer,
  tokenAccountBody,
} from "./schemas.js";
import { STATE_LIFETIME_SECONDS } from "./state.js";

/** The list changes only with the configuration: browsers and proxies may keep it a while. */
const PROVIDER_LIST_CACHE = "public, max-age=300";

export function socialRoutes(context: AuthContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const { social } = context;

    const providerOr404 = async (id: string): Promise<ResolvedProvider> => {
      const provider = await resolveProvider(social, id);
      if (!provider) throw new AuthError("PROVIDER_NOT_FOUND");
      return provider;
    };

    // The URI the operator registered (what `authd init` printed), else under this
    // request's own origin when no baseURL is configured.
    const redirectURIOf = (provider: ResolvedProvider, request: FastifyRequest) =>
      registeredCallbackURL(context.config, provider.id) ??
      `${publicBaseUrl(context, request)}/callback/${provider.id}`;

    /** The caller's request for an account's tokens, as both token routes read it. */
    const tokenRequestOf = async (
      request: FastifyRequest,
      selector: TokenAccountSelector,
    ): Promise<TokenRequest> => {
      const { user } = await requireSession(context, request);
      return { userId: user.id, selector, logger: request.log };
    };

    /** `{url, redirect}`, with the Location header unless the client handles the redirect. */
    const answerWith = (reply: FastifyReply, url: string, disableRedirect: boolean | undefined) => {
      if (disableRedirect !== true) reply.header("location", url);
      return { url, redirect: disableRedirect !== true };
    };

    typed.post(
      "/sign-in/social",
      routeSchema({ body: signInSocialBody }, signInSocialAnswer, 401, 403, 404, 409, 422, 502),
      async (request, reply) => {
        const { body } = request;
        const provider = await providerOr404(body.provider);
        const { idToken } = body;
        if (idToken) {
          // The id-token branch: social.verifyIdToken checks the token.
          return countSignIn(context.metrics, "social", async () => {
            const user = await signInWithIdToken(social, context.sql, provider, idToken, {
              requestSignUp: body.requestSignUp === true,
              logger: request.log,
            });
            const { token } = await issueSession(context, request, reply, user);
            return { redirect: false, token, user: userResponse(user) };
          });
        }
        const { url, state } = await beginAuthorization(context.sql, {
          provider,
          redirectURI: redirectURIOf(provider, request),
          callbackURL: body.callbackURL || "/",
          newUserCallbackURL: body.newUserCallbackURL || undefined,
          errorCallbackURL: body.errorCallbackURL || undefined,
          scopes: body.scopes,
          loginHint: body.loginHint,
          requestSignUp: body.requestSignUp === true,
        });
        setStateCookie(request, reply, context.cookies, state, STATE_LIFETIME_SECONDS);
        return answerWith(reply, url, body.disableRedirect);
      },
    );

    typed.post(
      "/link-social",
      routeSchema({ body: linkSocialBody }, linkSocialAnswer, 401, 403, 404, 409, 502),
      async (request, reply) => {
        // Read from the database, not the cookie cache: linking changes how one signs in.
        const { user } = await requireSession(context, request);
        if (!context.config.account.accountLinking.enabled) {
          throw new AuthError("ACCOUNT_LINKING_DISABLED");
        }
        const { body } = request;
        const provider = await providerOr404(body.provider);
        if (body.idToken) {
          // The id-token branch, as in sign-in/social.
          await linkWithIdToken(social, context.sql, provider, body.idToken, user.id, request.log);
          return { url: "", redirect: false, status: true };
        }
        const { url, state } = await beginAuthorization(context.sql, {
          provider,
          redirectURI: redirectURIOf(provider, request),
          callbackURL: body.callbackURL || "/",
          errorCallbackURL: body.errorCallbackURL || undefined,
          scopes: body.scopes,
          requestSignUp: body.requestSignUp === true,
          link: { userId: user.id, email: user.email },
        });
        setStateCookie(request, reply, context.cookies, state, STATE_LIFETIME_SECONDS);
        return answerWith(reply, url, body.disableRedirect);
      },
    );

    /** Sends the browser where the outcome says, starting the session of a sign-in. */
    const redirectFor = async (
      request: FastifyRequest,
      reply: FastifyReply,
      outcome: CallbackOutcome,
    ): Promise<FastifyReply> => {
      const base = publicBaseUrl(context, request);
      const origin = new URL(base).origin;
      // Checked when the flow started, and again here like every redirect authd issues.
      const place = (target: string | undefined): string | undefined => {
        if (!target || !isAllowedRedirect(target, context.config, request)) return undefined;
        return target.startsWith("/") ? `${origin}${target}` : target;
      };
      const fail = (code: string, errorCallbackURL?: string, description?: string) =>
        reply.redirect(
          withQuery(
            place(errorCallbackURL) ?? `${base}/error`,
            description ? { error: code, error_description: description } : { error: code },
          ),
          302,
        );

      if (outcome.kind === "failed") {
        // A failed link is no sign-in; a callback whose state is unknown counts as one.
        if (!outcome.state?.link) {
          context.metrics?.countSignIn("social", socialCallbackOutcome(outcome.code));
        }
        return fail(outcome.code, outcome.state?.errorCallbackURL, outcome.description);
      }
      const { state } = outcome;
      if (outcome.kind === "linked")
        return reply.redirect(place(state.callbackURL) ?? `${origin}/`, 302);
      try {
        await countSignIn(context.metrics, "social", () =>
          issueSession(context, request, reply, outcome.user),
        );
      } catch (error) {
        if (error instanceof AuthError && error.code === "BANNED_USER") {
          return fail("BANNED_USER", state.errorCallbackURL);
        }
        throw error;
      }
      const target =
        (outcome.isNewUser ? place(state.newUserCallbackURL) : undefined) ??
        place(state.callbackURL) ??
        `${origin}/`;
      return reply.redirect(target, 302);
    };

    typed.get(
      "/callback/:id",
      {
        schema: {
          params: callbackPath,
          querystring: callbackParameters,
          response: { 302: redirectAnswer, ...errorResponses() },
        },
      },
      async (request, reply) => {
        const stateCookie = readStateCookie(request, context.cookies);
        // The flow the cookie was for ends here, whatever the outcome; a callback naming
        // another state (a stale link, a forged one) leaves the browser's own flow alone.
        if (stateCookie !== null && stateCookie === request.query.state) {
          expireCookieIfSent(request, reply, context.cookies, "state");
        }
        const outcome = await completeAuthorization(social, context.sql, {
          providerId: request.params.id,
          parameters: request.query,
          stateCookie,
          logger: request.log,
        });
        return redirectFor(request, reply, outcome);
      },
    );

    typed.post(
      "/callback/:id",
      {
        schema: {
          params: callbackPath,
          querystring: callbackParameters,
          // A provider may send the fields in the query alone, with no body at all.
          body: callbackParameters.nullish(),
          response: { 302: redirectAnswer, ...errorResponses(415) },
        },
      },
      async (request, reply) => {
        // A provider's form_post: the browser comes back by GET, which carries the
        // SameSite=Lax state cookie that this cross-site POST did not.
        const sent: Record<string, string | undefined> = { ...request.query, ...request.body };
        const query = new URLSearchParams();
        for (const name of CALLBACK_PARAMETER_NAMES) {
          const value = sent[name];
          if (value !== undefined) query.set(name, value);
        }
        const path = `/callback/${encodeURIComponent(request.params.id)}`;
        return reply.redirect(`${publicBaseUrl(context, request)}${path}?${query}`, 302);
      },
    );

    typed.post(
      "/get-access-token",
      routeSchema({ body: tokenAccountBody }, accessTokenAnswer, 401, 403),
      async (request) =>
        getAccessToken(social, context.sql, await tokenRequestOf(request, request.body)),
    );

    typed.post(
      "/refresh-token",
      routeSchema({ body: tokenAccountBody }, refreshTokenAnswer, 401, 403),
      async (request) =>
        refreshTokens(social, context.sql, await tokenRequestOf(request, request.body)),
    );

    typed.get(
      "/social-providers",
      routeSchema({}, socialProvidersAnswer),
      async (_request, reply) => {
        reply.header("cache-control", PROVIDER_LIST_CACHE);
        return listConfiguredProviders(social);
      },
    );
  };
}
