/**
 * The built-in social providers: each definition's endpoints and settings, and each
 * profile reader against a sample in the provider's documented response shape, served by
 * a fake fetch that checks the URL and the access token it is called with.
 */
import { describe, expect, it } from "vitest";
import type {
  ProfileRequest,
  ProviderDefinition,
  ProviderFetch,
  SocialProfile,
} from "../../server/social/provider.js";
import { BUILT_IN_PROVIDERS, isBuiltInProvider } from "../../server/social/providers/index.js";

const ACCESS_TOKEN = "access-token-0123456789";
const CLIENT_ID = "client-id-abc";

interface Call {
  url: string;
  init: Parameters<ProviderFetch>[1];
}

/**
 * A fetch that answers only the listed URLs (exactly, query included) and only for the
 * sample access token, carried as a bearer token or, for VK ID, as a form field. An
 * answer that is an Error is thrown, as the real fetch does for an error status.
 */
function fakeFetch(routes: Record<string, unknown>): { fetchJson: ProviderFetch; calls: Call[] } {
  const calls: Call[] = [];
  const fetchJson: ProviderFetch = async (url, init) => {
    calls.push({ url, init });
    const token = init.accessToken ?? init.form?.access_token;
    if (token !== ACCESS_TOKEN) throw new Error(`${url}: called without the access token`);
    if (!Object.hasOwn(routes, url)) throw new Error(`unexpected request to ${url}`);
    const answer = routes[url];
    if (answer instanceof Error) throw answer;
    return structuredClone(answer);
  };
  return { fetchJson, calls };
}

function provider(id: string): ProviderDefinition {
  const definition = BUILT_IN_PROVIDERS[id];
  if (definition === undefined) throw new Error(`no built-in provider ${id}`);
  return definition;
}

function requestFor(
  definition: ProviderDefinition,
  fetchJson: ProviderFetch,
  extra: Partial<ProfileRequest> = {},
): ProfileRequest {
  return {
    tokens: { accessToken: ACCESS_TOKEN, tokenType: "Bearer" },
    endpoints: {
      authorizationEndpoint: definition.authorizationEndpoint,
      tokenEndpoint: definition.tokenEndpoint,
      userInfoEndpoint: definition.userInfoEndpoint,
    },
    fetchJson,
    clientId: CLIENT_ID,
    ...extra,
  };
}

/** Reads the profile of `id` from the routes; returns the profile, raw data and calls. */
async function readProfile(
  id: string,
  routes: Record<string, unknown>,
  extra: Partial<ProfileRequest> = {},
) {
  const definition = provider(id);
  const { fetchJson, calls } = fakeFetch(routes);
  const result = await definition.fetchProfile(requestFor(definition, fetchJson, extra));
  return { result, calls };
}

async function profileOf(
  id: string,
  routes: Record<string, unknown>,
  extra: Partial<ProfileRequest> = {},
): Promise<SocialProfile> {
  const { result } = await readProfile(id, routes, extra);
  if (result === null) throw new Error(`${id}: no profile`);
  return result.profile;
}

const ALL_IDS = [
  "apple",
  "discord",
  "dropbox",
  "facebook",
  "github",
  "gitlab",
  "google",
  "huggingface",
  "kick",
  "linkedin",
  "microsoft",
  "reddit",
  "roblox",
  "spotify",
  "tiktok",
  "twitch",
  "twitter",
  "vk",
  "zoom",
];

