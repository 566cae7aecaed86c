// The yardstick of the client page (bench/clients.ts, docs/clients.md "Bench"): a bare Fastify route over a bare
// node-postgres pool that does the client page's database work and nothing else — in one pipelined write, as the
// server does it: `begin read only`, the tenant context, the live-state check of the bench user's session, the page
// with its total (one prepared statement, rows as arrays), `commit` — then the rows as objects keyed by property, the
// answer's envelope as JSON, packed with brotli at the server's setting for a small answer. No token, no permission,
// no data scope, no validation, no hooks: what is left between this and the raw SQL is HTTP and a JavaScript server;
// what is left between the endpoint and this is Atrium's own work per request.
// Env: PORT, DATABASE_URL, BARE_TENANT, BARE_REGION (the region admin's region), BARE_SID and BARE_USER (the
// logged-in session, for the live-state check).
import Fastify from 'fastify';
import pg from 'pg';
import zlib from 'node:zlib';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Statement } from '../src/db/client.ts';
import { clientInfo } from '../src/modules/client/table.ts';
import { listPageStatement } from '../src/platform/crud.ts';
import { LIVE_TEXT } from '../src/platform/live.ts';
import { regionPrefix } from '../src/platform/paging.ts';
import { TENANT_CONTEXT_SQL } from '../src/platform/tenant-db.ts';

const env = (k: string) => {
  const v = process.env[k];
  if (!v) throw new Error(`bare-list: ${k} is not set`);
  return v;
};
const tenant = env('BARE_TENANT');
const region = env('BARE_REGION');
const live = [env('BARE_SID'), env('BARE_USER'), tenant];
const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 4, pipeline: true } as pg.PoolConfig);

// The server's own texts — the context, the live-state check, the page with its total (the CRUD factory's statement
// for the region admin's filter: tenant, not deleted, region range) — made once per page asked for, so the yardstick
// cannot drift from what the endpoint sends.
const where = and(
  eq(clientInfo.tenantId, tenant),
  eq(clientInfo.isDeleted, 0),
  regionPrefix(clientInfo.regionCode, region),
) as SQL;
const statements = new Map<string, Statement>();
const pageOf = (current: number, size: number) => {
  const key = `${current}:${size}`;
  let st = statements.get(key);
  if (!st) {
    st = listPageStatement(clientInfo, where, [sql`${clientInfo.id} desc`], { current, size });
    statements.set(key, st);
  }
  return { ...st, name: `bare_${key}` };
};
/** Property names as the server's answer has them (snake_case column → camelCase). */
const keyOf = (column: string) => column.replace(/_([a-z])/g, (_, x: string) => x.toUpperCase());
// Timestamps as text, as the server's driver reads them (a Date per value is work the endpoint does not do either).
const asText = (v: string) => v;
const types = {
  getTypeParser: (id: number, format?: 'text' | 'binary') =>
    id === pg.types.builtins.TIMESTAMP || id === pg.types.builtins.TIMESTAMPTZ
      ? asText
      : pg.types.getTypeParser(id, format ?? 'text'),
};

const app = Fastify({ logger: false });
app.get('/bare-list', async (req, reply) => {
  const q = req.query as { current?: string; size?: string };
  const size = Number(q.size ?? 10);
  const current = Number(q.current ?? 1);
  const c = await pool.connect();
  try {
    const sent = [
      c.query('begin read only'),
      c.query({ name: 'bare_ctx', text: TENANT_CONTEXT_SQL, values: [tenant] }),
      c.query({ name: 'bare_live', text: LIVE_TEXT, values: [...live, new Date().toISOString()], rowMode: 'array' }),
    ];
    const page = c.query({ ...pageOf(current, size), rowMode: 'array', types } as pg.QueryConfig);
    const end = c.query('commit');
    await Promise.all([...sent, page, end]);
    const { rows, fields }: { rows: unknown[][]; fields: { name: string }[] } = await page;
    const keys = fields.map((f) => keyOf(f.name));
    const records = rows.map((r) => {
      const o: Record<string, unknown> = {};
      for (let i = 1; i < keys.length; i++) o[keys[i]] = r[i];
      return o;
    });
    const n = rows.length ? Number(rows[0][0]) : 0;
    const body = JSON.stringify({
      code: 200,
      success: true,
      data: { records, total: n, size, current, pages: Math.ceil(n / size) },
      msg: '操作成功',
    });
    reply.header('content-type', 'application/json; charset=utf-8');
    if (!/\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''))) return body;
    reply.header('content-encoding', 'br');
    return zlib.brotliCompressSync(Buffer.from(body), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2 } });
  } finally {
    c.release();
  }
});
process.on('SIGTERM', () => void app.close().then(() => pool.end().then(() => process.exit(0))));
await app.listen({ port: Number(env('PORT')), host: '127.0.0.1' });
