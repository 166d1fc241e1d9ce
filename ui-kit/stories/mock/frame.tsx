/**
 * What every story renders inside: an AuthProvider whose client talks to the story's
 * mock authd, and a line showing where the kit navigated, since a story must not leave
 * its own page (play functions assert that line).
 */
import { type ReactNode, useMemo, useState } from "react";
import { AuthProvider, createAuthClient, type LocaleInput } from "../../src/index.js";
import { BASE_URL, type MockAuthd } from "./authd.js";

export interface StoryFrameProps {
  authd: MockAuthd;
  locale: LocaleInput;
  appearance: "light" | "dark";
  children: ReactNode;
}

const BACKGROUND = { light: "#f6f7f9", dark: "#0d1117" } as const;
const FOREGROUND = { light: "#1f2328", dark: "#e6edf3" } as const;

export function StoryFrame({ authd, locale, appearance, children }: StoryFrameProps) {
  const [went, setWent] = useState<string | null>(null);
  const client = useMemo(
    () =>
      createAuthClient({
        baseURL: BASE_URL,
        fetch: authd.fetch,
        onRedirect: (url) => setWent(url),
      }),
    [authd],
  );
  return (
    <main
      style={{
        minHeight: "100vh",
        boxSizing: "border-box",
        padding: "2rem 1rem",
        background: BACKGROUND[appearance],
        color: FOREGROUND[appearance],
        colorScheme: appearance,
      }}
    >
      <AuthProvider client={client} locale={locale} appearance={appearance} navigate={setWent}>
        {children}
      </AuthProvider>
      {went ? (
        <p data-story-navigation="" style={{ textAlign: "center", fontFamily: "monospace" }}>
          Navigated to {went}
        </p>
      ) : null}
    </main>
  );
}