describe("the catalogue", () => {
  it("has exactly the 19 built-in ids, each definition under its own id", () => {
    expect(Object.keys(BUILT_IN_PROVIDERS).sort()).toEqual(ALL_IDS);
    for (const [key, definition] of Object.entries(BUILT_IN_PROVIDERS)) {
      expect(definition.id, key).toBe(key);
      expect(definition.name.trim(), key).not.toBe("");
      expect(definition.scopes.length, key).toBeGreaterThan(0);
    }
  });

  it("knows its own ids and nothing else, inherited names included", () => {
    for (const id of ALL_IDS) expect(isBuiltInProvider(id), id).toBe(true);
    for (const id of ["acme", "GitHub", "", "constructor", "__proto__", "toString"]) {
      expect(isBuiltInProvider(id), id).toBe(false);
    }
  });

  it("uses https for every endpoint, key set and URL-shaped issuer", () => {
    const insecure: string[] = [];
    for (const definition of Object.values(BUILT_IN_PROVIDERS)) {
      const urls = [
        definition.authorizationEndpoint,
        definition.tokenEndpoint,
        definition.userInfoEndpoint,
        definition.idToken?.jwksUri,
        ...[definition.idToken?.issuer ?? []].flat().filter((issuer) => issuer.includes("://")),
      ];
      for (const url of urls) {
        if (url === undefined) continue;
        if (new URL(url).protocol !== "https:") insecure.push(`${definition.id}: ${url}`);
      }
    }
    expect(insecure).toEqual([]);
  });

  it("declares id tokens for the providers that sign them, and only those", () => {
    const withIdTokens = Object.values(BUILT_IN_PROVIDERS)
      .filter((definition) => definition.idToken !== undefined)
      .map((definition) => definition.id)
      .sort();
    expect(withIdTokens).toEqual([
      "apple",
      "gitlab",
      "google",
      "huggingface",
      "linkedin",
      "microsoft",
      "roblox",
      "twitch",
    ]);
    expect(provider("google").idToken?.issuer).toEqual([
      "https://accounts.google.com",
      "accounts.google.com",
    ]);
    expect(provider("apple").idToken?.issuer).toBe("https://appleid.apple.com");
    expect(provider("microsoft").idToken?.issuer).toBe(
      "https://login.microsoftonline.com/{tenantid}/v2.0",
    );
  });

  it("records each provider's quirks: separators, client id name, PKCE, parameters", () => {
    const separators = Object.values(BUILT_IN_PROVIDERS)
      .filter((definition) => (definition.scopeSeparator ?? " ") !== " ")
      .map((definition) => definition.id)
      .sort();
    expect(separators).toEqual(["facebook", "tiktok"]);
    expect(provider("tiktok").clientIdParameter).toBe("client_key");
    expect(provider("apple").authorizationParams).toEqual({ response_mode: "form_post" });
    // Minimal defaults: no offline access unless configured.
    expect(provider("google").authorizationParams).toBeUndefined();
    expect(provider("reddit").tokenRequestHeaders?.["User-Agent"]).toMatch(/authd/);
    expect(provider("vk").callbackTokenParams).toContain("device_id");
    const withoutPkce = Object.values(BUILT_IN_PROVIDERS)
      .filter((definition) => !definition.pkce)
      .map((definition) => definition.id)
      .sort();
    expect(withoutPkce).toEqual(["apple", "linkedin", "reddit", "tiktok", "twitch"]);
  });
});

