/**
 * VK ID (the current VK sign-in; the older oauth.vk.com flow is closed to new apps).
 * PKCE is mandatory, the token exchange wants the `device_id` VK returns with the code,
 * and user_info takes the token and client id as form fields rather than a header. VK
 * does not say whether the address was verified, so it is treated as not.
 */
import type { ProviderDefinition } from "../provider.js";
import { emailFieldProfile, fullName, imageUrl, readUserProfile, requireClientId } from "./read.js";

export const vk: ProviderDefinition = {
  id: "vk",
  name: "VK",
  authorizationEndpoint: "https://id.vk.com/authorize",
  tokenEndpoint: "https://id.vk.com/oauth2/auth",
  userInfoEndpoint: "https://id.vk.com/oauth2/user_info",
  scopes: ["vkid.personal_info", "email"],
  pkce: true,
  tokenEndpointAuth: "client_secret_post",
  callbackTokenParams: ["device_id", "state"],
  // VK ID's refresh wants the device_id of the sign-in too, which authd does not keep.
  tokenRefresh: false,
  fetchProfile: (request) =>
    readUserProfile(request, vk, {
      init: () => ({
        method: "POST",
        form: {
          client_id: requireClientId(request, "vk"),
          access_token: request.tokens.accessToken,
        },
      }),
      userAt: ["user"],
      idField: "user_id",
      profile: (user, id) =>
        emailFieldProfile(user, id, {
          names: [fullName(user.first_name, user.last_name)],
          image: imageUrl(user.avatar),
          verified: false,
        }),
    }),
};
