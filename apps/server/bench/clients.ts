// The client page at scale for a region admin (README "Benchmarks", docs/clients.md): 1,000,000 clients over 100
// tenants in a throwaway PostgreSQL database, GET /api/blade-business/clientInfo/page timed one request at a time for
// a district's region admin (data scope 6, "own region and below") beside the same SQL run directly with
// node-postgres and under row-level security in a transaction, then the endpoint and that SQL called in turn
// (`paired`: on a shared machine two runs one after the other meet different loads). Aim (issue 10): p99 ≤ 50 ms,
// endpoint ≤ 2× raw (docs/clients.md "Bench").
// Then, when the sub-domain module is there, 100,000 sub-domains and 10,000 blacklisted words in the login tenant and
// GET /api/blade-business/subDomain/checkSubDomainLegal for a free, a taken and a blocked name (aim: p99 ≤ 20 ms).
// Alone: `cd apps/server && npx tsx bench/clients.ts`, or `BENCH_ONLY=clients npm run bench` at the root (results.clientPage).
// Knobs: BENCH_PG_URL, BENCH_CLIENTS_REQUESTS (200), BENCH_CLIENTS_WARMUP (300), BENCH_CLIENTS_BUDGET_MS (15000),
// BENCH_CLIENTS_STEADY_WARMUP (5000) and BENCH_CLIENTS_STEADY_REQUESTS (1000) for the warmed server's case,
// BENCH_CLIENTS_PORT, BENCH_EXPLAIN=1 (EXPLAIN ANALYZE of the raw queries), BENCH_CLIENTS_KEEP_DB=1.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { hashPassword, md5Hex } from '../src/platform/password.ts';
import {
  asTenant,
  BASIC,
  captchaLogin,
  cpuMs,
  freePort,
  indexesOf,
  keepAliveGet,
  printPlans,
  pct,
  rssOf,
  runIfMain,
  round,
  spawnNode,
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
  waitFor,
} from './lib.ts';

const TENANTS = 100;
const PER_TENANT = 10_000;
const FIRST_TENANT = 100001;
const LOGIN_TENANT = '100050';
export const ACCOUNT = 'region_bench';
export const PASSWORD = 'Bench-region-1';
const ID_BASE = 9_000_000_000_000_000n;
/** A city a tenant serves has at least this many districts (so the region admin's district holds a share, not all). */
const MIN_DISTRICTS = 8;
const SUB_DOMAINS = 100_000;
const BLACK_WORDS = 10_000;

export type ClientPageResult = {
  clients: number;
  tenants: number;
  seedMs: number;
  /** The region admin's district, its name, and how many of the login tenant's clients it holds. */
  district: { code: string; name: string; clients: number; ofTenant: number; cityDistricts: number };
  warmup: number;
  requests: number;
  /** The warmed server's case: pairs before timing, pairs timed. */
  steadyWarmup: number;
  steadyRequests: number;
  cases: Record<string, PageCase>;
  endpoint: 'ok' | string;
  /**
   * The aims, per case: endpoint p99 ≤ 50 ms and endpoint ≤ 2× the raw SQL (p50), from the runs one after the
   * other (`cases`) and from the calls in turn (`paired`).
   */
  aims: Record<
    string,
    {
      p99Under50: boolean;
      within2xRaw: boolean;
      within2xRawPaired?: boolean;
      within2xRawKeepAlive?: boolean;
      /** The aim as a long-running server meets it: keep-alive, in turn, after `steadyWarmup` pairs. */
      within2xRawWarmed?: boolean;
    }
  >;
  /** Per case: the endpoint and the raw SQL called in turn, so both meet the same machine (see `pairedCase`). */
  paired: Record<string, Paired>;
  floor?: Stat;
  /** An authenticated call answered from the cache (keep-alive client): what every endpoint pays before its work. */
  authFloor?: Stat;
  serverRssMb?: number;
  serverPeakRssMb?: number;
  /** Indexes of client_info at the time of the run (the schema under test). */
  clientIndexes: string[];
  subDomain: SubDomainResult | string;
};

