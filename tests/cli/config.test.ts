/** `authd config validate|show|schema` as operators run them: the built binary in a scratch directory. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthd } from "../helpers/cli.js";

const SECRET = "config-test-secret-0123456789-abcdefghijkl";

interface Setting {
  key: string;
  value: unknown;
  source: string;
  variable?: string;
}

let dir: string;

async function scratch(name: string, files: Record<string, string>): Promise<string> {
  const cwd = path.join(dir, name);
  await mkdir(cwd, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(cwd, file), text);
  return cwd;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "authd-config-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("authd config validate", () => {
  it("answers valid with exit 0 for a good file", async () => {
    const cwd = await scratch("good", {
      "authd.config.json": JSON.stringify({ server: { port: 4000 } }),
    });
    const result = await runAuthd(["config", "validate"], { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^valid/);

    const json = await runAuthd(["config", "validate", "--json"], { cwd });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      valid: true,
      file: path.join(cwd, "authd.config.json"),
      problems: [],
    });
  });

  it("lists every problem of the file and the environment and exits 78", async () => {
    const cwd = await scratch("bad", {
      "authd.config.json": JSON.stringify({ server: { prot: 4000 }, basePath: "nope" }),
    });
    const result = await runAuthd(["config", "validate", "--json"], {
      cwd,
      env: { AUTHD_BASE_URL: "ftp://example.test" },
    });
    expect(result.code).toBe(78);
    const document = JSON.parse(result.stdout) as { valid: boolean; problems: string[] };
    expect(document.valid).toBe(false);
    expect(document.problems).toHaveLength(3);
    expect(document.problems.join("\n")).toContain(
      'server.prot: unknown key (did you mean "port"?)',
    );
    expect(document.problems.join("\n")).toContain("basePath");
    expect(document.problems.join("\n")).toContain("AUTHD_BASE_URL");

    const human = await runAuthd(["config", "validate"], { cwd });
    expect(human.code).toBe(78);
    expect(human.stdout).toBe("");
    expect(human.stderr).toContain("server.prot");
    expect(human.stderr).toContain("2 problems");
  });

  it("reports a missing --config file as a problem", async () => {
    const result = await runAuthd(["config", "validate", "--json", "--config", "missing.json"], {
      cwd: dir,
    });
    expect(result.code).toBe(78);
    expect(JSON.parse(result.stdout).problems[0]).toContain("config file not found");
  });
});

describe("authd config show", () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await scratch("show", {
      "authd.config.ts": `export default {
  secret: ${JSON.stringify(SECRET)},
  server: { port: 4000 },
  organization: { organizationLimit: (user: unknown) => 3 },
};
`,
    });
  });

  async function settings(args: string[] = [], env: Record<string, string> = {}) {
    const result = await runAuthd(["config", "show", "--json", ...args], { cwd, env });
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as { file: string; settings: Setting[] };
    expect(document.file).toBe(path.join(cwd, "authd.config.ts"));
    return {
      byKey: new Map(document.settings.map((setting) => [setting.key, setting])),
      stderr: result.stderr,
      stdout: result.stdout,
    };
  }

  it("annotates each value with its source and redacts secrets", async () => {
    const { byKey, stdout, stderr } = await settings([], {
      PORT: "5000",
      DATABASE_URL: "postgres://authd:hunter2@db.example.test/authd",
    });
    expect(byKey.get("server.port")).toEqual({
      key: "server.port",
      value: 5000,
      source: "env",
      variable: "PORT",
    });
    expect(byKey.get("secret")).toMatchObject({ value: "***", source: "file" });
    expect(byKey.get("basePath")).toMatchObject({ value: "/api/auth", source: "default" });
    expect(byKey.get("organization.organizationLimit")).toMatchObject({
      value: "[function]",
      source: "file",
    });
    expect(byKey.get("database.url")?.value).toBe("postgres://authd:***@db.example.test/authd");
    expect(stdout).not.toContain(SECRET);
    expect(stdout).not.toContain("hunter2");
    expect(stderr).toBe("");
  });

  it("--reveal prints secrets with a warning on stderr", async () => {
    const { byKey, stderr } = await settings(["--reveal"]);
    expect(byKey.get("secret")?.value).toBe(SECRET);
    expect(byKey.get("organization.organizationLimit")?.value).toBe("[function]");
    expect(stderr).toMatch(/warning/i);
  });

  it("prints an aligned table for humans", async () => {
    const result = await runAuthd(["config", "show"], { cwd, env: { PORT: "5000" } });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^SETTING\s+VALUE\s+SOURCE/);
    expect(result.stdout).toMatch(/server\.port\s+5000\s+env \(PORT\)/);
    expect(result.stdout).toMatch(/secret\s+\*\*\*\s+file/);
  });

  it("exits 78 on an invalid configuration", async () => {
    const result = await runAuthd(["config", "show"], { cwd, env: { PORT: "not-a-port" } });
    expect(result.code).toBe(78);
  });
});

describe("authd config schema", () => {
  it("prints the JSON Schema of the config file", async () => {
    const result = await runAuthd(["config", "schema"], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const schema = JSON.parse(result.stdout);
    expect(schema.$schema).toContain("json-schema.org");
    expect(schema.type).toBe("object");
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.server.properties.port).toMatchObject({
      type: "integer",
      maximum: 65535,
    });
    expect(schema.description).toMatch(/functions/);
    // Functions are accepted as anything, and say so.
    const hook =
      schema.properties.organization.properties.hooks.properties.beforeCreateOrganization;
    expect(hook.description).toMatch(/function/i);
  });
});
