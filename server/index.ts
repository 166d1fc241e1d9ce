/**
 * The `authd` package entry for code that imports it: config files use
 * `defineConfig`; embedders can build the app themselves.
 */
export { buildApp } from "./app.js";
export type { AuthdConfig, AuthdConfigInput } from "./config.js";
export { defineConfig } from "./define-config.js";
export { AuthError, ERROR_CATALOGUE, type ErrorCode } from "./errors.js";