describe("github", () => {
  const USER = "https://api.github.com/user";
  const EMAILS = "https://api.github.com/user/emails";
  const user = {
    login: "octocat",
    id: 583231,
    node_id: "MDQ6VXNlcjU4MzIzMQ==",
    avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4",
    type: "User",
    name: "The Octocat",
    company: "@github",
    email: "octocat@github.com",
    created_at: "2011-01-25T18:44:36Z",
  };

  it("maps /user, verifying the public address against /user/emails", async () => {
    const { result, calls } = await readProfile("github", {
      [USER]: user,
      [EMAILS]: [
        { email: "octocat@github.com", verified: true, primary: true, visibility: "public" },
      ],
    });
    expect(result?.profile).toEqual({
      id: "583231",
      email: "octocat@github.com",
      emailVerified: true,
      name: "The Octocat",
      image: "https://avatars.githubusercontent.com/u/583231?v=4",
    });
    expect(result?.raw).toEqual(user);
    expect(calls.map((call) => call.url)).toEqual([USER, EMAILS]);
    expect(calls[0]?.init.headers?.["User-Agent"]).toBeTruthy();
  });

  it("without a public email, picks the primary verified address", async () => {
    const profile = await profileOf("github", {
      [USER]: { ...user, email: null, name: null },
      [EMAILS]: [
        { email: "old@example.com", verified: true, primary: false, visibility: null },
        { email: "main@example.com", verified: true, primary: true, visibility: "private" },
        { email: "new@example.com", verified: false, primary: false, visibility: null },
      ],
    });
    expect(profile.email).toBe("main@example.com");
    expect(profile.emailVerified).toBe(true);
    // No display name: the login.
    expect(profile.name).toBe("octocat");
  });

  it("prefers a verified address to an unverified primary one", async () => {
    const profile = await profileOf("github", {
      [USER]: { ...user, email: null },
      [EMAILS]: [
        { email: "typo@example.con", verified: false, primary: true, visibility: "private" },
        { email: "work@example.com", verified: true, primary: false, visibility: null },
      ],
    });
    expect(profile.email).toBe("work@example.com");
    expect(profile.emailVerified).toBe(true);
  });

  it("marks the address unverified when only unverified addresses exist", async () => {
    const profile = await profileOf("github", {
      [USER]: { ...user, email: null },
      [EMAILS]: [
        { email: "second@example.com", verified: false, primary: false, visibility: null },
        { email: "first@example.com", verified: false, primary: true, visibility: null },
      ],
    });
    expect(profile.email).toBe("first@example.com");
    expect(profile.emailVerified).toBe(false);
  });

  it("keeps a public address unverified when /user/emails cannot be read", async () => {
    const profile = await profileOf("github", {
      [USER]: user,
      [EMAILS]: new Error("404 Not Found"),
    });
    expect(profile.email).toBe("octocat@github.com");
    expect(profile.emailVerified).toBe(false);
  });

  it("reads /user/emails beside an overridden endpoint (GitHub Enterprise)", async () => {
    const definition = provider("github");
    const { fetchJson, calls } = fakeFetch({
      "https://ghe.example.com/api/v3/user": { ...user, email: null },
      "https://ghe.example.com/api/v3/user/emails": [
        { email: "octo@corp.example", verified: true, primary: true, visibility: "private" },
      ],
    });
    const request = requestFor(definition, fetchJson);
    request.endpoints.userInfoEndpoint = "https://ghe.example.com/api/v3/user";
    const result = await definition.fetchProfile(request);
    expect(result?.profile.email).toBe("octo@corp.example");
    expect(calls).toHaveLength(2);
  });
});

describe("google", () => {
  const claims = {
    iss: "https://accounts.google.com",
    azp: "1234987819200.apps.googleusercontent.com",
    aud: "1234987819200.apps.googleusercontent.com",
    sub: "10769150350006150715113082367",
    email: "jsmith@example.com",
    email_verified: true,
    name: "Jane Smith",
    given_name: "Jane",
    family_name: "Smith",
    picture: "https://lh3.googleusercontent.com/a/ACg8ocJ-photo=s96-c",
    iat: 1353601026,
    exp: 1353604926,
  };

  it("reads the verified id token without calling the API", async () => {
    const { result, calls } = await readProfile("google", {}, { idTokenClaims: claims });
    expect(result?.profile).toEqual({
      id: "10769150350006150715113082367",
      email: "jsmith@example.com",
      emailVerified: true,
      name: "Jane Smith",
      image: "https://lh3.googleusercontent.com/a/ACg8ocJ-photo=s96-c",
    });
    expect(calls).toEqual([]);
  });

  it("falls back to userinfo, following email_verified", async () => {
    const { iss, azp, aud, iat, exp, ...info } = claims;
    const profile = await profileOf("google", {
      "https://openidconnect.googleapis.com/v1/userinfo": { ...info, email_verified: false },
    });
    expect(profile.id).toBe("10769150350006150715113082367");
    expect(profile.emailVerified).toBe(false);
    expect(profile.email).toBe("jsmith@example.com");
  });
});

