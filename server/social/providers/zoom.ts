/**
 * Zoom. `/users/me` has `verified: 1` once the user confirmed their address (Zoom's
 * account verification is done by email); anything else is unverified. The default scope
 * is the granular `user:read:user`; apps still on classic scopes override it with
 * `user:read`.
 */
import type { ProviderDefinition } from "../provider.js";
import { fullName, imageUrl, nameOf, readUserProfile, text } from "./read.js";

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
      profile: (user, id) => {
        const email = text(user.email);
        return {
          email,
          emailVerified: email !== null && user.verified === 1,
          name: nameOf([user.display_name, fullName(user.first_name, user.last_name)], email, id),
          image: imageUrl(user.pic_url),
        };
      },
    }),
};
