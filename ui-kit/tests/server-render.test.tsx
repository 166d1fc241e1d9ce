/**
 * Every screen renders on a server: no window, no document, no fetch at render time.
 * This file runs in Node's own environment, where touching `window` throws.
 */
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AuthProvider, createAuthClient } from "../src/index.js";
import { SCREENS } from "./screens.js";

function clientThatMustNotFetch() {
  return createAuthClient({
    baseURL: "http://auth.test",
    fetch: () => {
      throw new Error("a server render must not fetch");
    },
  });
}

describe("server rendering", () => {
  it("runs where no browser globals exist", () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe("undefined");
    expect(typeof (globalThis as { document?: unknown }).document).toBe("undefined");
  });

  for (const [name, element] of Object.entries(SCREENS)) {
    it(`renders ${name} to HTML with its root part`, () => {
      const html = renderToString(
        <AuthProvider client={clientThatMustNotFetch()} locale="en">
          {element}
        </AuthProvider>,
      );
      expect(html).toContain('data-authd-part="root"');
    });
  }
});
