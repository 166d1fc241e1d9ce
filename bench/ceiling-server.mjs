/**
 * The ceilings the HTTP scenarios are measured against: a bare Fastify
 * server with one route returning constant JSON and one doing a single primary-key
 * lookup through postgres.js on the same database authd uses, with authd's pool size and
 * authd's way of pooling (one postgres.js client per connection, dist/server/db/clients.js:
 * postgres.js's own pool slows down under sustained load, see bench/README.md).
 * Prints its URL on stdout, then serves until SIGTERM.
 */
import Fastify from "fastify";
import postgres from "postgres";
import { clientPool } from "../dist/server/db/clients.js";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write("DATABASE_URL is required\n");
  process.exit(2);
}
const sql = clientPool(
  (onclose) =>
    postgres(databaseUrl, { max: 1, onclose, transform: postgres.camel, onnotice: () => {} }),
  { size: 10, acquireTimeout: 10_000 },
);
const app = Fastify({ logger: false });

app.get("/constant", async () => ({ ok: true, service: "authd-ceiling", version: 1 }));
app.get("/user/:id", async (request) => {
  const [user] = await sql`select * from "user" where id = ${request.params.id}`;
  return user ?? null;
});

await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
process.stdout.write(`http://127.0.0.1:${address.port}\n`);
process.on("SIGTERM", async () => {
  await app.close();
  await sql.end({ timeout: 1 });
  process.exit(0);
});