export type SubDomainResult = {
  subDomains: number;
  blackWords: number;
  seedMs: number;
  /** Per name: what the check answered, the endpoint's p50/p99, and the lookup it runs (raw SQL, and under RLS). */
  cases: Record<
    string,
    { subDomain: string; legal: boolean; reason: string; endpoint: Stat; rawTaken: Stat; rawTakenRls: Stat }
  >;
  aims: Record<string, { p99Under20: boolean }>;
};

/**
 * The whole seed: a handful of set-based statements. Each tenant is a city's operator (Atrium 城市运营中心): its
 * 10,000 clients lie in the districts (level 3 of the seeded `region` tree) of one city, the central districts
 * holding more (a district's share falls with its rank: index ⌊d·u²⌋ for u spread over [0, 1)).
 */
/** The tenant whose region admin logs in, of `tenants` seeded tenants: the middle one (100050 of 100). */
export const loginTenantOf = (tenants: number) => String(FIRST_TENANT - 1 + Math.ceil(tenants / 2));

/** `tenants` tenants (100) of 10,000 clients each, in one session of `c` (its temp tables; bench/cluster-scale.ts too). */
export async function seed(c: pg.Client, tenants = TENANTS) {
  const q = (sql: string, params: unknown[] = []) => c.query(sql, params);
  await q(`create temp sequence bench_id start ${ID_BASE}`);
  await q(
    `create temp table b_tenant as select g as ord, (${FIRST_TENANT - 1} + g)::text as tid from generate_series(1, ${tenants}) g`,
  );
  await q(`insert into tenant (id, tenant_id, tenant_name, linkman, contact_number, account_number)
    select nextval('bench_id'), tid, '压测租户' || tid, 'admin', '13800000000', -1 from b_tenant`);
  await q(`create temp table b_city as
    select row_number() over (order by parent_code) as k, parent_code as city, array_agg(code order by code) as districts
    from region where level = 3 and is_deleted = 0 group by parent_code having count(*) >= ${MIN_DISTRICTS}`);
  const [{ cities }] = (await q(`select count(*)::int as cities from b_city`)).rows as { cities: number }[];
  if (cities < 1) throw new Error(`no city with ${MIN_DISTRICTS} districts in the seeded region table`);
  // Tenants spread over the cities (37 is prime to any realistic city count: neighbours get distant cities).
  await q(`create temp table b_tc as
    select t.ord, t.tid, ct.districts, cardinality(ct.districts) as nd
    from b_tenant t join b_city ct on ct.k = 1 + (t.ord * 37) % ${cities}`);

  // 10,000 clients a tenant created over the past two years; 90 % approved (with their account), 10 % pending.
  const step = 10;
  for (let from = 1; from <= tenants; from += step) {
    await q(
      `insert into client_info (id, tenant_id, client_name, client_type, credit_code, contact_name, contact_id_card,
        operator_tel, email, region_code, address, lng, lat, app_client_account, source, status, create_time, update_time)
      select nextval('bench_id'), t.tid, '压测客户' || t.tid || '-' || i, 1 + i % 6,
        '91' || d.code || lpad(((i * 7919) % 1000000000)::text, 9, '0') || 'X',
        '联系人' || i, d.code || '1990' || lpad((1 + i % 12)::text, 2, '0') || lpad((1 + i % 28)::text, 2, '0') || lpad((i % 1000)::text, 3, '0') || 'X',
        '13' || lpad(i::text, 9, '0'), 'c' || i || '@' || t.tid || '.bench', d.code, '某路' || i || '号',
        round((100 + (i % 2000) / 100.0)::numeric, 6), round((25 + (i % 1000) / 100.0)::numeric, 6),
        case when i % 10 = 0 then null else '13' || lpad(i::text, 9, '0') end, 1 + (i % 3 = 0)::int,
        case when i % 10 = 0 then 1 else 2 end,
        now() - (${PER_TENANT} - i) * interval '1 hour' * 1.75, now() - (${PER_TENANT} - i) * interval '1 hour'
      from b_tc t cross join generate_series(1, ${PER_TENANT}) i
        cross join lateral (select t.districts[1 + floor(t.nd * power(((i * 7919 + t.ord * 104729) % 10007) / 10007.0, 2))::int] as code) d
      where t.ord between $1 and $2
      order by t.ord, i`,
      [from, from + step - 1],
    );
  }
  // VACUUM as autovacuum soon would (visibility map for index-only counts), ANALYZE for the planner; then a
  // checkpoint, so the seed's dirty pages are written now and not by the checkpointer while the requests are timed.
  await q('vacuum analyze');
  await q('checkpoint');
}

