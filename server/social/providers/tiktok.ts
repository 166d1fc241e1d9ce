/**
 * TikTok Login Kit for Web. TikTok calls the client id `client_key` (in the authorization
 * URL and the token request), joins scopes with commas, and answers only the user fields
 * listed in `fields`. It shares no email address.
 */
import type { ProviderDefinition } from "../provider.js";
import { imageUrl, nameOf, readUserProfile } from "./read.js";

export const tiktok: ProviderDefinition = {
  id: "tiktok",
  name: "TikTok",
  authorizationEndpoint: "https://www.tiktok.com/v2/auth/authorize/",
  tokenEndpoint: "https://open.tiktokapis.com/v2/oauth/token/",
  userInfoEndpoint: "https://open.tiktokapis.com/v2/user/info/",
  scopes: ["user.info.basic"],
  scopeSeparator: ",",
  // TikTok documents PKCE for desktop and mobile apps only, with a hex-encoded challenge
  // rather than the standard one; its web flow takes none.
  pkce: false,
  tokenEndpointAuth: "client_secret_post",
  clientIdParameter: "client_key",
  fetchProfile: (request) =>
    readUserProfile(request, tiktok, {
      query: { fields: "open_id,union_id,avatar_url,display_name" },
      userAt: ["data", "user"],
      // open_id is the user's id within this app (union_id spans one developer's apps).
      idField: "open_id",
      profile: (user, id) => ({
        email: null,
        emailVerified: false,
        name: nameOf([user.display_name], null, id),
        image: imageUrl(user.avatar_url),
      }),
    }),
};
