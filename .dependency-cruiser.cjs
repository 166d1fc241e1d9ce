/**
 * The direction of dependencies in authd, checked by tests/architecture.test.ts in
 * `npm test`: bin -> routes -> domains -> db / crypto / mail, no cycles between files
 * or folders. Any violation fails the check.
 */

/** Folders holding the auth rules of one domain each (routes.ts is their HTTP face). */
const DOMAINS =
  "(accounts|admin|audit|email|import|invitations|keys|organization|password|seed|sessions|social|teams|users|verification)";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No module may reach itself through its imports.",
      from: {},
      to: { circular: true },
    },
    {
      name: "server-not-to-bin",
      severity: "error",
      comment: "The server never depends on the command line; bin calls server code.",
      from: { path: "^server/" },
      to: { path: "^bin/" },
    },
    {
      name: "domain-not-to-http",
      severity: "error",
      comment: "Domain rules do not know HTTP: only a domain's routes.ts uses server/http/.",
      from: { path: `^server/${DOMAINS}/`, pathNot: "/routes\\.ts$" },
      to: { path: "^server/http/" },
    },
    {
      name: "domain-not-to-fastify",
      severity: "error",
      comment: "Domain rules do not know Fastify: only routes.ts and server/http/ do.",
      from: { path: `^server/${DOMAINS}/`, pathNot: "/routes\\.ts$" },
      to: { path: "(^|/)node_modules/(fastify|@fastify)/" },
    },
    {
      name: "not-to-another-domains-queries",
      severity: "error",
      comment:
        "Each table is read and written in its own domain's queries files (queries.ts, member-queries.ts…); others call that domain (its row types may be shared).",
      from: { path: "^server/([^/]+)/" },
      to: {
        path: "^server/[^/]+/(queries|[^/]+-queries)\\.ts$",
        pathNot: "^server/$1/",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "routes-only-from-app",
      severity: "error",
      comment:
        "Routes are mounted by buildApp (and the probes on the management port by serve); nothing else imports a routes.ts.",
      from: { pathNot: "^server/(app|serve)\\.ts$" },
      to: { path: "^server/[^/]+/routes\\.ts$" },
    },
    {
      name: "no-better-auth-at-runtime",
      severity: "error",
      comment:
        "authd reads Better Auth databases (import better-auth) but never runs Better Auth: the package is a dev dependency, for the tests that build such databases.",
      from: { path: "^(server|bin)/" },
      to: { path: "(^|/)node_modules/(better-auth|@better-auth)/" },
    },
    {
      name: "infrastructure-not-up",
      severity: "error",
      comment: "db, crypto and mail serve the domains and never import them or HTTP.",
      from: { path: "^server/(db|crypto|mail)/" },
      to: { path: `^server/(${DOMAINS.slice(1, -1)}|http|pages|health)/` },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // authd's own modules, and the packages a rule names: a package left out of the graph
    // is invisible to the rules about it.
    includeOnly: "^(server|bin)/|(^|/)node_modules/(better-auth|@better-auth|fastify|@fastify)/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".cts", ".js", ".cjs", ".json"] },
  },
};
