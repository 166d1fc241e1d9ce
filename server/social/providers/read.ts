/**
 * Reading providers' JSON without trusting its shape: every field is checked for its type
 * before use, so a missing or odd field gives null rather than a crash or an "undefined"
 * name. Shared by the provider definitions beside this file.
 */
import type {
  ProfileRequest,
  ProfileResult,
  ProviderFetchInit,
  SocialProfile,
} from "../provider.js";

/** An object (not an array, not null), or null. */
export function asRecord(value: unknown): Record<string, unknown> | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  return value as Record<string, unknown>;
}

/** A non-blank string, trimmed, or null. */
export function text(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

/**
 * A provider's user id as a string: several send numbers (GitHub, Kick). A number past
 * 2^53 has already lost digits in JSON parsing, so it is no usable id.
 */
export function idOf(value: unknown): string | null {
  if (typeof value === "number") return Number.isSafeInteger(value) ? String(value) : null;
  return text(value);
}

/** True for `true` and for the string "true" (Apple sends its booleans as strings). */
export function isTrue(value: unknown): boolean {
  return value === true || value === "true";
}

/** An http(s) URL, or null: an image goes into pages as a link, never as anything else. */
export function imageUrl(value: unknown): string | null {
  const candidate = text(value);
  if (candidate === null) return null;
  try {
    const url = new URL(candidate);
    return url.protocol === "https:" || url.protocol === "http:" ? candidate : null;
  } catch {
    return null;
  }
}

/** The part of an address before the @, for a name when the provider gave none. */
function localPart(email: string): string | null {
  const at = email.lastIndexOf("@");
  return text(at > 0 ? email.slice(0, at) : email);
}

/**
 * The first name candidate that is not blank; then the email's local part; then the id.
 * A profile's name is never empty.
 */
export function nameOf(candidates: readonly unknown[], email: string | null, id: string): string {
  for (const candidate of candidates) {
    const name = text(candidate);
    if (name !== null) return name;
  }
  return (email === null ? null : localPart(email)) ?? id;
}

/** Joins given and family names, skipping blanks; null when both are blank. */
export function fullName(...parts: unknown[]): string | null {
  const words = parts.map(text).filter((part): part is string => part !== null);
  return words.length === 0 ? null : words.join(" ");
}

/** Adds query parameters the URL does not already carry (an override may set its own). */
export function withQuery(url: string, params: Record<string, string>): string {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(params)) {
    if (!parsed.searchParams.has(name)) parsed.searchParams.set(name, value);
  }
  return parsed.toString();
}

/** The user-info endpoint after overrides, else the definition's own. */
export function userInfoUrl(
  request: ProfileRequest,
  definition: { userInfoEndpoint?: string },
): string {
  const url = request.endpoints.userInfoEndpoint ?? definition.userInfoEndpoint;
  if (url === undefined) throw new Error("this provider has no user-info endpoint configured");
  return url;
}

/** The client id, for the APIs that want it beside the token; a clear error without it. */
export function requireClientId(request: ProfileRequest, provider: string): string {
  if (request.clientId === undefined || request.clientId === "") {
    throw new Error(`${provider}: reading the profile needs the client id`);
  }
  return request.clientId;
}

/**
 * Everything of a profile but its id, read from the provider's user once its id was found
 * usable. The part each provider states for itself: which fields hold what.
 */
export type ProfileMapping = (
  user: Record<string, unknown>,
  id: string,
) => Omit<SocialProfile, "id">;

/**
 * A profile whose email is the user's `email` field: the name is the first of `names`
 * there is (else the email, else the id), and the email counts as verified only when
 * there is one and `verified`, the provider's own statement about it, holds.
 */
export function emailFieldProfile(
  user: Record<string, unknown>,
  id: string,
  fields: { names: readonly unknown[]; image: string | null; verified: boolean },
): Omit<SocialProfile, "id"> {
  const email = text(user.email);
  return {
    email,
    emailVerified: email !== null && fields.verified,
    name: nameOf(fields.names, email, id),
    image: fields.image,
  };
}

