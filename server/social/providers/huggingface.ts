/**
 * Hugging Face (OpenID Connect). Its userinfo answers the standard claims plus its own
 * (`isPro`, `orgs`); `email_verified` is Hugging Face's statement about the address.
 */
import type { ProviderDefinition } from "../provider.js";
import { userInfoProfile } from "./read.js";

export const huggingface: ProviderDefinition = {
  id: "huggingface",
  name: "Hugging Face",
  authorizationEndpoint: "https://huggingface.co/oauth/authorize",
  tokenEndpoint: "https://huggingface.co/oauth/token",
  userInfoEndpoint: "https://huggingface.co/oauth/userinfo",
  scopes: ["openid", "profile", "email"],
  pkce: true,
  tokenEndpointAuth: "client_secret_basic",
  idToken: { issuer: "https://huggingface.co", jwksUri: "https://huggingface.co/oauth/jwks" },
  fetchProfile: (request) => userInfoProfile(request, huggingface),
};
