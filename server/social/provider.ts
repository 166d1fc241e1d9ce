/**
 * What authd knows about a social provider, and what it makes of the provider's
 * answers. The catalogue (providers/) holds one definition per built-in provider id;
 * any other id configured with an OpenID Connect `issuer` gets its definition from
 * the issuer's discovery document. Configuration may override every endpoint.
 */

/** Tokens as the provider's token endpoint answered them, parsed. */
export interface ProviderTokens {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** When the access token stops working, when the provider said. */
  accessTokenExpiresAt?: Date;
  refreshTokenExpiresAt?: Date;
  /** The scopes granted, as the provider listed them. */
  scopes?: string[];
  tokenType?: string;
}

/** A provider's user, in the one shape authd stores. */
export interface SocialProfile {
  /** The provider's stable id for the user (stored as the account's accountId). */
  id: string;
  /** Lower-cased by the caller; null when the provider shared no address. */
  email: string | null;
  /** True only when the provider vouches for the address. */
  emailVerified: boolean;
  name: string;
  image: string | null;
}

/** How a ProviderFetch asks: the token, method, headers and body of the request. */
export interface ProviderFetchInit {
  accessToken?: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Sent as application/json. */
  body?: unknown;
  /**
   * Sent as application/x-www-form-urlencoded instead of `body`, for the API that takes
   * no JSON: VK ID's user_info wants the token and client id as form fields.
   */
  form?: Record<string, string>;
}

/** A GET (or POST) to a provider's API, bounded in time and size, parsed as JSON. */
export type ProviderFetch = (url: string, init: ProviderFetchInit) => Promise<unknown>;

/** Endpoints after configuration overrides and discovery were applied. */
export interface ProviderEndpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint?: string;
}

export interface ProfileRequest {
  tokens: ProviderTokens;
  endpoints: ProviderEndpoints;
  /** Claims of the id token, already verified, when the provider sent one. */
  idTokenClaims?: Record<string, unknown>;
  fetchJson: ProviderFetch;
  /**
   * The configured client id, for the APIs that want it beside the token: Twitch's
   * Client-Id header, VK ID's user_info form.
   */
  clientId?: string;
  /**
   * The parameters of the callback request (query string or form post). Apple sends the
   * user's name there and nowhere else, once, as an unsigned JSON `user` field.
   */
  callbackParams?: Record<string, string>;
}

/** The raw profile as the provider sent it, and authd's reading of it. */
export interface ProfileResult {
  profile: SocialProfile;
  /** What account-info returns as `data`: the provider's own fields. */
  raw: Record<string, unknown>;
}

export interface ProviderDefinition {
  id: string;
  /** Display name for sign-in buttons, e.g. "GitHub". */
  name: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint?: string;
  /** Scopes asked for unless configuration lists its own. */
  scopes: string[];
  /** How scopes are joined in the authorization URL (most use a space). */
  scopeSeparator?: " " | ",";
  /** Whether the provider accepts PKCE (S256); when true authd always sends it. */
  pkce: boolean;
  /** How the client authenticates at the token endpoint. */
  tokenEndpointAuth: "client_secret_basic" | "client_secret_post";
  /**
   * Id tokens: the issuer and its key set, for id-token sign-in and verifying callbacks.
   * `{tenantid}` in an issuer stands for the token's own `tid` claim: Microsoft's
   * multi-tenant endpoint hands out tokens whose issuer names the user's tenant, so the
   * issuer is known only once the token is read (the signature still has to match the
   * key set).
   */
  idToken?: { issuer: string | string[]; jwksUri: string };
  /** Extra authorization parameters, e.g. `access_type=offline` or `response_mode`. */
  authorizationParams?: Record<string, string>;
  /**
   * Name of the parameter carrying the client id in the authorization URL and in the token
   * request, for the rare provider that does not call it client_id (TikTok: client_key).
   */
  clientIdParameter?: string;
  /**
   * Callback parameters to copy into the token request: VK ID returns a `device_id` with
   * the code and refuses the exchange without it (and the `state`).
   */
  callbackTokenParams?: string[];
  /**
   * Headers for every request to the token endpoint: Reddit throttles or refuses clients
   * without a descriptive User-Agent.
   */
  tokenRequestHeaders?: Record<string, string>;
  /**
   * False where the token endpoint takes no `refresh_token` grant as authd would send it
   * (refresh-token answers TOKEN_REFRESH_NOT_SUPPORTED); absent, refreshing is tried.
   */
  tokenRefresh?: boolean;
  /** Reads the user from the provider; null when the provider gave nothing usable. */
  fetchProfile(request: ProfileRequest): Promise<ProfileResult | null>;
}
