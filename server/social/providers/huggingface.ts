/**
 * Hugging Face (OpenID Connect). Its userinfo answers the standard claims plus its own
 * (`isPro`, `orgs`); `email_verified` is Hugging Face's statement about the address.
 */
import { oauthAtOrigin } from "./oauth-at-origin.js";

export const huggingface = oauthAtOrigin({
  id: "huggingface",
  name: "Hugging Face",
  origin: "https://huggingface.co",
  tokenEndpointAuth: "client_secret_basic",
  jwksPath: "/oauth/jwks",
});
