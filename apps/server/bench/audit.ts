// The audit viewer at 10,000,000 audit rows (issue 27; docs/server.md "Log viewers"): a throwaway PostgreSQL database migrated
// and seeded by the real start-up, then BENCH_AUDIT_ROWS (10,000,000) audit rows written with generate_series —
// BENCH_AUDIT_TENANT_SHARE (80 %) in the platform tenant, the rest spread over four other tenants; 40 entities, 200
// users (the admin one of them), a year of times — the indexes dropped for the fill and built again after, then
// VACUUM ANALYZE. The server (a child process) answers the filtered pages of `audit/list` as the admin: newest first,
// by entity, by user (id and account), by a 7-day range, combined, and the deepest page (offset 9,990); p50 / p99 of
// each (BENCH_AUDIT_REQUESTS, 200, after BENCH_AUDIT_WARMUP, 20). Aim: p99 of a filtered page ≤ 50 ms.
// Alone: `cd apps/server && npx tsx bench/audit.ts`, or `BENCH_ONLY=audit npm run bench` at the root (results.audit).
// Knobs: BENCH_PG_URL, BENCH_AUDIT_ROWS, BENCH_AUDIT_PORT, BENCH_EXPLAIN=1 (plans), BENCH_AUDIT_KEEP_DB=1.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { logApi } from '@atrium/contract';
import {
  BASIC,
  captchaLogin,
  type Log,
  prebuilt,
  printFigure,
  printPlans,
  runIfMain,
  sleep,
  stat,
  type Stat,
  stop,
  throwawayDb,
  timed,
  timingKnobs,
  waitFor,
} from './lib.ts';

const TENANT = '000000';
const ENTITIES = 40;
const USERS = 200;

export type AuditResult = {
  rows: number;
  tenantRows: number;
  fillMs: number;
  indexMs: number;
  cases: Record<string, { endpoint: Stat; total: number; capped: boolean }>;
  aims: { filteredP99Under50: boolean };
};

