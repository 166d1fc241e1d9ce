/**
 * The statements a pool sends, as postgres.js builds them: its `debug` hook sees each
 * statement's final text whichever way it was written (tagged template, fragments or
 * unsafe), so tests can count round trips without knowing how a query is composed. The
 * hook is set on every client of authd's pool.
 */
import { clientsOf } from "../../server/db/clients.js";
import type { Sql } from "../../server/db/connection.js";

export interface StatementWatch {
  /** Each statement's text, in the order they were sent. */
  readonly statements: string[];
  /** Puts the clients' previous debug settings back. */
  stop(): void;
}

export function watchStatements(sql: Sql): StatementWatch {
  const statements: string[] = [];
  const restore = clientsOf(sql).map((client) => {
    const options = client.options;
    const previous = options.debug;
    options.debug = (connection, query, parameters, types) => {
      statements.push(query);
      if (typeof previous === "function") previous(connection, query, parameters, types);
    };
    return () => {
      options.debug = previous;
    };
  });
  return {
    statements,
    stop() {
      for (const undo of restore) undo();
    },
  };
}