/**
 * What a product role gets when a tenant is provisioned through the API, made by SQL in the login tenant: a
 * department, the region_admin role holding the clientinfo screen (and its buttons; the sub-domain screen too), its data scope 6 "own region
 * and below" on clientinfo, and a user of `district` in that role.
 */
export async function regionAdmin(c: pg.Client, district: string, t = LOGIN_TENANT) {
  const passwordHash = await hashPassword(md5Hex(PASSWORD));
  const id = async () => String((await c.query<{ id: string }>(`select nextval('bench_id') as id`)).rows[0].id);
  const [dept, role, scope, user] = [await id(), await id(), await id(), await id()];
  await c.query(
    `insert into dept (id, tenant_id, parent_id, ancestors, dept_category, dept_name, full_name, sort)
    values ($1, $2, 0, '0', 1, '总部', $3, 1)`,
    [dept, t, `压测租户${t}总部`],
  );
  await c.query(
    `insert into role (id, tenant_id, parent_id, role_name, role_alias, sort) values ($1, $2, 0, '区域管理员', 'region_admin', 3)`,
    [role, t],
  );
  // Menus are platform rows (tenant 000000): the clientinfo and sub-domain screens and their buttons.
  const menus = await c.query(
    `insert into role_menu (role_id, menu_id, tenant_id)
    select $1, m.id, $2 from menu m join menu p on p.code in ('clientinfo', 'subdomain_list') and p.tenant_id = '000000'
      and p.is_deleted = 0
    where m.tenant_id = '000000' and m.is_deleted = 0 and (m.id = p.id or m.parent_id = p.id)`,
    [role, t],
  );
  if (!menus.rowCount) throw new Error('no clientinfo menu in the seeded platform menus');
  await c.query(
    `insert into data_scope (id, tenant_id, menu_id, resource_code, scope_name, scope_type)
    select $1, $2, id, 'clientinfo', '本区域及以下', 6 from menu where code = 'clientinfo' and tenant_id = '000000' and is_deleted = 0`,
    [scope, t],
  );
  await c.query(`insert into role_scope (role_id, scope_id, scope_category, tenant_id) values ($1, $2, 1, $3)`, [
    role,
    scope,
    t,
  ]);
  await c.query(
    `insert into "user" (id, tenant_id, account, password, name, real_name, dept_id, region_code, must_change_password)
    values ($1, $2, $3, $4, $5, '区域管理员', $6, $7, 0)`,
    [user, t, ACCOUNT, passwordHash, ACCOUNT, dept, district],
  );
  await c.query(`insert into user_role (user_id, role_id, tenant_id) values ($1, $2, $3)`, [user, role, t]);
}

/**
 * The count and the page the endpoint needs, written directly: tenant, `is_deleted`, and the region as the endpoint
 * writes it (the index range of `regionPrefix`, docs/server.md "Region prefix": no per-row check, as fast as SQL
 * gets; `like '110101%'` costs ≈ 0.1 ms more per count).
 */
