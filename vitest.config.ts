import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts", "ui-kit/tests/**/*.test.ts", "ui-kit/tests/**/*.test.tsx"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    // Component tests choose jsdom per file; this only adds DOM matchers and cleanup there.
    setupFiles: ["ui-kit/tests/components/setup-entry.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file owns its database; two cores run two files at a time.
    maxWorkers: 2,
  },
});
