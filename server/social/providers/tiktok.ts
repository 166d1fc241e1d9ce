/**
 * TikTok Login Kit for Web. TikTok calls the client id `client_key` (in the authorization
 * URL and the token request), joins scopes with commas, and answers only the user fields
 * listed in `fields`. It shares no email address.
 */
import type { ProviderDefinition } from "../provider.js";
import { asRecord, idOf, imageUrl, nameOf, userInfoUrl, withQuery } from "./read.js";

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
  async fetchProfile(request) {
    const url = withQuery(userInfoUrl(request, tiktok), {
      fields: "open_id,union_id,avatar_url,display_name",
    });
    const answer = asRecord(
      await request.fetchJson(url, { accessToken: request.tokens.accessToken }),
    );
    const user = asRecord(asRecord(answer?.data)?.user);
    // open_id is the user's id within this app (union_id spans one developer's apps).
    const id = idOf(user?.open_id);
    if (user === null || id === null) return null;
    return {
      profile: {
        id,
        email: null,
        emailVerified: false,
        name: nameOf([user.display_name], null, id),
        image: imageUrl(user.avatar_url),
      },
      raw: user,
    };
  },
};