describe("microsoft", () => {
  const claims = {
    aud: "6cb04018-a3f5-46a7-b995-940c78f5aef3",
    iss: "https://login.microsoftonline.com/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0",
    tid: "b9419818-09af-49c2-b0c3-653adc1f376e",
    sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
    oid: "00000000-0000-0000-66f3-3332eca7ea81",
    name: "Abe Lincoln",
    preferred_username: "abeli@microsoft.com",
    email: "abeli@microsoft.com",
  };

  it("treats the email claim as unverified without xms_edov", async () => {
    const profile = await profileOf("microsoft", {}, { idTokenClaims: claims });
    expect(profile).toEqual({
      id: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
      email: "abeli@microsoft.com",
      emailVerified: false,
      name: "Abe Lincoln",
      image: null,
    });
  });

  it("trusts the address when the domain owner verified it (xms_edov)", async () => {
    const profile = await profileOf(
      "microsoft",
      {},
      { idTokenClaims: { ...claims, xms_edov: true } },
    );
    expect(profile.emailVerified).toBe(true);
  });

  it("falls back to the Graph userinfo endpoint without an id token", async () => {
    const profile = await profileOf("microsoft", {
      "https://graph.microsoft.com/oidc/userinfo": {
        sub: "OLu859SGc2Sr9ZsqbkG-QbeLgJlb41KcdiPoLYNpSFA",
        name: "Mikah Ollenburg",
        family_name: "Ollenburg",
        given_name: "Mikah",
        picture: "https://graph.microsoft.com/v1.0/me/photo/$value",
        email: "mikoll@contoso.com",
      },
    });
    expect(profile.id).toBe("OLu859SGc2Sr9ZsqbkG-QbeLgJlb41KcdiPoLYNpSFA");
    expect(profile.name).toBe("Mikah Ollenburg");
    expect(profile.emailVerified).toBe(false);
    // The Graph photo needs the user's token: no public image.
    expect(profile.image).toBeNull();
  });
});

describe("apple", () => {
  const claims = {
    iss: "https://appleid.apple.com",
    aud: "com.example.web",
    exp: 1735689600,
    iat: 1735603200,
    sub: "001234.5f4dcc3b5aa765d61d8327deb882cf99.1234",
    email: "x7k2q9m4pd@privaterelay.appleid.com",
    email_verified: "true",
    is_private_email: "true",
    auth_time: 1735603190,
    nonce_supported: true,
  };

  it("reads the id token and the name Apple posts once", async () => {
    const { result, calls } = await readProfile(
      "apple",
      {},
      {
        idTokenClaims: claims,
        callbackParams: {
          code: "c1a2b3",
          state: "s1",
          user: JSON.stringify({
            name: { firstName: "John", lastName: "Appleseed" },
            email: "someone-else@example.com",
          }),
        },
      },
    );
    expect(result?.profile).toEqual({
      id: "001234.5f4dcc3b5aa765d61d8327deb882cf99.1234",
      // The posted user is unsigned: its email is never used.
      email: "x7k2q9m4pd@privaterelay.appleid.com",
      emailVerified: true,
      name: "John Appleseed",
      image: null,
    });
    expect(result?.raw).toEqual({ ...claims, name: { firstName: "John", lastName: "Appleseed" } });
    expect(calls).toEqual([]);
  });

  it("names the user after the address on later sign-ins, and reads a false string", async () => {
    const profile = await profileOf(
      "apple",
      {},
      { idTokenClaims: { ...claims, email_verified: "false" }, callbackParams: { code: "c" } },
    );
    expect(profile.name).toBe("x7k2q9m4pd");
    expect(profile.emailVerified).toBe(false);
  });

  it("has no profile without id token claims", async () => {
    const { result } = await readProfile("apple", {});
    expect(result).toBeNull();
  });
});

