/**
 * Zoom. `/users/me` has `verified: 1` once the user confirmed their address (Zoom's
 * account verification is done by email); anything else is unverified. The default scope
 * is the granular `user:read:user`; apps still on classic scopes override it with
 * `user:read`.
 */
import type { ProviderDefinition } from "../provider.js";
import { emailFieldProfile, fullName, imageUrl, readUserProfile } from "./read.js";

export const zoom: ProviderDefinition = {
  id: "zoom",
  name: "Zoom",
  authorizationEndpoint: "https://zoom.us/oauth/authorize",
  tokenEndpoint: "https://zoom.us/oauth/token",
  userInfoEndpoint: "https://api.zoom.us/v2/users/me",
  scopes: ["user:read:user"],
  pkce: true,
  tokenEndpointAuth: "client_secret_basic",
  fetchProfile: (request) =>
    readUserProfile(request, zoom, {
      profile: (user, id) =>
        emailFieldProfile(user, id, {
          names: [user.display_name, fullName(user.first_name, user.last_name)],
          image: imageUrl(user.pic_url),
          verified: user.verified === 1,
        }),
    }),
};