export function rawQueries(tenantId: string, region: string, current: number, size: number) {
  const next = region.slice(0, -1) + String.fromCharCode(region.charCodeAt(region.length - 1) + 1);
  const where = `tenant_id = $1 and is_deleted = 0 and region_code ~>=~ $2 and region_code ~<~ $3`;
  const values = [tenantId, region, next];
  return {
    count: { text: `select count(*) from client_info where ${where}`, values },
    page: {
      text: `select * from client_info where ${where} order by id desc limit ${size} offset $4`,
      values: [...values, (current - 1) * size],
    },
  };
}

type Paired = {
  endpoint: Stat;
  raw: Stat;
  ratio: number;
  /** The ratio (p50 ÷ p50) of each `window` pairs of the warm-up, in order: how the server's code warms. */
  warmup?: number[];
  /** The server's CPU time per call over the timed pairs (Linux). */
  serverCpuMsPerCall?: number;
  /**
   * The yardstick (bench/bare-list.ts: the same database work behind a bare Fastify route), called in turn with the
   * two: its p50 and the endpoint's and its own ratio to it and to the raw SQL.
   */
  bare?: { stat: Stat; endpointToBare: number; bareToRaw: number };
};

/**
 * The endpoint and the raw SQL (count, then page) called in turn — endpoint, raw, endpoint, raw… — after `warm` pairs:
 * on a machine shared with other work the load drifts between two runs made one after the other, and both sides of
 * the ratio then meet different machines. The raw side is the same SQL and connection as `timePageCase`'s raw.
 * `curve`: the warm-up's ratio per `window` pairs and the server's CPU per timed call are reported too.
 */
async function pairedCase(
  c: pg.Client,
  url: string,
  headers: Record<string, string>,
  rq: ReturnType<typeof rawQueries>,
  o: {
    n: number;
    warm: number;
    budgetMs: number;
    client?: 'fetch' | 'keep-alive';
    curve?: { window: number; serverPid: number | undefined };
    /** The yardstick's URL (keep-alive client), called after the endpoint and before the raw SQL. */
    bareUrl?: string;
  },
): Promise<Paired> {
  const endpoint: number[] = [];
  const raw: number[] = [];
  const bare: number[] = [];
  const warmup: number[] = [];
  const warmE: number[] = [];
  const warmR: number[] = [];
  let cpuAtStart: number | undefined;
  const until = performance.now() + o.budgetMs;
  for (let i = 0; i < o.warm + o.n && (i < o.warm + 10 || performance.now() < until); i++) {
    if (i === o.warm) cpuAtStart = cpuMs(o.curve?.serverPid);
    let t0 = performance.now();
    if (o.client === 'keep-alive') {
      const status = await keepAliveGet(url, headers);
      if (status !== 200) throw new Error(`${url} answered ${status}`);
    } else {
      const res = await fetch(url, { headers });
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      await res.arrayBuffer();
    }
    const e = performance.now() - t0;
    if (o.bareUrl) {
      t0 = performance.now();
      const status = await keepAliveGet(o.bareUrl);
      if (status !== 200) throw new Error(`${o.bareUrl} answered ${status}`);
      if (i >= o.warm) bare.push(performance.now() - t0);
    }
    t0 = performance.now();
    await c.query(rq.count);
    await c.query(rq.page);
    const r = performance.now() - t0;
    if (i >= o.warm) {
      endpoint.push(e);
      raw.push(r);
    } else if (o.curve) {
      warmE.push(e);
      warmR.push(r);
      if (warmE.length === o.curve.window) {
        warmup.push(round(pct(warmE, 50) / pct(warmR, 50)));
        warmE.length = warmR.length = 0;
      }
    }
  }
  const [e, r] = [stat(endpoint), stat(raw)];
  const cpuAtEnd = cpuMs(o.curve?.serverPid);
  return {
    endpoint: e,
    raw: r,
    ratio: round(e.p50 / r.p50),
    ...(o.curve ? { warmup } : {}),
    ...(cpuAtStart !== undefined && cpuAtEnd !== undefined && endpoint.length
      ? { serverCpuMsPerCall: Math.round(((cpuAtEnd - cpuAtStart) / endpoint.length) * 1000) / 1000 }
      : {}),
    ...(bare.length
      ? {
          bare: {
            stat: stat(bare),
            endpointToBare: round(e.p50 / pct(bare, 50)),
            bareToRaw: round(pct(bare, 50) / r.p50),
          },
        }
      : {}),
  };
}

