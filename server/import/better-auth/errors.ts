/**
 * What `authd import better-auth` refuses: a source that is not a Better Auth database
 * (the CLI exits 2: `--from` names the wrong thing), and conflicts with what authd
 * already holds (exit 4, nothing written).
 */

/** The source lacks a table or column Better Auth's migrations create. */
export class SourceSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SourceSchemaError";
  }
}
