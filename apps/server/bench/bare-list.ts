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

const env = (k: string) => {
  const v = process.env[k];
  if (!v) throw new Error(`bare-list: ${k} is not set`);
  return v;
};
const tenant = env('BARE_TENANT');
const region = env('BARE_REGION');
const next = region.slice(0, -1) + String.fromCharCode(region.charCodeAt(region.length - 1) + 1);
const live = [env('BARE_SID'), env('BARE_USER'), tenant];
const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 4, pipeline: true } as pg.PoolConfig);

const columns = (
  await pool.query<{ column_name: string }>(
    `select column_name from information_schema.columns where table_name = 'client_info' and is_generated = 'NEVER'
     order by ordinal_position`,
  )
).rows.map((r) => r.column_name);
const keys = columns.map((c) => c.replace(/_([a-z])/g, (_, x: string) => x.toUpperCase()));
const list = columns.map((c) => `"client_info"."${c}"`).join(', ');
const where = `("client_info"."tenant_id" = $1 and "client_info"."is_deleted" = $2 and ("client_info"."region_code" ~>=~ $3 and "client_info"."region_code" ~<~ $4))`;
const total = `(select count(*) from "client_info" where ${where}) as "__total"`;
const firstPage = `select ${total}, ${list} from "client_info" where ${where} order by "client_info"."id" desc limit $5`;
const laterPage =
  `select ${total}, ${list} from "client_info" inner join (select "client_info"."id" as "__page_id" from "client_info" ` +
  `where ${where} order by "client_info"."id" desc limit $5 offset $6) "page_ids" on "client_info"."id" = ` +
  `"page_ids"."__page_id" order by "client_info"."id" desc`;
// Timestamps as text, as the server's driver reads them (a Date per value is work the endpoint does not do either).
const asText = (v: string) => v;
const types = {
  getTypeParser: (id: number, format?: 'text' | 'binary') =>
    id === pg.types.builtins.TIMESTAMP || id === pg.types.builtins.TIMESTAMPTZ
      ? asText
      : pg.types.getTypeParser(id, format ?? 'text'),
};
const LIVE =
  'select session_ok, user_ok, dept_id, region_code, client_info_id, must_change, role_ids, tenant_ok, ' +
  'tenant_expired, epoch, global_epoch from atrium_live_state($1, $2, $3, $4)';

const app = Fastify({ logger: false });
app.get('/bare-list', async (req, reply) => {
  const q = req.query as { current?: string; size?: string };
  const size = Number(q.size ?? 10);
  const current = Number(q.current ?? 1);
  const offset = (current - 1) * size;
  const c = await pool.connect();
  try {
    const sent = [
      c.query('begin read only'),
      c.query({
        name: 'bare_ctx',
        text: "select set_config('app.tenant_id', $1, true), set_config('role', 'atrium_app', true)",
        values: [tenant],
      }),
      c.query({ name: 'bare_live', text: LIVE, values: [...live, new Date().toISOString()], rowMode: 'array' }),
    ];
    const page = c.query({
      name: offset ? 'bare_later' : 'bare_first',
      text: offset ? laterPage : firstPage,
      values: offset ? [tenant, 0, region, next, size, offset] : [tenant, 0, region, next, size],
      rowMode: 'array',
      types,
    } as pg.QueryConfig);
    const end = c.query('commit');
    await Promise.all([...sent, page, end]);
    const rows = (await page).rows as unknown[][];
    const records = rows.map((r) => {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) o[keys[i]] = r[i + 1];
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
