/**
 * The PostgreSQL driver (bench-results/2026-11-27-driver-ab.md): 'pg' (node-postgres with the pipelined transactions
 * of db/client.ts and the renderer of db/render.ts) or, with `ATRIUM_PG_DRIVER=postgres-js`, drizzle's
 * `drizzle-orm/postgres-js` on the `postgres` package with drizzle's own rendering — the A/B of issue 25 §5.
 */
export const PG_DRIVER: 'pg' | 'postgres-js' = process.env.ATRIUM_PG_DRIVER === 'postgres-js' ? 'postgres-js' : 'pg';
