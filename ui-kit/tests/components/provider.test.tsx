// @vitest-environment jsdom
/**
 * <AuthProvider>: the language (loading, numeric ids, given strings, the browser's
 * preference, pseudo), answers shared between components, refetching after an action,
 * and a session known before the first render.
 */
import { act, configure, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Result } from "../../src/client/request.js";
import { messages as german } from "../../src/i18n/locales/de/index.js";
import { pseudoString } from "../../src/i18n/pseudo.js";
import {
  AuthProvider,
  createAuthClient,
  type Organization,
  QUERY_KEYS,
  SignIn,
  useAction,
  useAuthContext,
  useListOrganizations,
  useSession,
} from "../../src/index.js";
import { createQueryCache } from "../../src/query-cache.js";
import { renderWithAuth, sessionOf } from "./harness.js";

function organization(id: string, name: string): Organization {
  return {
    id,
    name,
    slug: name.toLowerCase(),
    logo: null,
    metadata: null,
    createdAt: "2026-01-01T00:00:00.000Z",
  };
}

function root(container: HTMLElement): HTMLElement {
  const element = container.querySelector<HTMLElement>('[data-authd-part="root"]');
  if (!element) throw new Error("no component root rendered");
  return element;
}

/** Who is signed in, as one line of text. */
function Who({ label }: { label: string }) {
  const { data, isPending } = useSession();
  if (isPending) return <p>{label}: loading</p>;
  return (
    <p>
      {label}: {data ? data.user.name : "signed out"}
    </p>
  );
}

/** The organizations, as one line of text. */
function Organizations({ label }: { label: string }) {
  const { data, isPending } = useListOrganizations();
  if (data === undefined)
    return (
      <p>
        {label}: {isPending ? "loading" : "none"}
      </p>
    );
  return (
    <p>
      {label}: {data.map((entry) => entry.name).join(", ")}
    </p>
  );
}

/** Creates an organization and says the organization lists changed. */
function CreateOrganization() {
  const { client } = useAuthContext();
  const create = useAction(client.organization.create, {
    invalidates: [QUERY_KEYS.organizations],
  });
  return (
    <button type="button" onClick={() => void create.run({ name: "Beta", slug: "beta" })}>
      {create.isPending ? "creating" : "create"}
    </button>
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("<AuthProvider> language", () => {
  it("marks components pending while German loads, then shows German", async () => {
    const { container } = renderWithAuth(<SignIn />, {}, { locale: "de" });
    const element = root(container);
    expect(element).toHaveAttribute("data-authd-locale-pending");
    expect(element).toHaveAttribute("aria-busy", "true");

    expect(await screen.findByLabelText("E-Mail")).toBeInTheDocument();
    expect(screen.getByLabelText("Passwort")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Anmelden" })).toBeInTheDocument();
    expect(element).not.toHaveAttribute("data-authd-locale-pending");
    expect(element).not.toHaveAttribute("aria-busy");
    expect(element).toHaveAttribute("lang", "de");
    expect(screen.queryByText("Password")).not.toBeInTheDocument();
  });

  it("takes a numeric language id", async () => {
    const { container } = renderWithAuth(<SignIn />, {}, { locale: 6 });
    expect(await screen.findByLabelText("E-Mail")).toBeInTheDocument();
    expect(root(container)).toHaveAttribute("lang", "de");
  });

  it("takes a numeric language id written as a string", async () => {
    const { container } = renderWithAuth(<SignIn />, {}, { locale: "15" });
    expect(await screen.findByLabelText("Hasło")).toBeInTheDocument();
    expect(root(container)).toHaveAttribute("lang", "pl");
  });

  it("with the strings given, shows them on the first render and is never pending", () => {
    const { container } = renderWithAuth(<SignIn />, {}, { locale: "de", messages: german });
    const element = root(container);
    expect(element).not.toHaveAttribute("data-authd-locale-pending");
    expect(element).not.toHaveAttribute("aria-busy");
    expect(element).toHaveAttribute("lang", "de");
    expect(screen.getByLabelText("E-Mail")).toBeInTheDocument();
  });

  it("without a locale, takes the browser's preferred shipped language", async () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["ja-JP", "pl-PL", "en-US"]);
    const { container } = renderWithAuth(<SignIn />, {}, { locale: undefined });
    expect(root(container)).toHaveAttribute("data-authd-locale-pending");
    expect(await screen.findByLabelText("Hasło")).toBeInTheDocument();
    expect(root(container)).toHaveAttribute("lang", "pl");
    expect(root(container)).not.toHaveAttribute("data-authd-locale-pending");
  });

  it("without a locale, falls back to English when the browser wants none of ours", async () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["ja-JP"]);
    const { container } = renderWithAuth(<SignIn />, {}, { locale: undefined });
    await waitFor(() => expect(root(container)).not.toHaveAttribute("data-authd-locale-pending"));
    expect(screen.getByLabelText("Password")).toBeInTheDocument();
    expect(root(container)).toHaveAttribute("lang", "en");
  });

  it("shows the pseudo-locale", async () => {
    const { container } = renderWithAuth(<SignIn />, {}, { locale: "pseudo" });
    expect(await screen.findByLabelText(pseudoString("Password"))).toBeInTheDocument();
    expect(root(container)).toHaveAttribute("lang", "en");
    expect(root(container)).not.toHaveAttribute("data-authd-locale-pending");
  });

  it("shows English at once for English, and for a language it does not ship", () => {
    const first = renderWithAuth(<SignIn />, {}, { locale: "en" });
    expect(root(first.container)).not.toHaveAttribute("data-authd-locale-pending");
    first.unmount();
    const second = renderWithAuth(<SignIn />, {}, { locale: "ja" });
    expect(root(second.container)).not.toHaveAttribute("data-authd-locale-pending");
    expect(screen.getByLabelText("Password")).toBeInTheDocument();
  });

  it("switches language when the locale changes", async () => {
    const client = createAuthClient({
      baseURL: "http://auth.test",
      fetch: async () => Response.json(null),
    });
    const { container, rerender } = render(
      <AuthProvider client={client} locale="de">
        <SignIn />
      </AuthProvider>,
    );
    expect(await screen.findByLabelText("E-Mail")).toBeInTheDocument();
    rerender(
      <AuthProvider client={client} locale="fr">
        <SignIn />
      </AuthProvider>,
    );
    expect(await screen.findByLabelText("Mot de passe")).toBeInTheDocument();
    expect(root(container)).toHaveAttribute("lang", "fr");
    rerender(
      <AuthProvider client={client} locale={3}>
        <SignIn />
      </AuthProvider>,
    );
    expect(await screen.findByLabelText("Password")).toBeInTheDocument();
    expect(root(container)).toHaveAttribute("lang", "en");
  });
});

