/**
 * Signed tokens for email verification and email change (HS256). The header
 * is exactly {"alg":"HS256"} and the key is the UTF-8 bytes of the server secret, as the
 * established implementation does, so its links keep working.
 */

export type TokenClaims = Record<string, unknown>;

export class TokenExpiredError extends Error {}
export class TokenInvalidError extends Error {}

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

// jose is loaded on first use: most requests never sign or verify a token.
const loadJose = () => import("jose");

export async function signToken(
  claims: TokenClaims,
  secret: string,
  expiresInSeconds: number,
): Promise<string> {
  const { SignJWT } = await loadJose();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(key(secret));
}

/**
 * The claims of a valid token signed with any of `secrets` (newest first, older ones
 * still accepted while rotating); throws TokenExpiredError or TokenInvalidError.
 */
export async function verifyToken(
  token: string,
  secrets: string | readonly string[],
): Promise<TokenClaims> {
  const { errors, jwtVerify } = await loadJose();
  for (const secret of typeof secrets === "string" ? [secrets] : secrets) {
    try {
      const { payload } = await jwtVerify(token, key(secret), { algorithms: ["HS256"] });
      return payload as TokenClaims;
    } catch (error) {
      // Another secret may have signed it; any other failure is the token's own.
      if (error instanceof errors.JWSSignatureVerificationFailed) continue;
      if (error instanceof errors.JWTExpired) throw new TokenExpiredError("token expired");
      throw new TokenInvalidError("invalid token");
    }
  }
  throw new TokenInvalidError("invalid token");
}
