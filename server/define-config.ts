/**
 * What `import { defineConfig } from "authd"` gives a config file. It lives apart from
 * the config schema so that authd can hand exactly this module to a config file
 * wherever authd runs from (a local or global install, or a checkout), at no more cost
 * than one tiny module.
 */
import type { AuthdConfigInput } from "./config.js";

/** Identity helper for `authd.config.ts`: gives editors the types, changes nothing. */
export function defineConfig(config: AuthdConfigInput): AuthdConfigInput {
  return config;
}