describe("<AuthProvider> shared answers", () => {
  it("asks get-session once for every component that shows the session", async () => {
    const harness = renderWithAuth(
      <>
        <Who label="one" />
        <Who label="two" />
        <Who label="three" />
      </>,
      { "/get-session": { body: sessionOf() } },
    );
    expect(screen.getByText("one: loading")).toBeInTheDocument();
    expect(await screen.findByText("one: Ada Lovelace")).toBeInTheDocument();
    expect(screen.getByText("two: Ada Lovelace")).toBeInTheDocument();
    expect(screen.getByText("three: Ada Lovelace")).toBeInTheDocument();
    expect(harness.sent("/get-session")).toHaveLength(1);
  });

  it("asks for the organizations once for three components", async () => {
    const harness = renderWithAuth(
      <>
        <Organizations label="menu" />
        <Organizations label="list" />
        <Organizations label="switcher" />
      </>,
      {
        "/get-session": { body: sessionOf() },
        "/organization/list": { body: [organization("org-1", "Acme")] },
      },
    );
    expect(await screen.findByText("menu: Acme")).toBeInTheDocument();
    expect(screen.getByText("list: Acme")).toBeInTheDocument();
    expect(screen.getByText("switcher: Acme")).toBeInTheDocument();
    expect(harness.sent("/organization/list")).toHaveLength(1);
  });

  it("still asks once under StrictMode, which mounts everything twice", async () => {
    configure({ reactStrictMode: true });
    try {
      const harness = renderWithAuth(
        <>
          <Who label="one" />
          <Organizations label="menu" />
          <Organizations label="list" />
        </>,
        {
          "/get-session": { body: sessionOf() },
          "/organization/list": { body: [organization("org-1", "Acme")] },
        },
        { locale: "de" },
      );
      expect(await screen.findByText("list: Acme")).toBeInTheDocument();
      expect(screen.getByText("one: Ada Lovelace")).toBeInTheDocument();
      expect(harness.sent("/get-session")).toHaveLength(1);
      expect(harness.sent("/organization/list")).toHaveLength(1);
    } finally {
      configure({ reactStrictMode: false });
    }
  });

  it("asks for no organizations when signed out", async () => {
    const harness = renderWithAuth(<Organizations label="menu" />, {
      "/organization/list": { body: [organization("org-1", "Acme")] },
    });
    expect(await screen.findByText("menu: none")).toBeInTheDocument();
    expect(harness.sent("/organization/list")).toHaveLength(0);
  });

  it("refetches what an action says it changed, for every component showing it", async () => {
    const user = userEvent.setup();
    const stored = [organization("org-1", "Acme")];
    const harness = renderWithAuth(
      <>
        <Organizations label="menu" />
        <Organizations label="list" />
        <CreateOrganization />
      </>,
      {
        "/get-session": { body: sessionOf() },
        "/organization/list": () => ({ body: [...stored] }),
        "/organization/create": (request) => {
          const { name } = request.body as { name: string };
          const created = organization("org-2", name);
          stored.push(created);
          return { body: { ...created, members: [] } };
        },
      },
    );
    expect(await screen.findByText("menu: Acme")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "create" }));
    expect(await screen.findByText("menu: Acme, Beta")).toBeInTheDocument();
    expect(screen.getByText("list: Acme, Beta")).toBeInTheDocument();
    expect(harness.sent("/organization/create")[0]?.body).toEqual({ name: "Beta", slug: "beta" });
    expect(harness.sent("/organization/list")).toHaveLength(2);
    await waitFor(() => expect(screen.getByRole("button")).toHaveTextContent("create"));
  });

  it("shows a session known before rendering on the very first render", async () => {
    const harness = renderWithAuth(
      <Who label="me" />,
      { "/get-session": { body: sessionOf() } },
      { initialSession: sessionOf() },
    );
    // Synchronously after render: no loading state in between.
    expect(screen.getByText("me: Ada Lovelace")).toBeInTheDocument();
    expect(screen.queryByText("me: loading")).not.toBeInTheDocument();
    await act(async () => {
      await Promise.resolve();
    });
    expect(screen.getByText("me: Ada Lovelace")).toBeInTheDocument();
    await waitFor(() => expect(harness.sent("/get-session")).toHaveLength(1));
  });

  it("forgets the session known before rendering once the server has answered", async () => {
    const user = userEvent.setup();
    const seen: string[] = [];
    function Watch() {
      const { data, isPending, refetch } = useSession();
      seen.push(isPending ? "loading" : (data?.user.name ?? "signed out"));
      return (
        <button type="button" onClick={() => void refetch()}>
          {data ? data.user.name : "signed out"}
        </button>
      );
    }
    // The page was rendered signed in, but the session has ended since.
    const harness = renderWithAuth(<Watch />, {}, { initialSession: sessionOf() });
    expect(seen[0]).toBe("Ada Lovelace");
    await user.click(await screen.findByRole("button", { name: "signed out" }));
    await waitFor(() => expect(harness.sent("/get-session")).toHaveLength(2));
    await waitFor(() => expect(seen.at(-1)).toBe("signed out"));
    const afterAnswer = seen.slice(seen.indexOf("signed out"));
    expect(afterAnswer).not.toContain("Ada Lovelace");
  });

  it("shows signed out on the first render when the page knew nobody was signed in", () => {
    renderWithAuth(<Who label="me" />, {}, { initialSession: null });
    expect(screen.getByText("me: signed out")).toBeInTheDocument();
  });
});

