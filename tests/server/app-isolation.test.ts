/**
 * Two apps built in one process share nothing: each owns its session lookups, its
 * password hasher (slots and dummy hash), its per-request session memo and what social
 * sign-in learnt from providers, and one app's load never queues the other's work.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";

let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  [a, b] = await Promise.all([createTestApp(), createTestApp()]);
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe("two apps in one process", () => {
  it("own distinct session lookups, password hashers and request memos", () => {
    const first = a.app.authContext;
    const second = b.app.authContext;
    expect(first).not.toBe(second);
    expect(first.sessionLookups).not.toBe(second.sessionLookups);
    expect(first.passwords).not.toBe(second.passwords);
    expect(first.sessionOfRequest).not.toBe(second.sessionOfRequest);
  });

  it("own distinct cookie memos and organization creation batches", () => {
    const first = a.app.authContext;
    const second = b.app.authContext;
    expect(first.cookies.verifiedTokens).not.toBe(second.cookies.verifiedTokens);
    expect(first.cookies.verifiedCaches).not.toBe(second.cookies.verifiedCaches);
    expect(first.domains.organizations.creations).not.toBe(second.domains.organizations.creations);
  });

  it("own distinct social sign-in state: discovery documents, key sets, refreshes", () => {
    const first = a.app.authContext.social;
    const second = b.app.authContext.social;
    expect(first).not.toBe(second);
    expect(first.discovered).not.toBe(second.discovered);
    expect(first.idTokens).not.toBe(second.idTokens);
    expect(first.cipher).not.toBe(second.cipher);
    expect(first.refreshes).not.toBe(second.refreshes);
  });

  it("hash in their own slots: a queue in one app does not hold up the other", async () => {
    const finished: string[] = [];
    // Many rounds' worth of hashes queue behind app a's slots (one per core)...
    const queued = Array.from({ length: 32 }, (_, i) =>
      a.app.authContext.passwords.hash(`a-${i}`).then(() => finished.push(`a-${i}`)),
    );
    // ...and app b's one hash, asked for last, starts at once in a slot of its own.
    const alone = b.app.authContext.passwords.hash("b").then(() => finished.push("b"));
    await Promise.all([...queued, alone]);
    // Shared slots would serve it after every hash queued before it.
    expect(finished.indexOf("b")).toBeLessThan(finished.length - 8);
  });
});
