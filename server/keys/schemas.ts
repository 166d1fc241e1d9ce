/** The answers of GET /token and GET /jwks. */
import { z } from "zod";

export const tokenAnswer = z
  .object({ token: z.string().meta({ description: "A JWT signed with the current key." }) })
  .meta({ id: "SignedToken" });

/** A public JWK: never a private member. */
export const publicJwkSchema = z
  .object({
    kty: z.string(),
    crv: z.string().optional(),
    x: z.string().optional(),
    y: z.string().optional(),
    n: z.string().optional(),
    e: z.string().optional(),
    alg: z.string(),
    use: z.string(),
    kid: z.string(),
  })
  .meta({ id: "PublicJwk" });

export const jwksAnswer = z.object({ keys: z.array(publicJwkSchema) }).meta({ id: "Jwks" });