describe("the answer cache", () => {
  function deferred<T>() {
    let resolve: (value: T) => void = () => {};
    const promise = new Promise<T>((done) => {
      resolve = done;
    });
    return { promise, resolve };
  }

  it("loads again when an action changes a key whose answer is still on its way", async () => {
    const cache = createQueryCache();
    const answers = [deferred<Result<string>>(), deferred<Result<string>>()];
    let calls = 0;
    const load = () => (answers[calls++] as (typeof answers)[number]).promise;
    cache.subscribe(`${QUERY_KEYS.organizations}user-1`, load, () => {});
    expect(calls).toBe(1);

    // The action finished after the list was asked for: that answer may predate it.
    const invalidated = cache.invalidate(QUERY_KEYS.organizations);
    answers[0]?.resolve({ data: "before", error: null });
    await vi.waitFor(() => expect(calls).toBe(2));
    answers[1]?.resolve({ data: "after", error: null });
    await invalidated;
    expect(cache.getSnapshot(`${QUERY_KEYS.organizations}user-1`)).toEqual({
      data: "after",
      error: null,
      isPending: false,
    });
  });

  it("asks once more for a burst of invalidations, not once per action", async () => {
    const cache = createQueryCache();
    const load = vi.fn(async (): Promise<Result<string>> => ({ data: "list", error: null }));
    cache.subscribe(`${QUERY_KEYS.teams}org-1`, load, () => {});
    await cache.invalidate(QUERY_KEYS.teams, QUERY_KEYS.organizations);
    expect(load).toHaveBeenCalledTimes(2);
    await cache.invalidate(QUERY_KEYS.organizations);
    expect(load).toHaveBeenCalledTimes(2);
    // One request now, and one after it for the two actions that finished meanwhile.
    await Promise.all([
      cache.invalidate(QUERY_KEYS.teams),
      cache.invalidate(QUERY_KEYS.teams),
      cache.invalidate(QUERY_KEYS.teams),
    ]);
    expect(load).toHaveBeenCalledTimes(4);
  });
});
