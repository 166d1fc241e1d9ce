/**
 * Dropbox. The account endpoint is an RPC call: a POST without a body (Dropbox rejects an
 * empty JSON body). It says itself whether the address is verified (`email_verified`).
 */
import type { ProviderDefinition } from "../provider.js";
import { asRecord, imageUrl, nameOf, readUserProfile, text } from "./read.js";

export const dropbox: ProviderDefinition = {
  id: "dropbox",
  name: "Dropbox",
  authorizationEndpoint: "https://www.dropbox.com/oauth2/authorize",
  tokenEndpoint: "https://api.dropboxapi.com/oauth2/token",
  userInfoEndpoint: "https://api.dropboxapi.com/2/users/get_current_account",
  scopes: ["account_info.read"],
  pkce: true,
  tokenEndpointAuth: "client_secret_basic",
  fetchProfile: (request) =>
    readUserProfile(request, dropbox, {
      init: () => ({ accessToken: request.tokens.accessToken, method: "POST" }),
      idField: "account_id",
      profile: (account, id) => {
        const email = text(account.email);
        const names = asRecord(account.name);
        return {
          email,
          emailVerified: email !== null && account.email_verified === true,
          name: nameOf([names?.display_name, names?.familiar_name], email, id),
          image: imageUrl(account.profile_photo_url),
        };
      },
    }),
};
