// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { readSettings } from "../../pages/settings.js";

function html(attributes: Record<string, string>): HTMLElement {
  const root = document.createElement("html");
  for (const [name, value] of Object.entries(attributes)) root.setAttribute(name, value);
  return root;
}

describe("readSettings", () => {
  it("reads the password bounds the server wrote", () => {
    const settings = readSettings(
      html({
        "data-authd-password-min-length": "12",
        "data-authd-password-max-length": "64",
      }),
    );
    expect(settings).toMatchObject({ passwordMinLength: 12, passwordMaxLength: 64 });
  });

  it("falls back to 8 and 128 when the bounds are missing", () => {
    expect(readSettings(html({}))).toMatchObject({
      passwordMinLength: 8,
      passwordMaxLength: 128,
    });
  });

  it.each([
    ["zero", "0"],
    ["negative", "-5"],
    ["a fraction", "10.5"],
    ["a word", "twelve"],
    ["empty", ""],
    ["a number with trailing text", "12px"],
    ["beyond a safe integer", "99999999999999999999"],
  ])("ignores a bound that is %s", (_, value) => {
    const settings = readSettings(
      html({
        "data-authd-password-min-length": value,
        "data-authd-password-max-length": value,
      }),
    );
    expect(settings).toMatchObject({ passwordMinLength: 8, passwordMaxLength: 128 });
  });

  it("keeps a good bound when only the other is bad", () => {
    const settings = readSettings(
      html({
        "data-authd-password-min-length": "10",
        "data-authd-password-max-length": "lots",
      }),
    );
    expect(settings).toMatchObject({ passwordMinLength: 10, passwordMaxLength: 128 });
  });

  it("ignores a minimum above the maximum", () => {
    const settings = readSettings(
      html({
        "data-authd-password-min-length": "200",
        "data-authd-password-max-length": "100",
      }),
    );
    expect(settings).toMatchObject({ passwordMinLength: 8, passwordMaxLength: 128 });
  });

  it("still reads the paths and features", () => {
    const settings = readSettings(
      html({
        "data-authd-api-base-path": "/auth/api/",
        "data-authd-pages-path": "/",
        "data-authd-features": "teams delete-user",
      }),
    );
    expect(settings).toMatchObject({
      apiBasePath: "/auth/api",
      pagesPrefix: "",
      teams: true,
      deleteUser: true,
      organization: false,
    });
  });
});
