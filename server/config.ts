/**
 * The configuration contract, as the rest of authd imports it: the schema
 * (config/schema.ts), loading from file, environment and flags (config/load.ts), the
 * environment (config/environment.ts), problem messages (config/messages.ts) and the
 * secret (config/secrets.ts).
 */
export {
  type CliEnvironment,
  PROFILES,
  readCliEnvironment,
  readEnvironment,
} from "./config/environment.js";
export {
  CONFIG_FILE_NAMES,
  dataPath,
  findConfigFile,
  hasPath,
  isPlainObject,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
} from "./config/load.js";
export { ConfigError, problemLine, suggestKey, validateConfig } from "./config/messages.js";
export {
  type AuthdConfig,
  type AuthdConfigInput,
  configSchema,
  POSTGRES_URL,
  unparseableUrlProblem,
} from "./config/schema.js";
export { ensureSecret, redactConfig, type SecretSource, secretList } from "./config/secrets.js";
