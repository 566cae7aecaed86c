import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
};

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Every table with row-level security has it forced, so not even the tables' owner reads across tenants. drizzle-kit
 * enables RLS with each policy but has no word for FORCE: this idempotent step after the migrations supplies it.
 */
const forceRls = sql.raw(`DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relrowsecurity AND NOT c.relforcerowsecurity LOOP
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', r.relname);
  END LOOP;
END $$`);

/** PGlite in `dataDir` (or in memory when dataDir is 'memory://'), or a PostgreSQL pool when a URL is given. */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /** In-memory PGlite only: start from this dumped data directory instead of an empty cluster. */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: async () => {
        await migratePg(db as never, { migrationsFolder });
        await db.execute(forceRls);
      },
      close: () => pool.end(),
    };
  }
  const dir = opts.dataDir ?? 'memory://';
  let client: PGlite;
  if (dir.startsWith('memory://')) {
    client = new PGlite({ loadDataDir: opts.loadDataDir });
  } else {
    const pgDir = path.join(dir, 'pg');
    fs.mkdirSync(pgDir, { recursive: true });
    client = new PGlite(pgDir);
  }
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(db as never, { migrationsFolder });
      await db.execute(forceRls);
    },
    close: () => client.close(),
  };
}
