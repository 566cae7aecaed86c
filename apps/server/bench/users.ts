// The user page at scale (docs/server.md "Benchmarks"): 1,000,000 users over 100 tenants in a throwaway PostgreSQL database,
// GET /api/blade-user/page timed one request at a time beside the same SQL run directly with node-postgres.
// Alone: `npx tsx bench/users.ts` in apps/server (prints the figures); inside `npm run bench` as results.userPage
// (BENCH_USERS=0 skips it). BENCH_PG_URL names the maintenance connection (default postgres://postgres@127.0.0.1:5432/postgres);
// BENCH_EXPLAIN=1 prints EXPLAIN ANALYZE of the raw queries; BENCH_USERS_KEEP_DB=1 keeps the database for a look afterwards.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { hashPassword, md5Hex } from '../src/platform/password.ts';
import {
  BASIC,
  captchaLogin,
  indexesOf,
  printPlans,
  rssOf,
  runIfMain,
  stat,
  stop,
  throwawayDb,
  timePageCase,
  timed,
  type PageCase,
  type Stat,
  printFigure,
  type Log,
  timingKnobs,
} from './lib.ts';

const TENANTS = 100;
const PER_TENANT = 10_000;
const DEPTS = 20;
const FIRST_TENANT = 100001;
const LOGIN_TENANT = '100050';
const ADMIN_PASSWORD = 'Bench-admin-1';
const ID_BASE = 9_000_000_000_000_000n;

export type { Stat };
export type Case = PageCase;
export type UserPageResult = {
  users: number;
  tenants: number;
  seedMs: number;
  warmup: number;
  requests: number;
  cases: Record<string, Case>;
  endpoint: 'ok' | string;
  serverRssMb?: number;
  serverPeakRssMb?: number;
  /** The same server's cheapest call with one query (public tenant info by domain): the HTTP + framework floor every endpoint pays. */
  floor?: Stat;
  /** Indexes of table "user" at the time of the run (the schema under test). */
  userIndexes: string[];
};

/** The whole seed: a handful of set-based statements, no per-row round trips. */
async function seed(c: pg.Client, passwordHash: string) {
  const q = (sql: string, params: unknown[] = []) => c.query(sql, params);
  await q(`create temp sequence bench_id start ${ID_BASE}`);
  await q(
    `create temp table b_tenant as select g as ord, (${FIRST_TENANT - 1} + g)::text as tid from generate_series(1, ${TENANTS}) g`,
  );
  await q(`insert into tenant (id, tenant_id, tenant_name, linkman, contact_number, account_number)
    select nextval('bench_id'), tid, '压测租户' || tid, 'admin', '13800000000', -1 from b_tenant`);

  await q(`create temp table b_root as select tid, nextval('bench_id') as id from b_tenant`);
  await q(`insert into dept (id, tenant_id, parent_id, ancestors, dept_category, dept_name, full_name, sort)
    select id, tid, 0, '0', 1, '总部', '压测租户' || tid || '总部', 1 from b_root`);
  await q(`create temp table b_dept as select r.tid, r.id as root, k, nextval('bench_id') as id
    from b_root r cross join generate_series(1, ${DEPTS}) k`);
  await q(`insert into dept (id, tenant_id, parent_id, ancestors, dept_category, dept_name, full_name, sort)
    select id, tid, root, '0,' || root, 2, '部门' || k, '压测租户' || tid || '部门' || k, k from b_dept`);
  await q(`create temp table b_depts as select tid, array_agg(id order by k) as ids from b_dept group by tid`);

  await q(
    `create temp table b_post as select t.tid, k, nextval('bench_id') as id from b_tenant t cross join generate_series(1, 3) k`,
  );
  await q(`insert into post (id, tenant_id, category, post_code, post_name, sort)
    select id, tid, k, (array['ceo','manager','staff'])[k], (array['首席执行官','经理','职员'])[k], k from b_post`);
  await q(`create temp table b_posts as select tid, array_agg(id order by k) as ids from b_post group by tid`);

  await q(
    `create temp table b_role as select t.tid, k, nextval('bench_id') as id from b_tenant t cross join generate_series(1, 2) k`,
  );
  await q(`insert into role (id, tenant_id, parent_id, role_name, role_alias, sort)
    select id, tid, 0, (array['超级管理员','职员'])[k], (array['administrator','staff'])[k], k from b_role`);
  // Menus are platform rows (tenant 000000) that tenants read; the administrator role holds all of them.
  await q(`insert into role_menu (role_id, menu_id, tenant_id)
    select r.id, m.id, r.tid from b_role r cross join menu m where r.k = 1 and m.tenant_id = '000000' and m.is_deleted = 0`);

  await q(`create temp table b_admin as select r.tid, r.id as root, nextval('bench_id') as id from b_root r`);
  await q(
    `insert into "user" (id, tenant_id, account, password, name, real_name, email, dept_id, must_change_password)
    select id, tid, 'admin', $1, 'admin', '管理员', 'admin@' || tid || '.bench', root, 0 from b_admin`,
    [passwordHash],
  );
  await q(`insert into user_role (user_id, role_id, tenant_id)
    select a.id, r.id, a.tid from b_admin a join b_role r on r.tid = a.tid and r.k = 1`);

  // 10,000 users a tenant, over the departments and posts, created over the past two years; all in the staff role.
  const step = 10;
  for (let from = 1; from <= TENANTS; from += step) {
    await q(
      `insert into "user" (id, tenant_id, code, account, password, name, real_name, email, phone, birthday, sex,
        dept_id, post_id, must_change_password, create_user, create_dept, create_time, update_user, update_time)
      select nextval('bench_id'), t.tid, lpad(i::text, 6, '0'), 'u' || i, $1, 'user' || i, '用户' || i, 'u' || i || '@' || t.tid || '.bench',
        '1' || (30 + i % 60)::text || lpad(((i * 7919) % 100000000)::text, 8, '0'), date '1970-01-01' + i % 15000, 1 + i % 2,
        d.ids[1 + i % ${DEPTS}], p.ids[1 + i % 3], 0, a.id, a.root, now() - (${PER_TENANT} - i) * interval '1 hour' * 1.75, a.id, now() - (${PER_TENANT} - i) * interval '1 hour'
      from b_tenant t join b_depts d on d.tid = t.tid join b_posts p on p.tid = t.tid join b_admin a on a.tid = t.tid
        cross join generate_series(1, ${PER_TENANT}) i
      where t.ord between $2 and $3
      order by t.ord, i`,
      [passwordHash, from, from + step - 1],
    );
  }
  await q(`insert into user_role (user_id, role_id, tenant_id)
    select u.id, r.id, u.tenant_id from "user" u join b_role r on r.tid = u.tenant_id and r.k = 2 where u.account <> 'admin'`);
  // VACUUM as autovacuum soon would (visibility map for index-only counts), ANALYZE for the planner.
  await q('vacuum analyze');
}