/** Fills the audit rows without their indexes, then builds them again (what a restore does). */
async function fill(c: pg.Client, rows: number, tenantRows: number, adminId: string, log: Log) {
  const defs = (
    await c.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where tablename = 'audit_log' and indexname <> 'audit_log_pkey'`,
    )
  ).rows;
  for (const d of defs) await c.query(`drop index ${d.indexname}`);
  const t0 = performance.now();
  // Row g: tenant 000000 for g ≤ tenantRows, else one of four others; entity, user and action cycle at coprime
  // periods so every combination occurs; times step back from now over a year. User 0 is the admin.
  await c.query(
    `insert into audit_log (id, tenant_id, user_id, action, entity, entity_id, before, after, request_id, create_time)
     select 8000000000000000000 + g,
       case when g <= $2 then '000000' else '10000' || (g % 4 + 1)::text end,
       case when g % ${USERS} = 0 then $3::bigint else 7000000000000000000 + g % ${USERS} end,
       (array['insert','update','delete'])[g % 3 + 1],
       'entity_' || (g % ${ENTITIES}),
       g % 100000,
       case when g % 3 = 1 then '{"name":"before ' || g || '","sort":1}' end,
       case when g % 3 <> 2 then '{"name":"after ' || g || '","sort":2}' end,
       'req-' || g,
       now() - (g::double precision / $1) * interval '365 days'
     from generate_series(1, $1::int) g`,
    [rows, tenantRows, adminId],
  );
  const fillMs = Math.round(performance.now() - t0);
  const t1 = performance.now();
  for (const d of defs) await c.query(d.indexdef);
  await c.query('vacuum analyze audit_log');
  await c.query('checkpoint');
  const indexMs = Math.round(performance.now() - t1);
  log('audit: rows / fill ms / indexes + vacuum ms', `${rows} / ${fillMs} / ${indexMs}`);
  return { fillMs, indexMs };
}

export async function benchAudit(serverDir: string, log: Log = printFigure): Promise<AuditResult> {
  const rows = Number(process.env.BENCH_AUDIT_ROWS ?? 10_000_000);
  const tenantRows = Math.round(rows * Number(process.env.BENCH_AUDIT_TENANT_SHARE ?? 0.8));
  const k = timingKnobs('AUDIT');
  const db = await throwawayDb('audit', 'BENCH_AUDIT_PORT', 'BENCH_AUDIT_KEEP_DB');
  const built = await prebuilt('test/captcha-file-server.ts', serverDir);
  const captchaFile = path.join(db.dir, 'captchas.txt');
  const env = { ...db.env, ATRIUM_E2E_CAPTCHA_FILE: captchaFile };
  let server: ChildProcess | undefined;
  const c = new pg.Client({ connectionString: db.dbUrl });
  try {
    await stop(await db.start('src/main.ts', serverDir));
    await c.connect();
    const adminId = String(
      (await c.query(`select id from "user" where tenant_id = $1 and account = 'admin'`, [TENANT])).rows[0].id,
    );
    const { fillMs, indexMs } = await fill(c, rows, tenantRows, adminId, log);
    server = spawn(process.execPath, built.args, {
      cwd: serverDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitFor(`${db.base}/api/blade-system/tenant/info?domain=x`, 120_000);
    const headers = { authorization: BASIC, 'blade-auth': `bearer ${await captchaLogin(db.base, captchaFile)}` };
    const day = 86_400_000;
    const from = new Date(Date.now() - 180 * day).toISOString();
    const to = new Date(Date.now() - 173 * day).toISOString();
    const cases: Record<string, Record<string, string>> = {
      newest: {},
      byEntity: { entity: 'entity_7' },
      byUser: { userId: '7000000000000000013' },
      byAccount: { account: 'admin' },
      byTimeRange: { createTime_dategt: from, createTime_datelt: to },
      combined: { entity: 'entity_7', userId: '7000000000000000087', createTime_dategt: from, createTime_datelt: to },
      entityAndAccount: { entity: 'entity_0', account: 'admin' },
      deepestPage: { entity: 'entity_7', current: '1000' },
    };
    const out: AuditResult['cases'] = {};
    for (const [key, q] of Object.entries(cases)) {
      const url = `${db.base}${logApi.auditList.path}?${new URLSearchParams({ size: '10', ...q })}`;
      const first = await fetch(url, { headers });
      if (first.status !== 200) throw new Error(`${key}: ${first.status} ${(await first.text()).slice(0, 300)}`);
      const page = ((await first.json()) as { data: { total: number; capped: boolean } }).data;
      const endpoint = stat(
        await timed(
          k.n,
          k.warm,
          async () => {
            const r = await fetch(url, { headers });
            if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
            await r.arrayBuffer();
          },
          k.budgetMs,
        ),
      );
      out[key] = { endpoint, total: page.total, capped: page.capped };
      log(`audit: ${key} (total ${page.total}${page.capped ? ', capped' : ''}) ms`, endpoint);
    }
    if (process.env.BENCH_EXPLAIN === '1')
      await printPlans(
        c,
        [
          {
            text: `select id from audit_log where tenant_id = $1 and entity = $2 and user_id = $3 and create_time >= $4 and create_time <= $5 order by create_time desc, id desc limit 10`,
            values: [TENANT, 'entity_7', '7000000000000000087', from, to],
          },
        ],
        TENANT,
      );
    const aims = { filteredP99Under50: Object.values(out).every((x) => x.endpoint.p99 <= 50) };
    log('audit: aim (p99 of every filtered page ≤ 50 ms)', aims);
    return { rows, tenantRows, fillMs, indexMs, cases: out, aims };
  } finally {
    if (server) await stop(server);
    await sleep(100);
    await c.end().catch(() => {});
    built.remove();
    await db.close();
  }
}

runIfMain(import.meta.url, benchAudit);
