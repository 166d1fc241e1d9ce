/** The strict configuration checks shared by `config validate --strict` and `doctor`. */
import { describe, expect, it } from "vitest";
import { type LoadedConfig, validateConfig } from "../../server/config.js";
import {
  auditConfig,
  classifyTrustedOrigin,
  isLoopbackHost,
  socialCredentialProblems,
} from "../../server/config-safety.js";

function loaded(raw: Record<string, unknown>): LoadedConfig {
  return {
    config: validateConfig(raw, "test.json"),
    file: null,
    production: false,
    envSources: {},
    cwd: "/srv",
  };
}

describe("classifyTrustedOrigin", () => {
  it.each([
    ["https://app.example.test", "origin"],
    ["http://localhost:5173/", "origin"],
    ["https://*.example.test", "pattern"],
    ["*://*.example.test", "pattern"],
    ["*", "wildcard"],
    ["https://*", "wildcard"],
    ["*://*:8080/", "wildcard"],
    ["https://app.example.test/login", "url"],
    ["https://user:pw@app.example.test", "url"],
    ["app.example.test", "invalid"],
    ["ftp://files.example.test", "invalid"],
    ["https://*.example.test/path", "invalid"],
  ])("%s is %s", (entry, kind) => {
    expect(classifyTrustedOrigin(entry).kind).toBe(kind);
  });
});

describe("isLoopbackHost", () => {
  it.each([
    ["localhost", true],
    ["app.localhost", true],
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["[::1]", true],
    ["example.test", false],
    ["127.0.0.1.example.test", false],
    ["localhost.example.test", false],
  ])("%s: %s", (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe("auditConfig", () => {
  it("finds nothing in a production-grade configuration", () => {
    const config = loaded({
      baseURL: "https://auth.example.test",
      secret: "s".repeat(32),
      trustedOrigins: ["https://app.example.test"],
      session: { cookieCache: { enabled: true, maxAge: 3600 } },
    });
    expect(auditConfig(config, "/srv/.authd/secret")).toEqual([]);
  });

  it("names each unsafe setting by key, problems and warnings apart", () => {
    const findings = auditConfig(
      loaded({
        trustedOrigins: ["https://*", "https://ok.example.test", "https://a.example.test/x"],
        session: { cookieCache: { enabled: true, maxAge: 3601 } },
        cli: { allowSessionMint: true },
      }),
      "/srv/.authd/secret",
    );
    expect(findings.map((finding) => [finding.key, finding.severity])).toEqual([
      ["baseURL", "problem"],
      ["trustedOrigins.0", "problem"],
      ["trustedOrigins.2", "warning"],
      ["secret", "problem"],
      ["session.cookieCache.maxAge", "problem"],
      ["cli.allowSessionMint", "problem"],
    ]);
    expect(findings.find((finding) => finding.key === "secret")?.message).toContain(
      "/srv/.authd/secret",
    );
  });

  it("warns about metrics served on the API port, not on a port of their own", () => {
    const safe = { baseURL: "https://auth.example.test", secret: "s".repeat(32) };
    const onApiPort = auditConfig(loaded({ ...safe, metrics: { enabled: true } }), "/s");
    expect(onApiPort.map((finding) => [finding.key, finding.severity])).toEqual([
      ["metrics.enabled", "warning"],
    ]);
    expect(onApiPort[0]?.message).toContain("/metrics is served on the API port");
    expect(auditConfig(loaded({ ...safe, metrics: { enabled: true, port: 9464 } }), "/s")).toEqual(
      [],
    );
    expect(auditConfig(loaded({ ...safe, metrics: { enabled: false } }), "/s")).toEqual([]);
  });

  it("ignores a long maxAge while the cookie cache is off", () => {
    const findings = auditConfig(
      loaded({
        baseURL: "https://auth.example.test",
        secret: "s".repeat(32),
        session: { cookieCache: { enabled: false, maxAge: 86400 } },
      }),
      "/srv/.authd/secret",
    );
    expect(findings).toEqual([]);
  });
});

describe("socialCredentialProblems", () => {
  it("flags blank and placeholder credentials, and passes real ones", () => {
    const config = loaded({
      socialProviders: {
        github: { clientId: "Iv1.abc", clientSecret: "a-real-looking-secret" },
        google: { clientId: "<client id>", clientSecret: " " },
        gitlab: { clientId: "changeme", clientSecret: "$GITLAB_SECRET" },
      },
    }).config;
    expect(socialCredentialProblems(config)).toEqual([
      { provider: "github", problems: [] },
      {
        provider: "google",
        problems: [
          "clientId looks like a placeholder (config files are not expanded); set the real value",
          "clientSecret is blank",
        ],
      },
      {
        provider: "gitlab",
        problems: [
          "clientId looks like a placeholder (config files are not expanded); set the real value",
          "clientSecret looks like a placeholder (config files are not expanded); set the real value",
        ],
      },
    ]);
  });
});