/**
 * 100,000 sub-domains of the login tenant's approved clients (labels sd1…sd100000; statuses applied, approved,
 * running, stopped; each with its full domain in the host table, as an application writes it) and 10,000
 * blacklisted words (type 3: blk1…blk10000).
 */
async function seedSubDomains(c: pg.Client) {
  const t = LOGIN_TENANT;
  const [{ base }] = (
    await c.query<{ base: string }>(
      `select coalesce(nullif(trim(t.domain), ''), (select param_value from param where param_key = 'subdomain.base'
        and is_deleted = 0 limit 1)) as base from tenant t where t.tenant_id = $1 and t.is_deleted = 0`,
      [t],
    )
  ).rows;
  await c.query(
    `create temp table b_client as select row_number() over (order by id) - 1 as k, id, app_client_account, region_code
    from client_info where tenant_id = $1 and status = 2 and is_deleted = 0`,
    [t],
  );
  await c.query(
    `insert into sub_domain (id, tenant_id, client_id, app_client_account, sub_domain, full_domain, region_code,
      start_time, status, create_time, update_time)
    select nextval('bench_id'), $1, b.id, b.app_client_account, 'sd' || i, 'sd' || i || '.' || $2, b.region_code,
      case when i % 20 < 18 then now() - i * interval '5 minutes' end, (array[0, 1, 2, 2, 2, 2, 2, 2, 2, 3])[1 + i % 10],
      now() - i * interval '5 minutes', now() - i * interval '5 minutes'
    from generate_series(1, ${SUB_DOMAINS}) i join b_client b on b.k = i % (select count(*) from b_client)`,
    [t, base],
  );
  await c.query(
    `insert into sub_domain_host (full_domain, tenant_id, sub_domain_id, running)
    select full_domain, tenant_id, id, (status = 2)::int from sub_domain where tenant_id = $1`,
    [t],
  );
  await c.query(
    `insert into black_info (id, tenant_id, type, value, reason)
    select nextval('bench_id'), $1, 3, 'blk' || i, '压测' from generate_series(1, ${BLACK_WORDS}) i`,
    [t],
  );
  // A blacklist written by hand moves its tenant's cache epoch like the module's writes (platform/live.ts): the
  // server may have read the tenant's (empty) list already, at the login.
  await c.query(
    `insert into cache_epoch (scope, epoch) values ($1, 1) on conflict (scope) do update set epoch = cache_epoch.epoch + 1`,
    [t],
  );
  // As after the clients' seed: the seed's dirty pages are written now, not by the checkpointer while the checks are
  // timed.
  await c.query('vacuum analyze sub_domain, sub_domain_host, black_info');
  await c.query('checkpoint');
  return base;
}

