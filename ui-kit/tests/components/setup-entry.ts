// Only files that run in a DOM (the component tests) need the DOM matchers and cleanup.
if (typeof document !== "undefined") await import("./setup.js");

export {};
