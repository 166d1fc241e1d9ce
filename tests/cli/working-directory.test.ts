/**
 * The tests never read a user's files: every command a test runs gets an empty working
 * directory of its own and a minimal environment, so `npm test` passes after
 * `authd init` wrote an `authd.config.ts` and a `.env` into the checkout.
 */
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT, runAuthd, scratchDirectory } from "../helpers/cli.js";

let home: string | undefined;
const previous = process.cwd();

afterEach(async () => {
  process.chdir(previous);
  if (home) await rm(home, { recursive: true, force: true });
  home = undefined;
});

describe("the working directory of test commands", () => {
  it("is an empty folder of the test process, not the checkout or the process's own", async () => {
    const scratch = scratchDirectory();
    expect(scratch).not.toBe(ROOT);
    expect(path.relative(ROOT, scratch).startsWith("..")).toBe(true);
    expect(await readdir(scratch)).not.toContain("authd.config.ts");
    expect(await readdir(scratch)).not.toContain(".env");
  });

  it("ignores the config file and .env that `authd init` left where the tests run", async () => {
    // What a user's checkout holds after `authd init`, made hostile: were either read,
    // the command would fail or point at a database that does not exist.
    home = await mkdtemp(path.join(os.tmpdir(), "authd-initialized-"));
    await writeFile(
      path.join(home, "authd.config.ts"),
      'throw new Error("the tests read the user\'s authd.config.ts");\n',
    );
    await writeFile(
      path.join(home, ".env"),
      "DATABASE_URL=postgres://nobody@127.0.0.1:1/none\nAUTHD_PROFILE=not-a-profile\nPORT=1\n",
    );
    process.chdir(home);

    const shown = await runAuthd(["config", "show", "--json"]);
    expect(shown.code, shown.stderr).toBe(0);
    const parsed = JSON.parse(shown.stdout) as {
      file: string | null;
      settings: Array<{ key: string; value: unknown; source: string }>;
    };
    expect(parsed.file).toBeNull();
    const port = parsed.settings.find((setting) => setting.key === "server.port");
    expect(port).toMatchObject({ value: 3000, source: "default" });
    expect(JSON.stringify(parsed)).not.toContain("nobody@127.0.0.1");

    // Proof the files would have been read from there: the same command in that folder fails.
    const there = await runAuthd(["config", "show", "--json"], { cwd: home });
    expect(there.code).not.toBe(0);
  });
});