/** checkSubDomainLegal for a free, a taken and a blocked name, timed like the pages. */
async function benchSubDomains(
  c: pg.Client,
  base: string,
  headers: Record<string, string>,
  o: { n: number; warm: number; budgetMs: number; log: (label: string, v: unknown) => void },
): Promise<SubDomainResult | string> {
  const exists = (await c.query<{ t: string | null }>(`select to_regclass('sub_domain')::text as t`)).rows[0].t;
  const url = (label: string) => `${base}/api/blade-business/subDomain/checkSubDomainLegal?subDomain=${label}`;
  if (!exists) return 'skipped: no sub_domain table';
  const t0 = performance.now();
  const hostBase = await seedSubDomains(c);
  const seedMs = Math.round(performance.now() - t0);
  const probe = await fetch(url('probe-name'), { headers });
  if (probe.status === 404) return 'skipped: no checkSubDomainLegal route (404)';
  o.log('sub-domains: seeded / blacklist words / ms', `${SUB_DOMAINS} / ${BLACK_WORDS} / ${seedMs}`);
  const names: [string, string][] = [
    ['free', 'atrium-free-shop'],
    ['taken', `sd${SUB_DOMAINS / 2}`],
    ['blocked', 'shop-blk7777-x'],
  ];
  const cases: SubDomainResult['cases'] = {};
  const aims: SubDomainResult['aims'] = {};
  for (const [key, label] of names) {
    const r = await fetch(url(label), { headers });
    const body = (await r.json()) as { data?: { legal?: boolean; reason?: string } };
    if (r.status !== 200) return `checkSubDomainLegal answered ${r.status}: ${JSON.stringify(body).slice(0, 200)}`;
    const endpoint = stat(
      await timed(
        o.n,
        o.warm,
        async () => {
          const res = await fetch(url(label), { headers });
          if (res.status !== 200) throw new Error(`${url(label)} answered ${res.status}`);
          await res.arrayBuffer();
        },
        o.budgetMs,
      ),
    );
    // The lookup the check runs once the name's shape and the words pass (what is left is cached or one row).
    const taken = {
      text: `select exists (select 1 from sub_domain where tenant_id = $1 and sub_domain = $2 and is_deleted = 0
        and status <> 4) or exists (select 1 from sub_domain_host where full_domain = $3) as taken`,
      values: [LOGIN_TENANT, label, `${label}.${hostBase}`],
    };
    if (process.env.BENCH_EXPLAIN === '1' && key === 'free') await printPlans(c, [taken], LOGIN_TENANT);
    const rawTaken = stat(
      await timed(
        o.n,
        o.warm,
        async () => {
          await c.query(taken);
        },
        o.budgetMs,
      ),
    );
    const rawTakenRls = stat(
      await timed(o.n, o.warm, () => asTenant(c, LOGIN_TENANT, () => c.query(taken)), o.budgetMs),
    );
    cases[key] = {
      subDomain: label,
      legal: !!body.data?.legal,
      reason: String(body.data?.reason ?? ''),
      endpoint,
      rawTaken,
      rawTakenRls,
    };
    aims[key] = { p99Under20: endpoint.p99 <= 20 };
    o.log(`checkSubDomainLegal ${key} (${label}) ms`, { legal: cases[key].legal, endpoint, rawTaken, rawTakenRls });
  }
  o.log('sub-domains: aims (p99 ≤ 20 ms)', aims);
  return { subDomains: SUB_DOMAINS, blackWords: BLACK_WORDS, seedMs, cases, aims };
}

