/**
 * Microsoft (Entra ID work and school accounts and personal Microsoft accounts), through
 * the multi-tenant "common" endpoints.
 *
 * The `email` claim is whatever the account's tenant put there; a tenant administrator
 * can set any address, so Microsoft tells applications not to trust it. An address
 * counts as verified only when the token carries `xms_edov: true`, the optional claim
 * saying the domain owner verified it (added in the app registration's token
 * configuration). Profile photos are only served through Graph with the user's token,
 * never at a public URL, so `image` is null.
 */
import type { ProviderDefinition } from "../provider.js";
import { idTokenOrUserInfoProfile, isTrue, nameOf, type ProfileMapping, text } from "./read.js";

/** Boolean optional claims arrive as true, "true" or 1 depending on the token version. */
function claimIsTrue(value: unknown): boolean {
  return isTrue(value) || value === 1 || value === "1";
}

const fromClaims: ProfileMapping = (claims, id) => {
  const email = text(claims.email);
  return {
    email,
    emailVerified: email !== null && claimIsTrue(claims.xms_edov),
    name: nameOf([claims.name, claims.preferred_username], email, id),
    image: null,
  };
};

export const microsoft: ProviderDefinition = {
  id: "microsoft",
  name: "Microsoft",
  authorizationEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
  tokenEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
  userInfoEndpoint: "https://graph.microsoft.com/oidc/userinfo",
  scopes: ["openid", "profile", "email"],
  pkce: true,
  tokenEndpointAuth: "client_secret_post",
  // Each tenant signs as itself: the issuer of a token from the common endpoint names the
  // user's tenant (`tid`), personal accounts included (their tenant is fixed).
  idToken: {
    issuer: "https://login.microsoftonline.com/{tenantid}/v2.0",
    jwksUri: "https://login.microsoftonline.com/common/discovery/v2.0/keys",
  },
  fetchProfile: (request) => idTokenOrUserInfoProfile(request, microsoft, fromClaims),
};