describe("discord", () => {
  const ME = "https://discord.com/api/users/@me";
  const user = {
    id: "80351110224678912",
    username: "nelly",
    discriminator: "0",
    global_name: "Nelly",
    avatar: "8342729096ea3675442027381ff50dfe",
    verified: true,
    email: "nelly@discord.com",
    flags: 64,
    banner: null,
    accent_color: 16711680,
    premium_type: 1,
    public_flags: 64,
  };

  it("maps the user, its verified flag and its avatar", async () => {
    const profile = await profileOf("discord", { [ME]: user });
    expect(profile).toEqual({
      id: "80351110224678912",
      email: "nelly@discord.com",
      emailVerified: true,
      name: "Nelly",
      image:
        "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    });
  });

  it("uses a default avatar, animated avatars and the username when needed", async () => {
    const noAvatar = await profileOf("discord", {
      [ME]: { ...user, avatar: null, global_name: null, verified: false },
    });
    expect(noAvatar.image).toBe("https://cdn.discordapp.com/embed/avatars/5.png");
    expect(noAvatar.name).toBe("nelly");
    expect(noAvatar.emailVerified).toBe(false);
    const legacy = await profileOf("discord", {
      [ME]: { ...user, avatar: null, discriminator: "1337" },
    });
    expect(legacy.image).toBe("https://cdn.discordapp.com/embed/avatars/2.png");
    const animated = await profileOf("discord", { [ME]: { ...user, avatar: "a_1269e74af4df" } });
    expect(animated.image).toBe(
      "https://cdn.discordapp.com/avatars/80351110224678912/a_1269e74af4df.gif",
    );
  });
});

describe("facebook", () => {
  it("asks the Graph API for the fields and keeps the address unverified", async () => {
    const profile = await profileOf("facebook", {
      "https://graph.facebook.com/v23.0/me?fields=id%2Cname%2Cemail%2Cpicture": {
        id: "10158052891234567",
        name: "Jane Doe",
        email: "jane.doe@example.com",
        picture: {
          data: {
            height: 50,
            is_silhouette: false,
            url: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158052891234567&height=50&width=50",
            width: 50,
          },
        },
      },
    });
    expect(profile).toEqual({
      id: "10158052891234567",
      email: "jane.doe@example.com",
      emailVerified: false,
      name: "Jane Doe",
      image:
        "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158052891234567&height=50&width=50",
    });
  });
});

describe("huggingface", () => {
  it("maps the userinfo claims", async () => {
    const profile = await profileOf("huggingface", {
      "https://huggingface.co/oauth/userinfo": {
        sub: "62f5e6c1b0a1c2d3e4f5a6b7",
        name: "Jane Doe",
        preferred_username: "janedoe",
        profile: "https://huggingface.co/janedoe",
        picture: "https://cdn-avatars.huggingface.co/v1/production/uploads/62f5e6c1/avatar.png",
        website: "https://janedoe.dev",
        email: "jane@example.com",
        email_verified: true,
        isPro: false,
        orgs: [],
      },
    });
    expect(profile).toEqual({
      id: "62f5e6c1b0a1c2d3e4f5a6b7",
      email: "jane@example.com",
      emailVerified: true,
      name: "Jane Doe",
      image: "https://cdn-avatars.huggingface.co/v1/production/uploads/62f5e6c1/avatar.png",
    });
  });

  it("names a user without a full name by username", async () => {
    const profile = await profileOf("huggingface", {
      "https://huggingface.co/oauth/userinfo": {
        sub: "62f5e6c1b0a1c2d3e4f5a6b7",
        preferred_username: "janedoe",
        // Only http(s) URLs become images.
        picture: "javascript:alert(1)",
        isPro: true,
      },
    });
    expect(profile.name).toBe("janedoe");
    expect(profile.email).toBeNull();
    expect(profile.emailVerified).toBe(false);
    expect(profile.image).toBeNull();
  });
});

describe("spotify", () => {
  it("maps /me, keeps the address unverified and picks the widest image", async () => {
    const profile = await profileOf("spotify", {
      "https://api.spotify.com/v1/me": {
        country: "SE",
        display_name: "JM Wizzler",
        email: "email@example.com",
        explicit_content: { filter_enabled: false, filter_locked: false },
        external_urls: { spotify: "https://open.spotify.com/user/wizzler" },
        followers: { href: null, total: 3829 },
        href: "https://api.spotify.com/v1/users/wizzler",
        id: "wizzler",
        images: [
          { height: 64, url: "https://i.scdn.co/image/ab67757000003b82small", width: 64 },
          { height: 300, url: "https://i.scdn.co/image/ab6775700000ee85large", width: 300 },
        ],
        product: "premium",
        type: "user",
        uri: "spotify:user:wizzler",
      },
    });
    expect(profile).toEqual({
      id: "wizzler",
      email: "email@example.com",
      emailVerified: false,
      name: "JM Wizzler",
      image: "https://i.scdn.co/image/ab6775700000ee85large",
    });
  });
});

describe("twitch", () => {
  const USERS = "https://api.twitch.tv/helix/users";
  const answer = {
    data: [
      {
        id: "141981764",
        login: "twitchdev",
        display_name: "TwitchDev",
        type: "",
        broadcaster_type: "partner",
        description: "Supporting third-party developers building Twitch integrations.",
        profile_image_url:
          "https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-300x300.png",
        offline_image_url: "",
        view_count: 5980557,
        email: "not-real@email.com",
        created_at: "2016-12-14T20:32:28Z",
      },
    ],
  };

  it("sends the Client-Id header and maps the user", async () => {
    const { result, calls } = await readProfile("twitch", { [USERS]: answer });
    expect(result?.profile).toEqual({
      id: "141981764",
      email: "not-real@email.com",
      emailVerified: true,
      name: "TwitchDev",
      image:
        "https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-300x300.png",
    });
    expect(calls[0]?.init.headers).toEqual({ "Client-Id": CLIENT_ID });
  });

  it("refuses to call Helix without the client id", async () => {
    await expect(
      readProfile("twitch", { [USERS]: answer }, { clientId: undefined }),
    ).rejects.toThrow(/client id/);
  });
});

describe("twitter", () => {
  it("asks users/me for the image and has no email", async () => {
    const profile = await profileOf("twitter", {
      "https://api.x.com/2/users/me?user.fields=profile_image_url": {
        data: {
          id: "2244994945",
          name: "X Developers",
          username: "XDevelopers",
          profile_image_url:
            "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg",
        },
      },
    });
    expect(profile).toEqual({
      id: "2244994945",
      email: null,
      emailVerified: false,
      name: "X Developers",
      image: "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg",
    });
  });
});

describe("dropbox", () => {
  it("posts to get_current_account without a body and follows email_verified", async () => {
    const { result, calls } = await readProfile("dropbox", {
      "https://api.dropboxapi.com/2/users/get_current_account": {
        account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
        name: {
          given_name: "Franz",
          surname: "Ferdinand",
          familiar_name: "Franz",
          display_name: "Franz Ferdinand (Personal)",
          abbreviated_name: "FF",
        },
        email: "franz@dropbox.com",
        email_verified: true,
        disabled: false,
        locale: "en",
        is_paired: false,
        account_type: { ".tag": "basic" },
        profile_photo_url:
          "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?size=128x128",
      },
    });
    expect(result?.profile).toEqual({
      id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
      email: "franz@dropbox.com",
      emailVerified: true,
      name: "Franz Ferdinand (Personal)",
      image:
        "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?size=128x128",
    });
    expect(calls[0]?.init.method).toBe("POST");
    expect(calls[0]?.init.body).toBeUndefined();
  });
});

describe("kick", () => {
  it("maps the numeric user id to a string", async () => {
    const profile = await profileOf("kick", {
      "https://api.kick.com/public/v1/users": {
        data: [
          {
            email: "streamer@example.com",
            name: "kickstreamer",
            profile_picture: "https://files.kick.com/images/user/123456/profile_image/avatar.webp",
            user_id: 123456,
          },
        ],
        message: "OK",
      },
    });
    expect(profile).toEqual({
      id: "123456",
      email: "streamer@example.com",
      emailVerified: false,
      name: "kickstreamer",
      image: "https://files.kick.com/images/user/123456/profile_image/avatar.webp",
    });
  });
});

describe("linkedin", () => {
  it("maps the OpenID Connect userinfo", async () => {
    const profile = await profileOf("linkedin", {
      "https://api.linkedin.com/v2/userinfo": {
        sub: "782bbtaQ",
        name: "John Doe",
        given_name: "John",
        family_name: "Doe",
        picture: "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto",
        locale: "en-US",
        email: "doe@email.com",
        email_verified: true,
      },
    });
    expect(profile).toEqual({
      id: "782bbtaQ",
      email: "doe@email.com",
      emailVerified: true,
      name: "John Doe",
      image: "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto",
    });
  });
});

describe("gitlab", () => {
  const info = {
    sub: "1234567",
    sub_legacy: "2ab3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3",
    name: "Jane Doe",
    nickname: "jane",
    preferred_username: "jane",
    email: "jane@example.com",
    email_verified: true,
    website: "",
    profile: "https://gitlab.com/jane",
    picture: "https://gitlab.com/uploads/-/system/user/avatar/1234567/avatar.png",
    groups: ["example-group"],
  };

  it("maps the userinfo claims, following email_verified", async () => {
    const URL = "https://gitlab.com/oauth/userinfo";
    expect(await profileOf("gitlab", { [URL]: info })).toEqual({
      id: "1234567",
      email: "jane@example.com",
      emailVerified: true,
      name: "Jane Doe",
      image: "https://gitlab.com/uploads/-/system/user/avatar/1234567/avatar.png",
    });
    const unconfirmed = await profileOf("gitlab", {
      [URL]: { ...info, email_verified: false, name: "" },
    });
    expect(unconfirmed.emailVerified).toBe(false);
    expect(unconfirmed.name).toBe("jane");
  });
});

describe("tiktok", () => {
  it("asks user/info for its fields and reads the open_id", async () => {
    const profile = await profileOf("tiktok", {
      "https://open.tiktokapis.com/v2/user/info/?fields=open_id%2Cunion_id%2Cavatar_url%2Cdisplay_name":
        {
          data: {
            user: {
              open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
              union_id: "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1",
              avatar_url: "https://p16-sign-va.tiktokcdn.com/tos-maliva-avt-0068/avatar.jpeg",
              display_name: "Tik Toker",
            },
          },
          error: { code: "ok", message: "", log_id: "20220829194722CBE87ED59D524E727021" },
        },
    });
    expect(profile).toEqual({
      id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
      email: null,
      emailVerified: false,
      name: "Tik Toker",
      image: "https://p16-sign-va.tiktokcdn.com/tos-maliva-avt-0068/avatar.jpeg",
    });
  });
});

describe("reddit", () => {
  it("sends a User-Agent, has no email and unescapes the icon URL", async () => {
    const { result, calls } = await readProfile("reddit", {
      "https://oauth.reddit.com/api/v1/me": {
        id: "1w72",
        name: "spez",
        is_employee: true,
        has_verified_email: true,
        icon_img:
          "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&amp;height=256&amp;s=4a1b2c",
        snoovatar_img: "",
        total_karma: 936842,
        created_utc: 1118030400.0,
      },
    });
    expect(result?.profile).toEqual({
      id: "1w72",
      email: null,
      emailVerified: false,
      name: "spez",
      image:
        "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&height=256&s=4a1b2c",
    });
    expect(calls[0]?.init.headers?.["User-Agent"]).toMatch(/authd/);
  });
});

describe("roblox", () => {
  it("maps the userinfo claims; Roblox shares no email", async () => {
    const profile = await profileOf("roblox", {
      "https://apis.roblox.com/oauth/v1/userinfo": {
        sub: "1516563360",
        name: "Jane",
        nickname: "Jane",
        preferred_username: "jane_builds",
        created_at: 1584682495,
        profile: "https://www.roblox.com/users/1516563360/profile",
        picture: "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-ABC123-Png/150/150/AvatarHeadshot/Png",
      },
    });
    expect(profile).toEqual({
      id: "1516563360",
      email: null,
      emailVerified: false,
      name: "Jane",
      image: "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-ABC123-Png/150/150/AvatarHeadshot/Png",
    });
  });
});

describe("vk", () => {
  it("posts the token and client id as a form and joins the names", async () => {
    const { result, calls } = await readProfile("vk", {
      "https://id.vk.com/oauth2/user_info": {
        user: {
          user_id: "1234567890",
          first_name: "Ivan",
          last_name: "Ivanov",
          phone: "79991234567",
          avatar: "https://sun1-00.userapi.com/s/v1/ig2/avatar.jpg?size=200x200",
          email: "ivan@example.ru",
          sex: 2,
          verified: false,
          birthday: "01.01.2000",
        },
      },
    });
    expect(result?.profile).toEqual({
      id: "1234567890",
      email: "ivan@example.ru",
      emailVerified: false,
      name: "Ivan Ivanov",
      image: "https://sun1-00.userapi.com/s/v1/ig2/avatar.jpg?size=200x200",
    });
    expect(calls[0]?.init).toEqual({
      method: "POST",
      form: { client_id: CLIENT_ID, access_token: ACCESS_TOKEN },
    });
  });
});

describe("zoom", () => {
  const ME = "https://api.zoom.us/v2/users/me";
  const user = {
    id: "KDcuGIm1QgePTO8WbOqwIQ",
    first_name: "Jill",
    last_name: "Chill",
    display_name: "Jill Chill",
    email: "jchill@example.com",
    type: 1,
    role_name: "Owner",
    pmi: 3542471135,
    use_pmi: false,
    timezone: "Asia/Shanghai",
    verified: 1,
    dept: "",
    created_at: "2019-06-01T07:58:03Z",
    pic_url: "https://example.zoom.us/p/KDcuGIm1QgePTO8WbOqwIQ/photo.jpg",
    account_id: "q6gBJVO5TzexKYTb_I2rpg",
    status: "active",
  };

  it("maps /users/me, verified only when verified is 1", async () => {
    expect(await profileOf("zoom", { [ME]: user })).toEqual({
      id: "KDcuGIm1QgePTO8WbOqwIQ",
      email: "jchill@example.com",
      emailVerified: true,
      name: "Jill Chill",
      image: "https://example.zoom.us/p/KDcuGIm1QgePTO8WbOqwIQ/photo.jpg",
    });
    const unverified = await profileOf("zoom", {
      [ME]: { ...user, verified: 0, display_name: "", pic_url: "" },
    });
    expect(unverified.emailVerified).toBe(false);
    expect(unverified.name).toBe("Jill Chill");
    expect(unverified.image).toBeNull();
  });
});

describe("a profile without an id", () => {
  // Each provider's answer with its id field left out.
  const withoutId: Array<[string, Record<string, unknown>, Partial<ProfileRequest>?]> = [
    // No id: /user/emails is not even asked.
    [
      "github",
      { "https://api.github.com/user": { login: "octocat", email: "octocat@github.com" } },
    ],
    ["google", { "https://openidconnect.googleapis.com/v1/userinfo": { email: "a@b.c" } }],
    ["microsoft", { "https://graph.microsoft.com/oidc/userinfo": { name: "Abe", email: "a@b.c" } }],
    ["apple", {}, { idTokenClaims: { email: "a@b.c", email_verified: true } }],
    ["discord", { "https://discord.com/api/users/@me": { username: "nelly", id: null } }],
    [
      "facebook",
      {
        "https://graph.facebook.com/v23.0/me?fields=id%2Cname%2Cemail%2Cpicture": {
          name: "Jane Doe",
        },
      },
    ],
    ["huggingface", { "https://huggingface.co/oauth/userinfo": { name: "Jane", sub: "" } }],
    ["spotify", { "https://api.spotify.com/v1/me": { display_name: "JM" } }],
    ["twitch", { "https://api.twitch.tv/helix/users": { data: [] } }],
    ["twitter", { "https://api.x.com/2/users/me?user.fields=profile_image_url": { errors: [] } }],
    ["dropbox", { "https://api.dropboxapi.com/2/users/get_current_account": { email: "a@b.c" } }],
    ["kick", { "https://api.kick.com/public/v1/users": { data: [{ name: "k" }], message: "" } }],
    ["linkedin", { "https://api.linkedin.com/v2/userinfo": { name: "John" } }],
    ["gitlab", { "https://gitlab.com/oauth/userinfo": { nickname: "jane" } }],
    [
      "tiktok",
      {
        "https://open.tiktokapis.com/v2/user/info/?fields=open_id%2Cunion_id%2Cavatar_url%2Cdisplay_name":
          { data: {}, error: { code: "access_token_invalid" } },
      },
    ],
    ["reddit", { "https://oauth.reddit.com/api/v1/me": { name: "spez" } }],
    ["roblox", { "https://apis.roblox.com/oauth/v1/userinfo": { name: "Jane" } }],
    ["vk", { "https://id.vk.com/oauth2/user_info": { error: "invalid_token" } }],
    ["zoom", { "https://api.zoom.us/v2/users/me": { code: 124, message: "Invalid token." } }],
  ];

  it("covers every provider", () => {
    expect(withoutId.map(([id]) => id).sort()).toEqual(ALL_IDS);
  });

  it.each(withoutId)("%s gives null", async (id, routes, extra) => {
    const { result, calls } = await readProfile(id, routes, extra);
    expect(result).toBeNull();
    // The answer was read (Apple's are the claims), not skipped.
    expect(calls.length).toBe(Object.keys(routes).length);
  });
});