/** The count + page the endpoint needs, as one would write it by hand. */
function rawQueries(tenantId: string, current: number, size: number, realName?: string) {
  const params: unknown[] = [tenantId];
  let where = 'tenant_id = $1 and is_deleted = 0';
  if (realName) {
    params.push(`%${realName}%`);
    where += ` and real_name ilike $${params.length}`;
  }
  return {
    count: { text: `select count(*) from "user" where ${where}`, values: params },
    page: {
      text: `select * from "user" where ${where} order by id desc limit ${size} offset $${params.length + 1}`,
      values: [...params, (current - 1) * size],
    },
  };
}

export async function benchUsers(serverDir: string, log: Log = printFigure): Promise<UserPageResult> {
  const { n, warm, budgetMs } = timingKnobs('USERS');
  const db = await throwawayDb('users', 'BENCH_USERS_PORT', 'BENCH_USERS_KEEP_DB');
  const { base } = db;
  let server: ChildProcess | undefined;
  let c: pg.Client | undefined;
  try {
    // 1. Migrate + seed the platform data with the real start-up.
    await stop(await db.start('src/main.ts', serverDir));

    // 2. 1,000,000 users.
    c = new pg.Client({ connectionString: db.dbUrl });
    await c.connect();
    const passwordHash = await hashPassword(md5Hex(ADMIN_PASSWORD));
    const t0 = performance.now();
    await seed(c, passwordHash);
    const seedMs = Math.round(performance.now() - t0);
    const [{ users }] = (await c.query<{ users: string }>('select count(*) as users from "user"')).rows;
    log('user page: seeded users / seed time (ms)', `${users} / ${seedMs}`);
    const userIndexes = await indexesOf(c, 'user');
    log('user page: indexes of "user"', userIndexes.join('; '));
    if (process.env.BENCH_EXPLAIN === '1') {
      for (const realName of [undefined, '用户12']) {
        for (const current of [1, 1000]) {
          const rq = rawQueries(LOGIN_TENANT, current, 10, realName);
          await printPlans(c, [rq.count, rq.page], LOGIN_TENANT);
        }
      }
    }

    // 3. The server on that database; tenant 100050's administrator logs in with a captcha.
    const captchaFile = path.join(db.dir, 'captchas.txt');
    server = await db.start('test/captcha-file-server.ts', serverDir, { ATRIUM_E2E_CAPTCHA_FILE: captchaFile });
    const token = await captchaLogin(base, captchaFile, 'admin', ADMIN_PASSWORD, LOGIN_TENANT);
    const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };

    // 4 + 5. Each case: the endpoint, then the same SQL directly and under RLS in a transaction (timePageCase).
    const defs: [string, string, Record<string, string>][] = [
      ['page1', 'page 1, size 10', { current: '1', size: '10' }],
      ['page1RealName', 'page 1, size 10, realName=用户12', { current: '1', size: '10', realName: '用户12' }],
      ['page1000', 'page 1000, size 10', { current: '1000', size: '10' }],
    ];
    const floor = stat(
      await timed(
        n,
        warm,
        async () => {
          await (await fetch(`${base}/api/blade-system/tenant/info?domain=bench.invalid`)).arrayBuffer();
        },
        budgetMs,
      ),
    );
    log('floor: GET tenant/info (one query, no auth) ms', floor);
    const cases: Record<string, Case> = {};
    let endpointState = 'ok';
    for (const [key, label, query] of defs) {
      const rq = rawQueries(LOGIN_TENANT, Number(query.current), Number(query.size), query.realName);
      const done = await timePageCase({
        c,
        url: `${base}/api/blade-user/page?${new URLSearchParams(query)}`,
        headers,
        label,
        query,
        count: rq.count,
        page: rq.page,
        tenantId: LOGIN_TENANT,
        n,
        warm,
        budgetMs,
        endpointState,
        name: 'user page',
        log,
      });
      cases[key] = done.result;
      endpointState = done.endpointState;
    }

    // 6. The server's memory after the run.
    const mem = rssOf(server.pid);
    if (mem.rss !== undefined) log('user page: server RSS / peak RSS (MB)', `${mem.rss} / ${mem.hwm}`);
    return {
      users: Number(users),
      tenants: TENANTS,
      seedMs,
      warmup: warm,
      requests: n,
      cases,
      endpoint: endpointState,
      userIndexes,
      floor,
      serverRssMb: mem.rss,
      serverPeakRssMb: mem.hwm,
    };
  } finally {
    if (server) await stop(server);
    await c?.end().catch(() => {});
    await db.close();
  }
}

runIfMain(import.meta.url, benchUsers);
