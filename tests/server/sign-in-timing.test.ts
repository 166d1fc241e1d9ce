/**
 * Sign-in must not tell, by its time, whether an address has an account: an unknown
 * address costs what a known one with a wrong password costs (the same statement, a
 * password verification against a dummy hash). Measured in-process, the two kinds
 * interleaved so that the machine's drift falls on both alike.
 *
 * Tolerance: the medians of 200 samples each may differ by at most 10% of the larger.
 * A password verification (argon2id, tens of milliseconds) dominates both; skipping it
 * for unknown addresses makes them over ten times faster, skipping one database round
 * trip is well under a tenth of it, so the bound catches the first and allows the noise.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";

const SAMPLES = 200;
const WARM_UP = 10;
const TOLERANCE = 0.1;

let t: TestApp;
const known = "timing-known@example.com";

beforeAll(async () => {
  t = await createTestApp({ config: { pages: { enabled: false } } });
  const signUp = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-up/email",
    headers: { origin: "http://localhost:3000" },
    payload: { name: "Timing", email: known, password: "correct horse battery" },
  });
  expect(signUp.statusCode, signUp.body).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

/** Milliseconds one failed sign-in takes; its answer must be the generic refusal. */
async function timedSignIn(email: string): Promise<number> {
  const started = performance.now();
  const answer = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { origin: "http://localhost:3000" },
    payload: { email, password: "wrong password here" },
  });
  const elapsed = performance.now() - started;
  expect(answer.statusCode).toBe(401);
  expect(answer.json().code).toBe("INVALID_EMAIL_OR_PASSWORD");
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return (
    ((sorted[Math.floor(middle - 0.5)] as number) + (sorted[Math.ceil(middle - 0.5)] as number)) / 2
  );
}

describe("sign-in timing", () => {
  it("costs the same for an unknown address as for a known one with a wrong password", async () => {
    for (let i = 0; i < WARM_UP; i++) {
      await timedSignIn(known);
      await timedSignIn(`warm-up-${i}@example.com`);
    }
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      // Alternate which goes first, so neither always follows the other.
      if (i % 2 === 0) {
        knownTimes.push(await timedSignIn(known));
        unknownTimes.push(await timedSignIn(`nobody-${i}@example.com`));
      } else {
        unknownTimes.push(await timedSignIn(`nobody-${i}@example.com`));
        knownTimes.push(await timedSignIn(known));
      }
    }
    const knownMedian = median(knownTimes);
    const unknownMedian = median(unknownTimes);
    const difference = Math.abs(knownMedian - unknownMedian) / Math.max(knownMedian, unknownMedian);
    expect(
      difference,
      `median known ${knownMedian.toFixed(2)} ms, unknown ${unknownMedian.toFixed(2)} ms`,
    ).toBeLessThan(TOLERANCE);
  }, 120_000);
});
