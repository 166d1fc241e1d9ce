/**
 * Builds the pages authd serves into the package's dist/pages: a relative base (the
 * server writes the absolute asset prefix into index.html at start-up), hashed asset
 * names, and brotli and gzip copies made here once so serving does no compression.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(here, "../../dist/pages");

/** Writes `<file>.br` and `<file>.gz` beside every script and stylesheet. */
function precompress(): Plugin {
  return {
    name: "authd-precompress",
    apply: "build",
    closeBundle() {
      const assets = path.join(outDir, "assets");
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css)$/.test(name)) continue;
        const file = path.join(assets, name);
        const data = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(data, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: here,
  base: "./",
  publicDir: false,
  logLevel: "warn",
  plugins: [precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: "assets",
    // Every browser the kit supports preloads modules itself.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    sourcemap: false,
  },
});
