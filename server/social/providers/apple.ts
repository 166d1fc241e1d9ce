/**
 * Sign in with Apple. Apple has no user-info endpoint: the profile is the id token, which
 * the caller has verified. The name is sent once, on the first authorization, as an
 * unsigned `user` JSON field of the callback form post; it is used for the name only,
 * never for the email. `email_verified` arrives as a boolean or as the string "true".
 *
 * The client secret is not a fixed string: it is a JWT the operator signs with the key
 * from the Apple developer account (ES256, valid six months at most).
 */
import type { ProviderDefinition } from "../provider.js";
import { asRecord, fullName, idOf, isTrue, nameOf, text } from "./read.js";

/** The `{name: {firstName, lastName}}` Apple posts with the first authorization, if any. */
function postedName(params: Record<string, string> | undefined): Record<string, unknown> | null {
  const posted = params?.user;
  if (posted === undefined) return null;
  try {
    return asRecord(asRecord(JSON.parse(posted))?.name);
  } catch {
    return null;
  }
}

export const apple: ProviderDefinition = {
  id: "apple",
  name: "Apple",
  authorizationEndpoint: "https://appleid.apple.com/auth/authorize",
  tokenEndpoint: "https://appleid.apple.com/auth/token",
  scopes: ["name", "email"],
  // Apple's documentation lists no code_challenge parameter.
  pkce: false,
  tokenEndpointAuth: "client_secret_post",
  // Apple answers a request for name or email only with a form post to the callback.
  authorizationParams: { response_mode: "form_post" },
  idToken: {
    issuer: "https://appleid.apple.com",
    jwksUri: "https://appleid.apple.com/auth/keys",
  },
  async fetchProfile(request) {
    const claims = request.idTokenClaims;
    if (claims === undefined) return null;
    const id = idOf(claims.sub);
    if (id === null) return null;
    const email = text(claims.email);
    const posted = postedName(request.callbackParams);
    return {
      profile: {
        id,
        email,
        emailVerified: email !== null && isTrue(claims.email_verified),
        name: nameOf([fullName(posted?.firstName, posted?.lastName)], email, id),
        image: null,
      },
      // Only the name of the posted user: its email is not signed.
      raw: posted === null ? claims : { ...claims, name: posted },
    };
  },
};
