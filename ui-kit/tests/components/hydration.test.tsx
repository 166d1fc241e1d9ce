// @vitest-environment jsdom
/**
 * The browser's first render matches the server's HTML, so hydration keeps it as it is:
 * no mismatch, no flash of other content.
 */
import { act } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthProvider, createAuthClient } from "../../src/index.js";
import { SCREENS } from "../screens.js";

function tree(element: React.ReactElement, fetch: () => Promise<Response>) {
  const client = createAuthClient({ baseURL: "http://auth.test", fetch });
  return (
    <AuthProvider client={client} locale="en">
      {element}
    </AuthProvider>
  );
}

afterEach(() => {
  document.body.innerHTML = "";
  vi.restoreAllMocks();
});

describe("hydration", () => {
  for (const [name, element] of Object.entries(SCREENS)) {
    it(`hydrates ${name} without a mismatch`, async () => {
      const never = () => new Promise<Response>(() => {});
      const container = document.createElement("div");
      container.innerHTML = renderToString(tree(element, never));
      document.body.append(container);
      const serverHTML = container.innerHTML;
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const recoverable: unknown[] = [];
      await act(async () => {
        hydrateRoot(container, tree(element, never), {
          onRecoverableError: (error) => recoverable.push(error),
        });
      });
      expect(recoverable).toEqual([]);
      expect(errors).not.toHaveBeenCalled();
      // Nothing was thrown away and redrawn: the server's first element is still there.
      expect(container.innerHTML.slice(0, 40)).toBe(serverHTML.slice(0, 40));
    });
  }
});
