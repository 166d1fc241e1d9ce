/**
 * Providers that serve OpenID Connect under `<origin>/oauth/` (authorize, token,
 * userinfo), issue id tokens as `<origin>` and answer the standard userinfo claims:
 * GitLab and Hugging Face lay themselves out alike.
 */
import type { ProviderDefinition } from "../provider.js";
import { userInfoProfile } from "./read.js";

export function oauthAtOrigin(fields: {
  id: string;
  name: string;
  origin: string;
  tokenEndpointAuth: ProviderDefinition["tokenEndpointAuth"];
  /** Where the id tokens' key set is, below the origin. */
  jwksPath: string;
}): ProviderDefinition {
  const { origin } = fields;
  const definition: ProviderDefinition = {
    id: fields.id,
    name: fields.name,
    authorizationEndpoint: `${origin}/oauth/authorize`,
    tokenEndpoint: `${origin}/oauth/token`,
    userInfoEndpoint: `${origin}/oauth/userinfo`,
    scopes: ["openid", "profile", "email"],
    pkce: true,
    tokenEndpointAuth: fields.tokenEndpointAuth,
    idToken: { issuer: origin, jwksUri: `${origin}${fields.jwksPath}` },
    fetchProfile: (request) => userInfoProfile(request, definition),
  };
  return definition;
}
