/**
 * Dropbox. The account endpoint is an RPC call: a POST without a body (Dropbox rejects an
 * empty JSON body). It says itself whether the address is verified (`email_verified`).
 */
import type { ProviderDefinition } from "../provider.js";
import { asRecord, idOf, imageUrl, nameOf, text, userInfoUrl } from "./read.js";

export const dropbox: ProviderDefinition = {
  id: "dropbox",
  name: "Dropbox",
  authorizationEndpoint: "https://www.dropbox.com/oauth2/authorize",
  tokenEndpoint: "https://api.dropboxapi.com/oauth2/token",
  userInfoEndpoint: "https://api.dropboxapi.com/2/users/get_current_account",
  scopes: ["account_info.read"],
  pkce: true,
  tokenEndpointAuth: "client_secret_basic",
  async fetchProfile(request) {
    const account = asRecord(
      await request.fetchJson(userInfoUrl(request, dropbox), {
        accessToken: request.tokens.accessToken,
        method: "POST",
      }),
    );
    const id = idOf(account?.account_id);
    if (account === null || id === null) return null;
    const email = text(account.email);
    const names = asRecord(account.name);
    return {
      profile: {
        id,
        email,
        emailVerified: email !== null && account.email_verified === true,
        name: nameOf([names?.display_name, names?.familiar_name], email, id),
        image: imageUrl(account.profile_photo_url),
      },
      raw: account,
    };
  },
};
