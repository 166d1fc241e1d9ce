/**
 * The statements a pool sends, as postgres.js builds them: its `debug` hook sees each
 * statement's final text whichever way it was written (tagged template, fragments or
 * unsafe), so tests can count round trips without knowing how a query is composed.
 */
import type { Sql } from "../../server/db/connection.js";

export interface StatementWatch {
  /** Each statement's text, in the order they were sent. */
  readonly statements: string[];
  /** Puts the pool's previous debug setting back. */
  stop(): void;
}

export function watchStatements(sql: Sql): StatementWatch {
  const options = sql.options;
  const previous = options.debug;
  const statements: string[] = [];
  options.debug = (connection, query, parameters, types) => {
    statements.push(query);
    if (typeof previous === "function") previous(connection, query, parameters, types);
  };
  return {
    statements,
    stop() {
      options.debug = previous;
    },
  };
}
