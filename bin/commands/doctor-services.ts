/**
 * Doctor's checks of what authd connects to: the database (reachable, its version and
 * latency), the schema (migrations applied), the database clock against this host's,
 * and mail delivery. Each runs against a deadline: doctor must never hang.
 */
import { performance } from "node:perf_hooks";
import type { LoadedConfig } from "../../server/config.js";
import { type Database, describeDatabaseUrl, openDatabase } from "../../server/db/connection.js";
import { EmbeddedDatabaseLockedError } from "../../server/db/embedded.js";
import { migrationStatus } from "../../server/db/migrations.js";
import { createMailTransport } from "../../server/mail/transport.js";
import { type Check, message } from "./doctor-check.js";

class DeadlineError extends Error {}

/** Rejects when `work` takes longer than `seconds`: doctor must never hang. */
async function within<T>(seconds: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DeadlineError(`no answer within ${seconds} s`)),
      seconds * 1000,
    );
    timer.unref();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function describeSchema(
  status: Awaited<ReturnType<typeof migrationStatus>>,
  embedded: boolean,
): Check & { behind: boolean } {
  const unknown =
    status.unknown.length > 0
      ? `${status.unknown.length} unknown to this version of authd (a newer version ran them): ${status.unknown.join(", ")}`
      : "";
  if (status.pending.length > 0) {
    const pending = `${status.pending.length} pending`;
    const both = (detail: string) => (unknown ? `${detail}; ${unknown}` : detail);
    // The embedded database belongs to authd alone: serve migrates it on start.
    return embedded
      ? {
          name: "schema",
          status: "warn",
          detail: both(`${pending}: \`authd serve\` applies them to the embedded database`),
          behind: false,
        }
      : {
          name: "schema",
          status: "fail",
          detail: both(`${pending}: run \`authd migrate\``),
          behind: true,
        };
  }
  if (unknown) return { name: "schema", status: "warn", detail: unknown, behind: false };
  return {
    name: "schema",
    status: "ok",
    detail: `up to date (${status.applied.length} migrations applied)`,
    behind: false,
  };
}

/** Clock skew between this host and the database server: warn above, fail above. */
export const CLOCK_SKEW_WARN_MS = 2_000;
export const CLOCK_SKEW_FAIL_MS = 30_000;

/**
 * The clock check from a measured skew (database minus local, in ms). authd writes
 * expiry times from this host's clock and the database compares some with now(), and
 * several authd hosts share one database: clocks that disagree cut sessions, links and
 * invitations short or make them outlive their expiry.
 */
export function describeClockSkew(skewMs: number, roundTripMs: number): Check {
  const size = Math.abs(skewMs);
  const seconds = (size / 1000).toFixed(1);
  const direction = skewMs >= 0 ? "ahead of" : "behind";
  const measured = `round trip ${Math.round(roundTripMs)} ms`;
  if (size <= CLOCK_SKEW_WARN_MS) {
    return {
      name: "clock",
      status: "ok",
      detail: `database clock within ${seconds} s of this host's (${measured})`,
    };
  }
  const consequence =
    "expiry times written by authd and compared by the database disagree; sync both clocks (NTP)";
  return {
    name: "clock",
    status: size > CLOCK_SKEW_FAIL_MS ? "fail" : "warn",
    detail: `database clock ${seconds} s ${direction} this host's (${measured}): ${consequence}`,
  };
}

async function checkClock(db: Database, timeout: number): Promise<Check> {
  try {
    const before = Date.now();
    const started = performance.now();
    const [row] = await within(
      timeout,
      db.sql<{ ms: number }[]>`
        select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`,
    );
    const roundTrip = performance.now() - started;
    if (row === undefined) throw new Error("no answer");
    // The database read its clock about halfway through the round trip.
    return describeClockSkew(row.ms - (before + roundTrip / 2), roundTrip);
  } catch (error) {
    return {
      name: "clock",
      status: "warn",
      detail: `cannot read the database clock: ${message(error)}`,
    };
  }
}

export interface DatabaseChecks {
  checks: Check[];
  /** The schema check failed because migrations are pending (exit 10 on its own). */
  schemaBehind: boolean;
}

export async function checkDatabase(loaded: LoadedConfig): Promise<DatabaseChecks> {
  const { url, connectTimeout: timeout } = loaded.config.database;
  let db: Database;
  const opening = openDatabase(loaded, { max: 1 });
  try {
    // postgres.js reconnects without end while a server accepts and then closes the
    // connection (say, an HTTP server on that port), so the URL case gets a deadline too.
    db = url ? await within(timeout + 1, opening) : await opening;
  } catch (error) {
    if (url && error instanceof DeadlineError) {
      opening
        .then(
          (late) => late.close(),
          () => {},
        )
        .catch(() => {});
      return {
        checks: [
          {
            name: "database",
            status: "fail",
            detail: `cannot reach PostgreSQL at ${describeDatabaseUrl(url)}: ${error.message} (is a PostgreSQL server listening there?)`,
          },
        ],
        schemaBehind: false,
      };
    }
    if (error instanceof EmbeddedDatabaseLockedError) {
      // A running `authd serve` owns it: that is no fault, but nothing can be checked.
      return {
        checks: [{ name: "database", status: "warn", detail: `not checked: ${error.message}` }],
        schemaBehind: false,
      };
    }
    return {
      checks: [{ name: "database", status: "fail", detail: message(error) }],
      schemaBehind: false,
    };
  }
  try {
    const checks: Check[] = [];
    try {
      const started = performance.now();
      const [row] = await within(
        timeout,
        db.sql<{ version: string }[]>`select current_setting('server_version') as version`,
      );
      const latency = Math.max(0, Math.round(performance.now() - started));
      checks.push({
        name: "database",
        status: "ok",
        detail: `${db.label}: PostgreSQL ${row?.version ?? "?"}, latency ${latency} ms`,
      });
    } catch (error) {
      checks.push({ name: "database", status: "fail", detail: `${db.label}: ${message(error)}` });
      return { checks, schemaBehind: false };
    }
    let schemaBehind = false;
    try {
      const schema = describeSchema(await within(timeout, migrationStatus(db.sql)), db.embedded);
      checks.push({ name: schema.name, status: schema.status, detail: schema.detail });
      schemaBehind = schema.behind;
    } catch (error) {
      checks.push({
        name: "schema",
        status: "fail",
        detail: `cannot read the migrations: ${message(error)}`,
      });
    }
    checks.push(await checkClock(db, timeout));
    return { checks, schemaBehind };
  } finally {
    await db.close().catch(() => {});
  }
}

export async function checkMail(loaded: LoadedConfig): Promise<Check> {
  const transport = createMailTransport(loaded);
  try {
    const started = performance.now();
    await transport.verify();
    if (transport.kind === "smtp") {
      const elapsed = Math.max(0, Math.round(performance.now() - started));
      return {
        name: "mail",
        status: "ok",
        detail: `${transport.describe}: verified in ${elapsed} ms`,
      };
    }
    if (loaded.production) {
      return {
        name: "mail",
        status: "warn",
        detail: `no SMTP server: mail is written to ${transport.describe}, not delivered; set SMTP_URL`,
      };
    }
    return {
      name: "mail",
      status: "ok",
      detail: `outbox ${transport.describe} is writable (no SMTP_URL: messages are saved as .eml files)`,
    };
  } catch (error) {
    return { name: "mail", status: "fail", detail: message(error) };
  } finally {
    transport.close();
  }
}
