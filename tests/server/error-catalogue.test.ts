/**
 * The error catalogue is checked: every code thrown exists in the
 * catalogue, and every catalogue entry is documented in the README's error table
 * with the same status and message. (The React kit's dictionaries join this check
 * when the kit exists.)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  AuthError,
  ERROR_CATALOGUE,
  isErrorCode,
  REDIRECT_ERROR_CODES,
} from "../../server/errors.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith(".ts") ? [full] : [];
  });
}

describe("error catalogue", () => {
  it("knows every code the code base throws", () => {
    const thrown = new Set<string>();
    for (const file of [
      ...sourceFiles(path.join(ROOT, "server")),
      ...sourceFiles(path.join(ROOT, "bin")),
    ]) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/new AuthError\(\s*"([A-Z0-9_]+)"/g)) {
        if (match[1]) thrown.add(match[1]);
      }
    }
    expect(thrown.size).toBeGreaterThan(0);
    const missing = [...thrown].filter((code) => !isErrorCode(code));
    expect(missing).toEqual([]);
  });

  it("documents every entry in the HTTP API reference's error table", () => {
    const reference = readFileSync(path.join(ROOT, "docs/http-api.md"), "utf8");
    const missing: string[] = [];
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      const row = `| \`${code}\` | ${entry.status} | ${entry.message} |`;
      if (!reference.includes(row)) missing.push(row);
    }
    expect(missing, "add or correct these rows in docs/http-api.md").toEqual([]);
  });

  it("holds the fixed wording of every account message", () => {
    const messages = new Set(Object.values(ERROR_CATALOGUE).map((entry) => entry.message));
    const spec = [
      "Failed to create session",
      "Failed to get session",
      "Invalid password",
      "Invalid email",
      "Invalid email or password",
      "Provider not found",
      "invalid token",
      "id_token not supported",
      "Failed to get user info",
      "User email not found",
      "Email not verified",
      "Password too short",
      "Password too long",
      "User already exists",
      "Credential account not found",
      "Session expired. Re-authenticate to perform this action.",
      "You can't unlink your last account",
      "Account not found",
      "Session is not fresh",
      "Verification email isn't enabled",
      "Email and password is not enabled",
      "Reset password isn't enabled",
      "Change email is disabled",
      "user already has a password",
      "Organization already exists",
      "slug is taken",
      "Organization not found",
      "User is not a member of the organization",
      "No active organization",
      "Member not found",
      "Team not found",
      "Invitation not found",
      "Inviter is no longer a member of the organization",
      "Failed to retrieve invitation",
      "Unable to remove last team",
      "Organization membership limit reached",
      "Team member limit reached",
      "Invalid body parameters",
    ];
    expect(spec.filter((message) => !messages.has(message))).toEqual([]);
  });

  it("has the fixed statuses: 401 unauthorized, 400 no active organization", () => {
    expect(ERROR_CATALOGUE.UNAUTHORIZED.status).toBe(401);
    expect(ERROR_CATALOGUE.NO_ACTIVE_ORGANIZATION.status).toBe(400);
    expect(ERROR_CATALOGUE.ORGANIZATION_DELETION_DISABLED.status).toBe(403);
    expect(ERROR_CATALOGUE.INVALID_CALLBACK_URL.status).toBe(403);
    expect(ERROR_CATALOGUE.INVALID_ORIGIN.status).toBe(403);
  });

  it("lists the error redirect codes", () => {
    expect(REDIRECT_ERROR_CODES).toContain("state_not_found");
    expect(REDIRECT_ERROR_CODES).toContain("INVALID_TOKEN");
    expect(REDIRECT_ERROR_CODES).toHaveLength(20);
  });

  it("renders an AuthError as {code, message} with overrides", () => {
    expect(new AuthError("MEMBER_NOT_FOUND").toBody()).toEqual({
      code: "MEMBER_NOT_FOUND",
      message: "Member not found",
    });
    const custom = new AuthError("ROLE_NOT_FOUND", {
      message: "ROLE_NOT_FOUND: ghost",
      status: 400,
    });
    expect(custom.toBody()).toEqual({ code: "ROLE_NOT_FOUND", message: "ROLE_NOT_FOUND: ghost" });
    expect(custom.status).toBe(400);
  });
});
