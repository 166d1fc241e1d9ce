import { describe, expect, it } from "vitest";
import { matchRoute, safeRedirect } from "../../pages/router.js";

describe("safeRedirect", () => {
  it.each(["/", "/account", "/accept-invitation/inv-1?joined=1", "/organization#members"])(
    "follows the path %s",
    (path) => {
      expect(safeRedirect(path)).toBe(path);
    },
  );

  it.each([
    ["nothing", null],
    ["an empty value", ""],
    ["another origin", "https://evil.example/"],
    ["a protocol-relative URL", "//evil.example/"],
    ["a relative path", "account"],
    ["a backslash", "/\\evil.example/"],
    ["a tab the browser drops", "/\t/evil.example/"],
    ["a newline the browser drops", "/\n/evil.example/"],
    ["a carriage return", "/\r/evil.example/"],
    ["a NUL", "/\u0000/evil.example/"],
    ["a DEL", "/\u007f/evil.example/"],
    ["a control character further on", "/account\u0001"],
  ])("refuses %s", (_, value) => {
    expect(safeRedirect(value)).toBeUndefined();
  });

  it("refuses a tab that arrived percent-encoded in the query", () => {
    const query = new URLSearchParams("redirectTo=/%09/evil.example/");
    expect(safeRedirect(query.get("redirectTo"))).toBeUndefined();
    // What the browser would make of it, had it been followed.
    expect(new URL("/\t/evil.example/", "https://auth.example").host).toBe("evil.example");
  });
});

describe("matchRoute", () => {
  it("names the pages under their prefix", () => {
    expect(matchRoute("/auth/sign-in", "/auth")).toEqual({ name: "sign-in" });
    expect(matchRoute("/auth/accept-invitation/a%20b", "/auth")).toEqual({
      name: "accept-invitation",
      invitationId: "a b",
    });
    expect(matchRoute("/elsewhere", "/auth")).toBeNull();
  });
});
