/**
 * A configured provider id made concrete: its definition (the catalogue's, or a generic
 * OpenID Connect one from the issuer's discovery document or the three configured
 * endpoints), with every endpoint the configuration names taking precedence.
 */
import { AuthError } from "../errors.js";
import type { SocialContext } from "./context.js";
import { discovered, readStandardProfile } from "./oidc.js";
import type { ResolvedProvider } from "./ports.js";

export type { ResolvedProvider };

/** Scopes of a provider authd knows only by its issuer or its endpoints. */
const STANDARD_SCOPES = ["openid", "email", "profile"];

/** The ids of the configured providers with their display names, for sign-in buttons. */
export function listConfiguredProviders(
  social: SocialContext,
): Array<{ id: string; name: string }> {
  return Object.entries(social.config.socialProviders).map(([id, settings]) => ({
    id,
    name:
      settings.name ??
      (Object.hasOwn(social.catalogue, id) ? social.catalogue[id]?.name : id) ??
      id,
  }));
}

/** Whether `id` is configured at all (before any discovery). */
export function isConfigured(social: SocialContext, id: string): boolean {
  return Object.hasOwn(social.config.socialProviders, id);
}

/**
 * The provider configured under `id`, or null when there is none. An issuer that
 * cannot be discovered is 502 PROVIDER_UNAVAILABLE.
 */
export async function resolveProvider(
  social: SocialContext,
  id: string,
): Promise<ResolvedProvider | null> {
  if (!isConfigured(social, id)) return null;
  const settings = social.config.socialProviders[id];
  if (!settings) return null;
  const builtIn = Object.hasOwn(social.catalogue, id) ? social.catalogue[id] : undefined;

  let base: Omit<ResolvedProvider, "clientId" | "clientSecret" | "redirectURI" | "signUp">;
  if (settings.issuer) {
    const issuer = await discovered(social, id, {
      issuer: settings.issuer,
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
    }).catch(() => {
      throw new AuthError("PROVIDER_UNAVAILABLE");
    });
    base = {
      id,
      name: builtIn?.name ?? id,
      endpoints: {
        authorizationEndpoint: issuer.authorizationEndpoint,
        tokenEndpoint: issuer.tokenEndpoint,
        userInfoEndpoint: issuer.userInfoEndpoint,
      },
      scopes: builtIn?.scopes ?? STANDARD_SCOPES,
      scopeSeparator: builtIn?.scopeSeparator ?? " ",
      pkce: builtIn ? builtIn.pkce : issuer.pkce,
      tokenEndpointAuth: builtIn?.tokenEndpointAuth ?? issuer.tokenEndpointAuth,
      authorizationParams: builtIn?.authorizationParams ?? {},
      clientIdParameter: builtIn?.clientIdParameter ?? "client_id",
      callbackTokenParams: builtIn?.callbackTokenParams ?? [],
      tokenRequestHeaders: builtIn?.tokenRequestHeaders ?? {},
      tokenRefresh: builtIn?.tokenRefresh ?? true,
      idToken: issuer.jwksUri ? { issuers: [issuer.issuer], jwksUri: issuer.jwksUri } : undefined,
      issuer: { value: issuer.issuer, required: issuer.issParameter },
      fetchProfile: builtIn ? builtIn.fetchProfile.bind(builtIn) : readStandardProfile,
    };
  } else if (builtIn) {
    const { idToken } = builtIn;
    base = {
      id,
      name: builtIn.name,
      endpoints: {
        authorizationEndpoint: builtIn.authorizationEndpoint,
        tokenEndpoint: builtIn.tokenEndpoint,
        userInfoEndpoint: builtIn.userInfoEndpoint,
      },
      scopes: builtIn.scopes,
      scopeSeparator: builtIn.scopeSeparator ?? " ",
      pkce: builtIn.pkce,
      tokenEndpointAuth: builtIn.tokenEndpointAuth,
      authorizationParams: builtIn.authorizationParams ?? {},
      clientIdParameter: builtIn.clientIdParameter ?? "client_id",
      callbackTokenParams: builtIn.callbackTokenParams ?? [],
      tokenRequestHeaders: builtIn.tokenRequestHeaders ?? {},
      tokenRefresh: builtIn.tokenRefresh ?? true,
      idToken: idToken
        ? {
            issuers: Array.isArray(idToken.issuer) ? idToken.issuer : [idToken.issuer],
            jwksUri: idToken.jwksUri,
          }
        : undefined,
      fetchProfile: builtIn.fetchProfile.bind(builtIn),
    };
  } else if (
    settings.authorizationEndpoint &&
    settings.tokenEndpoint &&
    settings.userInfoEndpoint
  ) {
    base = {
      id,
      name: id,
      endpoints: {
        authorizationEndpoint: settings.authorizationEndpoint,
        tokenEndpoint: settings.tokenEndpoint,
        userInfoEndpoint: settings.userInfoEndpoint,
      },
      scopes: STANDARD_SCOPES,
      scopeSeparator: " ",
      pkce: true,
      tokenEndpointAuth: "client_secret_basic",
      authorizationParams: {},
      clientIdParameter: "client_id",
      callbackTokenParams: [],
      tokenRequestHeaders: {},
      tokenRefresh: true,
      fetchProfile: readStandardProfile,
    };
  } else {
    // Configuration validation refuses this; a hand-built config object may still hold it.
    return null;
  }

  return {
    ...base,
    name: settings.name ?? base.name,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    // What the operator configured wins over the catalogue and over discovery.
    endpoints: {
      authorizationEndpoint: settings.authorizationEndpoint ?? base.endpoints.authorizationEndpoint,
      tokenEndpoint: settings.tokenEndpoint ?? base.endpoints.tokenEndpoint,
      userInfoEndpoint: settings.userInfoEndpoint ?? base.endpoints.userInfoEndpoint,
    },
    scopes: settings.scopes ?? base.scopes,
    redirectURI: settings.redirectURI,
    signUp: {
      disabled: settings.disableSignUp,
      implicitDisabled: settings.disableImplicitSignUp,
    },
  };
}
