// The kit's bundle size, minified and gzipped, as an app downloads it: React is the
// app's own (a peer dependency), and each language other than English is a chunk the
// app loads only when a user asks for that language, so it is measured on its own.
const languageChunks = {
  name: "languages-load-on-demand",
  setup(build) {
    build.onResolve({ filter: /\/locales\/(ru|uk|es|de|pl|fr|tr)\/index\.js$/ }, (args) =>
      args.importer.endsWith("locale.js") ? { path: args.path, external: true } : undefined,
    );
  },
};

const onDemand = (config) => ({ ...config, plugins: [...(config.plugins ?? []), languageChunks] });

module.exports = [
  {
    name: "everything: all components, hooks and the client, in English",
    path: "dist/index.js",
    import: "*",
    gzip: true,
    limit: "60 kB",
    modifyEsbuildConfig: onDemand,
  },
  {
    name: "<SignIn/> alone, with AuthProvider and the client",
    path: "dist/index.js",
    import: "{ AuthProvider, SignIn, createAuthClient }",
    gzip: true,
    limit: "20 kB",
    modifyEsbuildConfig: onDemand,
  },
  {
    name: "the client alone",
    path: "dist/client/index.js",
    import: "{ createAuthClient }",
    gzip: true,
    limit: "5 kB",
  },
  {
    name: "one more language (German), loaded on demand",
    path: "dist/i18n/locales/de/index.js",
    gzip: true,
    limit: "15 kB",
  },
  {
    name: "styles.css",
    path: "dist/styles.css",
    gzip: true,
    limit: "5 kB",
  },
];