/**
 * The user as a profile, the user itself kept as the raw data; null when there is no
 * user or its `idField` holds no usable id.
 */
function profileResult(
  user: Record<string, unknown> | null,
  idField: string,
  mapping: ProfileMapping,
): ProfileResult | null {
  const id = idOf(user?.[idField]);
  if (user === null || id === null) return null;
  return { profile: { id, ...mapping(user, id) }, raw: user };
}

/**
 * The standard OpenID Connect claims (from an id token or a userinfo answer): `email`,
 * `email_verified`, `name`, `preferred_username`, `picture`. For the providers whose
 * `email_verified` is their own statement about the address.
 */
const standardClaims: ProfileMapping = (claims, id) =>
  emailFieldProfile(claims, id, {
    names: [
      claims.name,
      fullName(claims.given_name, claims.family_name),
      claims.preferred_username,
      claims.nickname,
    ],
    image: imageUrl(claims.picture),
    verified: isTrue(claims.email_verified),
  });

/** A path into a JSON answer: object keys, and array indexes. */
export type AnswerPath = readonly (string | number)[];

/** The object at `path` inside `value`, or null when anything on the way is missing. */
function recordAt(value: unknown, path: AnswerPath): Record<string, unknown> | null {
  let current = value;
  for (const step of path) {
    if (typeof step === "number") {
      current = Array.isArray(current) ? current[step] : undefined;
    } else {
      current = asRecord(current)?.[step];
    }
  }
  return asRecord(current);
}

/** How a provider's user-info endpoint is asked, and how its user becomes a profile. */
export interface UserInfoReading {
  /** Query parameters the endpoint wants, most often which fields to answer. */
  query?: Record<string, string>;
  /**
   * The request, for an API that wants more than a GET with the bearer token; asked for
   * once the URL is known, so a missing endpoint is reported before a missing client id.
   */
  init?: () => ProviderFetchInit;
  /** Where the user sits in the answer (`["data", 0]`: first of `data`); else the answer. */
  userAt?: AnswerPath;
  /** The field holding the user's id; `id` unless said. */
  idField?: string;
  profile: ProfileMapping;
}

/**
 * Fetches the user from the user-info endpoint (after overrides) and maps it; null when
 * the answer holds no user with a usable id.
 */
export async function readUserProfile(
  request: ProfileRequest,
  definition: { userInfoEndpoint?: string },
  reading: UserInfoReading,
): Promise<ProfileResult | null> {
  const endpoint = userInfoUrl(request, definition);
  // Only when asked: parsing and printing the URL again could change its spelling.
  const url = reading.query === undefined ? endpoint : withQuery(endpoint, reading.query);
  const init = reading.init?.() ?? { accessToken: request.tokens.accessToken };
  const user = recordAt(await request.fetchJson(url, init), reading.userAt ?? []);
  return profileResult(user, reading.idField ?? "id", reading.profile);
}

/** Reads an OpenID Connect userinfo endpoint and maps its claims (the standard ones by default). */
export function userInfoProfile(
  request: ProfileRequest,
  definition: { userInfoEndpoint?: string },
  mapping: ProfileMapping = standardClaims,
): Promise<ProfileResult | null> {
  return readUserProfile(request, definition, { idField: "sub", profile: mapping });
}

/**
 * The verified id token's claims when the provider sent an id token with a subject, else
 * the userinfo endpoint's answer, both mapped alike: for the providers whose id token
 * carries the whole profile.
 */
export async function idTokenOrUserInfoProfile(
  request: ProfileRequest,
  definition: { userInfoEndpoint?: string },
  mapping: ProfileMapping = standardClaims,
): Promise<ProfileResult | null> {
  const claims = request.idTokenClaims;
  if (claims !== undefined && claims.sub !== undefined) {
    return profileResult(claims, "sub", mapping);
  }
  return userInfoProfile(request, definition, mapping);
}
