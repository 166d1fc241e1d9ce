/**
 * Facebook Login through the Graph API. Facebook returns an email only when the user has
 * a usable one and granted `email`, but its documentation does not say the address was
 * confirmed, so it is treated as unverified.
 */
import type { ProviderDefinition } from "../provider.js";
import { asRecord, emailFieldProfile, imageUrl, readUserProfile } from "./read.js";

/** Graph API version: Facebook serves a version for about two years after its release. */
const GRAPH = "v23.0";

export const facebook: ProviderDefinition = {
  id: "facebook",
  name: "Facebook",
  authorizationEndpoint: `https://www.facebook.com/${GRAPH}/dialog/oauth`,
  tokenEndpoint: `https://graph.facebook.com/${GRAPH}/oauth/access_token`,
  userInfoEndpoint: `https://graph.facebook.com/${GRAPH}/me`,
  scopes: ["email", "public_profile"],
  scopeSeparator: ",",
  pkce: true,
  tokenEndpointAuth: "client_secret_post",
  // Facebook issues no refresh tokens: a long-lived token is obtained by another exchange.
  tokenRefresh: false,
  fetchProfile: (request) =>
    readUserProfile(request, facebook, {
      // The Graph API returns only the fields asked for.
      query: { fields: "id,name,email,picture" },
      profile: (user, id) => {
        const picture = asRecord(asRecord(user.picture)?.data);
        return emailFieldProfile(user, id, {
          names: [user.name],
          image: imageUrl(picture?.url),
          verified: false,
        });
      },
    }),
};