export async function benchClients(serverDir: string, log: Log = printFigure): Promise<ClientPageResult> {
  // 300 calls of each side before timing (raw warms as many times): a server soon after its start. Its code keeps
  // getting faster over the first few thousand calls (its CPU per call ≈ 2.6 ms in the first 500, ≈ 1.3 ms after
  // 4,000: bench-results/2026-11-24..27-clients-page.md "2026-11-27, later: a warm server"), so each page is timed on a warmed server too (`steady`).
  const { n, warm, budgetMs } = timingKnobs('CLIENTS', { warm: 300 });
  const steady = {
    warm: Number(process.env.BENCH_CLIENTS_STEADY_WARMUP ?? 5000),
    n: Number(process.env.BENCH_CLIENTS_STEADY_REQUESTS ?? 1000),
    budgetMs: 300_000,
  };
  const db = await throwawayDb('clients', 'BENCH_CLIENTS_PORT', 'BENCH_CLIENTS_KEEP_DB');
  const { base } = db;
  let server: ChildProcess | undefined;
  let bareServer: ChildProcess | undefined;
  let c: pg.Client | undefined;
  try {
    // 1. Migrate + seed the platform data (menus, regions) with the real start-up.
    await stop(await db.start('src/main.ts', serverDir));

    // 2. 1,000,000 clients, then the region admin of the login tenant's busiest district.
    c = new pg.Client({ connectionString: db.dbUrl });
    await c.connect();
    const t0 = performance.now();
    await seed(c);
    const seedMs = Math.round(performance.now() - t0);
    const [{ clients }] = (await c.query<{ clients: string }>('select count(*) as clients from client_info')).rows;
    log('client page: seeded clients / seed time (ms)', `${clients} / ${seedMs}`);
    const [top] = (
      await c.query<{ code: string; name: string; clients: number; city_districts: number }>(
        `select x.region_code as code, r.name, x.n::int as clients,
          (select count(*)::int from region s where s.parent_code = r.parent_code and s.is_deleted = 0) as city_districts
        from (select region_code, count(*) as n from client_info where tenant_id = $1 group by region_code
          order by n desc, region_code limit 1) x join region r on r.code = x.region_code and r.is_deleted = 0`,
        [LOGIN_TENANT],
      )
    ).rows;
    const district = {
      code: top.code,
      name: top.name,
      clients: top.clients,
      ofTenant: PER_TENANT,
      cityDistricts: top.city_districts,
    };
    log(
      'client page: region admin district',
      `${district.code} ${district.name}: ${district.clients} of the tenant's ${PER_TENANT} clients (${district.cityDistricts} districts in its city)`,
    );
    await regionAdmin(c, district.code);
    const clientIndexes = await indexesOf(c, 'client_info');
    log('client page: indexes of client_info', clientIndexes.join('; '));
    const pages = [1, 100];
    if (process.env.BENCH_EXPLAIN === '1') {
      for (const current of pages) {
        const rq = rawQueries(LOGIN_TENANT, district.code, current, 10);
        await printPlans(c, [rq.count, rq.page], LOGIN_TENANT);
      }
    }

    // 3. The server on that database; the region admin logs in with a captcha.
    const captchaFile = path.join(db.dir, 'captchas.txt');
    server = await db.start('test/captcha-file-server.ts', serverDir, { ATRIUM_E2E_CAPTCHA_FILE: captchaFile });
    const token = await captchaLogin(base, captchaFile, ACCOUNT, PASSWORD, LOGIN_TENANT);
    const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
    // The yardstick (bench/bare-list.ts): the page's database work behind a bare Fastify route, on the same session.
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string; sid: string };
    const barePort = await freePort();
    let bareBase: string | undefined = `http://127.0.0.1:${barePort}/bare-list`;
    try {
      bareServer = spawnNode(
        ['bench/bare-list.ts'],
        {
          PORT: String(barePort),
          DATABASE_URL: db.dbUrl,
          BARE_TENANT: LOGIN_TENANT,
          BARE_REGION: district.code,
          BARE_SID: claims.sid,
          BARE_USER: claims.sub,
        },
        serverDir,
      );
      await waitFor(bareBase, 30_000);
    } catch (e) {
      log('client page: yardstick (bench/bare-list.ts)', `did not start: ${(e as Error).message}`);
      if (bareServer) await stop(bareServer);
      bareServer = undefined;
      bareBase = undefined;
    }

    // 4. The floor (HTTP + framework), then each page: endpoint, raw SQL, raw SQL under RLS (timePageCase).
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
    log('floor: GET tenant/info (public, no auth) ms', floor);
    // The floor of an authenticated call: token, live-state query, permission check, an answer from the cache.
    const authFloor = stat(
      await timed(
        n,
        warm,
        async () => {
          if ((await keepAliveGet(`${base}/api/blade-system/menu/routes`, headers)) !== 200)
            throw new Error('menu/routes did not answer 200');
        },
        budgetMs,
      ),
    );
    log('floor: GET menu/routes (auth, cached; keep-alive client) ms', authFloor);
    const cases: Record<string, PageCase> = {};
    const aims: ClientPageResult['aims'] = {};
    const paired: ClientPageResult['paired'] = {};
    let endpointState = 'ok';
    for (const current of pages) {
      const query = { current: String(current), size: '10' };
      const rq = rawQueries(LOGIN_TENANT, district.code, current, 10);
      const done = await timePageCase({
        c,
        url: `${base}/api/blade-business/clientInfo/page?${new URLSearchParams(query)}`,
        headers,
        label: `page ${current}, size 10, region admin`,
        query,
        count: rq.count,
        page: rq.page,
        tenantId: LOGIN_TENANT,
        n,
        warm,
        budgetMs,
        endpointState,
        name: 'client page',
        log,
      });
      cases[`page${current}`] = done.result;
      endpointState = done.endpointState;
      const e = done.result.endpoint;
      if (!e) continue;
      const pair = await pairedCase(
        c,
        `${base}/api/blade-business/clientInfo/page?${new URLSearchParams(query)}`,
        headers,
        rq,
        {
          n,
          warm,
          budgetMs,
        },
      );
      paired[`page${current}`] = pair;
      log(`  endpoint and raw in turn (page ${current}) ms`, pair);
      // The same with a keep-alive node:http client (what a native HTTP stack sees, without undici's own cost).
      const lean = await pairedCase(
        c,
        `${base}/api/blade-business/clientInfo/page?${new URLSearchParams(query)}`,
        headers,
        rq,
        { n, warm, budgetMs, client: 'keep-alive' },
      );
      paired[`page${current}KeepAlive`] = lean;
      log(`  endpoint (keep-alive client) and raw in turn (page ${current}) ms`, lean);
      // The same once the server's code is warm: V8 optimises a request's code over its first thousands of calls
      // (bench-results/2026-11-24..27-clients-page.md "2026-11-27, later: a warm server"), so a server measured after a few hundred calls is still
      // warming. The warm-up's ratio per 1,000 pairs shows the curve.
      const warmed = await pairedCase(
        c,
        `${base}/api/blade-business/clientInfo/page?${new URLSearchParams(query)}`,
        headers,
        rq,
        {
          n: steady.n,
          warm: steady.warm,
          budgetMs: steady.budgetMs,
          client: 'keep-alive',
          curve: { window: 1000, serverPid: server.pid },
          bareUrl: bareBase && `${bareBase}?${new URLSearchParams(query)}`,
        },
      );
      paired[`page${current}Warmed`] = warmed;
      log(
        `  warmed server: endpoint (keep-alive) and raw in turn after ${steady.warm} pairs (page ${current}) ms`,
        warmed,
      );
      aims[`page${current}`] = {
        p99Under50: e.p99 <= 50,
        within2xRaw: e.p50 <= 2 * done.result.raw.p50,
        within2xRawPaired: pair.endpoint.p50 <= 2 * pair.raw.p50,
        within2xRawKeepAlive: lean.endpoint.p50 <= 2 * lean.raw.p50,
        within2xRawWarmed: warmed.endpoint.p50 <= 2 * warmed.raw.p50,
      };
    }
    if (Object.keys(aims).length) log('client page: aims (p99 ≤ 50 ms, ≤ 2× raw; in turn)', aims);

    // 5. Sub-domains: the legality check over 100,000 names and 10,000 words, when the module is there.
    const subDomain = await benchSubDomains(c, base, headers, { n, warm, budgetMs, log });
    if (typeof subDomain === 'string') log('sub-domains', subDomain);

    // 6. The server's memory after the run.
    const mem = rssOf(server.pid);
    if (mem.rss !== undefined) log('client page: server RSS / peak RSS (MB)', `${mem.rss} / ${mem.hwm}`);
    return {
      clients: Number(clients),
      tenants: TENANTS,
      seedMs,
      district,
      warmup: warm,
      requests: n,
      steadyWarmup: steady.warm,
      steadyRequests: steady.n,
      cases,
      endpoint: endpointState,
      aims,
      paired,
      floor,
      serverRssMb: mem.rss,
      serverPeakRssMb: mem.hwm,
      clientIndexes,
      subDomain,
    };
  } finally {
    if (bareServer) await stop(bareServer);
    if (server) await stop(server);
    await c?.end().catch(() => {});
    await db.close();
  }
}

runIfMain(import.meta.url, benchClients);
