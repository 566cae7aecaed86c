import type { SQLWrapper } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * The rows of a raw statement (`db.execute`), typed as the caller's `select` names them (docs/server.md "Rules every
 * module follows"). Both drivers answer `{ rows }`, but `Db` leaves the result kind generic (`PgQueryResultHKT`, as one
 * type serves PostgreSQL and PGlite), so drizzle types the answer `unknown`: this is the one place that says what it is.
 */
export async function rowsOf<T>(db: Db, query: SQLWrapper | string): Promise<T[]> {
  // drizzle types the answer `unknown` for `Db`'s generic result kind (above); both drivers answer `{ rows }`.
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
