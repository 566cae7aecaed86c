// Devices and statistics at scale (README "Benchmarks", docs/devices.md "Statistics"): 1,000,000 camera_device rows
// (970,000 cameras and 30,000 NVRs) and 300,000 NVR channels over every district of the seeded region table, in one
// tenant of a throwaway PostgreSQL database, loaded WITH the statistics triggers on (the load time includes keeping
// the counters; the counters are then checked against a direct aggregate). Thirty days of rollups are written from the
// counters (per district, city, province and tenant, as the daily job writes them). Then, one request at a time, beside the SQL each call runs (directly, and under RLS in a transaction):
// - GET cameraDevice/pageList for a province's region admin (data scope 6) at page 1 and page 1000 (aim p99 ≤ 50 ms), in
//   the definition's default order (create_time desc, id);
// - each statistics call for the tenant administrator (the whole country) and the region admin (aim p99 ≤ 100 ms),
//   and, for scale, the scan the counters replace.
// Alone: `cd apps/server && npx tsx bench/devices.ts`, or `BENCH_ONLY=devices npm run bench` at the root
// (results.devices). Knobs: BENCH_PG_URL, BENCH_DEVICES_REQUESTS (200), BENCH_DEVICES_WARMUP (20),
// BENCH_DEVICES_BUDGET_MS (15000), BENCH_DEVICES_PORT, BENCH_DEVICES_KEEP_DB=1, BENCH_DEVICES_CAMERAS (970000),
// BENCH_DEVICES_NVRS (30000), BENCH_EXPLAIN=1.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { hashPassword, md5Hex } from '../src/platform/password.ts';
import {
  asTenant,
  BASIC,
  captchaLogin,
  printFigure,
  printPlans,
  rssOf,
  runIfMain,
  stat,
  stop,
  throwawayDb,
  timePageCase,
  timed,
  timingKnobs,
  type Log,
  type PageCase,
  type SqlQuery,
  type Stat,
} from './lib.ts';

const TENANT = '200001';
const ID_BASE = 8_000_000_000_000_000n;
const CHANNELS_PER_NVR = 10;
const PASSWORD = 'Bench-devices-1';
const CITY = 'city_bench';
const REGION = 'region_bench';

type CallCase = { url: string; endpoint?: Stat; raw: Stat; rawRls: Stat; error?: string };
export type DevicesResult = {
  cameras: number;
  nvrs: number;
  channels: number;
  districts: number;
  loadMs: { devices: number; channels: number; rollups: number; vacuum: number };
  countersExact: boolean;
  province: { code: string; name: string; devices: number };
  pageList: Record<string, PageCase> | string;
  statistics: Record<string, CallCase>;
  /** The direct aggregate the counters replace (the tenant's devices per province), for scale. */
  scan: Stat;
  /** What a list's total cost by counting the province's rows (before the counters), for scale. */
  provinceCount: Stat;
  aims: Record<string, boolean>;
  serverRssMb?: number;
};

/** 1,000,000 devices and 300,000 channels, in statements of 100,000 rows each (each one upsert per key). */
async function seed(c: pg.Client, cameras: number, nvrs: number, log: Log) {
  const q = (text: string, values: unknown[] = []) => c.query(text, values);
  await q(`create sequence if not exists bench_id start ${ID_BASE}`);
  await q(
    `insert into tenant (id, tenant_id, tenant_name, linkman, contact_number, account_number)
    values (nextval('bench_id'), $1, '设备压测租户', 'admin', '13800000000', -1)`,
    [TENANT],
  );
  await q(`create temp table b_district as
    select row_number() over (order by code) - 1 as k, code from region where level = 3 and is_deleted = 0`);
  const nd = Number((await q(`select count(*) as n from b_district`)).rows[0].n);
  const total = cameras + nvrs;
  const t0 = performance.now();
  const chunk = 100_000;
  for (let from = 0; from < total; from += chunk) {
    const to = Math.min(total, from + chunk) - 1;
    // Device i: district i mod nd; the last `nvrs` are NVRs; 70 % online, 2 % disabled, the rest offline. An online
    // device was last seen now (the server runs with a long heartbeat, so its offline sweep leaves them be: the data
    // measured stays the data loaded, and the visibility map VACUUM sets stays set).
    await q(
      `insert into camera_device (id, tenant_id, device_code, name, device_type, region_code, protocol, status,
        last_seen, create_time, update_time)
      select nextval('bench_id'), $1,
        d.code || '00' || '00' || t.type || '0' || lpad((i / $2)::text, 6, '0'),
        '压测设备' || i, t.type, d.code, 'RTSP',
        case when i % 50 = 0 then 2 when i % 10 < 7 then 1 else 0 end,
        case when i % 50 <> 0 and i % 10 < 7 then now() end,
        now() - (${total} - i) * interval '30 seconds', now()
      from generate_series($3::int, $4::int) i
        join b_district d on d.k = i % $2
        cross join lateral (select case when i >= ${cameras} then '118' when i % 3 = 0 then '132' else '131' end as type) t`,
      [TENANT, nd, from, to],
    );
  }
  const devicesMs = Math.round(performance.now() - t0);
  log('devices: loaded (rows / ms, triggers on)', `${total} / ${devicesMs}`);
  const t1 = performance.now();
  await q(
    `create temp table b_nvr as select row_number() over (order by id) - 1 as k, id, region_code
    from camera_device where tenant_id = $1 and device_type = '118'`,
    [TENANT],
  );
  const nvrCount = Number((await q(`select count(*) as n from b_nvr`)).rows[0].n);
  for (let from = 0; from < nvrCount; from += 10_000) {
    await q(
      `insert into nvr_channel (id, tenant_id, nvr_device_id, channel_no, channel_code, name, region_code, status)
      select nextval('bench_id'), $1, n.id, ch, null, '通道' || ch, n.region_code, (ch % 4 <> 0)::int
      from b_nvr n cross join generate_series(1, ${CHANNELS_PER_NVR}) ch
      where n.k between $2 and $3`,
      [TENANT, from, from + 9_999],
    );
  }
  const channelsMs = Math.round(performance.now() - t1);
  log('channels: loaded (rows / ms, triggers on)', `${nvrCount * CHANNELS_PER_NVR} / ${channelsMs}`);
  // Thirty past days: the counters with the online count drifting by day (what the daily job would have written).
  const t2 = performance.now();
  await q(
    `insert into stat_device_daily (tenant_id, day, district, device_type, total, online)
    select c.tenant_id, (current_date - g)::date, left(c.district, l.len), c.device_type, sum(c.total),
      sum(greatest(0, c.online - (g * 7 + ascii(right(c.district, 1))) % 5))
    from stat_device_counter c cross join generate_series(1, 30) g cross join (values (0), (2), (4), (6)) l(len)
    where c.tenant_id = $1 and length(c.district) = 6 group by 1, 2, 3, 4`,
    [TENANT],
  );
  const rollupsMs = Math.round(performance.now() - t2);
  const t3 = performance.now();
  await q('vacuum analyze camera_device, nvr_channel, stat_device_counter, stat_channel_counter, stat_device_daily');
  const vacuumMs = Math.round(performance.now() - t3);
  return { nd, nvrCount, loadMs: { devices: devicesMs, channels: channelsMs, rollups: rollupsMs, vacuum: vacuumMs } };
}

/** A role `alias` holding the device and statistics screens, its data scopes of `type`, and a user of `region`. */
async function staff(c: pg.Client, account: string, alias: string, type: 1 | 6, region: string | null) {
  const id = async () => String((await c.query<{ id: string }>(`select nextval('bench_id') as id`)).rows[0].id);
  const [dept, role, user] = [await id(), await id(), await id()];
  await c.query(
    `insert into dept (id, tenant_id, parent_id, ancestors, dept_category, dept_name, full_name, sort)
    values ($1, $2, 0, '0', 1, $3, $4, 1)`,
    [dept, TENANT, `部门${account}`, `部门${account}`],
  );
  await c.query(
    `insert into role (id, tenant_id, parent_id, role_name, role_alias, sort) values ($1, $2, 0, $3, $4, 3)`,
    [role, TENANT, alias, alias],
  );
  await c.query(
    `insert into role_menu (role_id, menu_id, tenant_id)
    select $1, m.id, $2 from menu m join menu p on p.code in ('cameradevice', 'nvrchannelinfo', 'device_online', 'device_ranking')
      and p.tenant_id = '000000' and p.is_deleted = 0
    where m.tenant_id = '000000' and m.is_deleted = 0 and (m.id = p.id or m.parent_id = p.id)`,
    [role, TENANT],
  );
  for (const code of ['cameradevice', 'nvrchannelinfo']) {
    const scope = await id();
    await c.query(
      `insert into data_scope (id, tenant_id, menu_id, resource_code, scope_name, scope_type)
      select $1, $2, id, $3, '压测', $4 from menu where code = $5 and tenant_id = '000000' and is_deleted = 0`,
      [scope, TENANT, code, type, code],
    );
    await c.query(`insert into role_scope (role_id, scope_id, scope_category, tenant_id) values ($1, $2, 1, $3)`, [
      role,
      scope,
      TENANT,
    ]);
  }
  await c.query(
    `insert into "user" (id, tenant_id, account, password, name, real_name, dept_id, region_code, must_change_password)
    values ($1, $2, $3, $4, $5, $6, $7, $8, 0)`,
    [user, TENANT, account, await hashPassword(md5Hex(PASSWORD)), account, account.slice(0, 10), dept, region],
  );
  await c.query(`insert into user_role (user_id, role_id, tenant_id) values ($1, $2, $3)`, [user, role, TENANT]);
}

/** The SQL each statistics call runs (service.ts), for the raw columns. */
function statSql(prefix: string, len: number): Record<string, SqlQuery[]> {
  const children: SqlQuery = {
    text: `select code, name from region where parent_code = $1 and is_deleted = 0 order by sort, code`,
    values: [prefix || '00'],
  };
  const counters: SqlQuery = {
    text: `select left(district, $3) as k, sum(total) as total, sum(online) as online from stat_device_counter
      where tenant_id = $1 and starts_with(district, $2) group by 1`,
    values: [TENANT, prefix, len],
  };
  const channels: SqlQuery = {
    text: `select left(district, $3) as k, sum(total) as total from stat_channel_counter
      where tenant_id = $1 and district <> '' and starts_with(district, $2) group by 1`,
    values: [TENANT, prefix, len],
  };
  const day: SqlQuery = {
    text: `select district as k, sum(total) as total, sum(online) as online from stat_device_daily
      where tenant_id = $1 and day = current_date - 1 and length(district) = $3 and starts_with(district, $2) group by 1`,
    values: [TENANT, prefix, len],
  };
  const trend: SqlQuery = {
    text: `select day, sum(total) as total, sum(online) as online from stat_device_daily
      where tenant_id = $1 and district = $2 and day >= current_date - 29 and day < current_date group by day`,
    values: [TENANT, prefix],
  };
  return {
    page: [children, counters],
    pageDate: [children, day],
    trend: [counters, trend],
    deviceRanking: [children, counters],
    channelRanking: [children, channels],
  };
}

export async function benchDevices(serverDir: string, log: Log = printFigure): Promise<DevicesResult> {
  const { n, warm, budgetMs } = timingKnobs('DEVICES');
  const cameras = Number(process.env.BENCH_DEVICES_CAMERAS ?? 970_000);
  const nvrs = Number(process.env.BENCH_DEVICES_NVRS ?? 30_000);
  const db = await throwawayDb('devices', 'BENCH_DEVICES_PORT', 'BENCH_DEVICES_KEEP_DB');
  const { base } = db;
  let server: ChildProcess | undefined;
  let c: pg.Client | undefined;
  try {
    // 1. Migrate + seed the platform data (menus, regions) with the real start-up.
    await stop(await db.start('src/main.ts', serverDir));
    c = new pg.Client({ connectionString: db.dbUrl });
    await c.connect();
    const seeded = await seed(c, cameras, nvrs, log);
    // 2. The counters the triggers kept, against one direct aggregate.
    const diff = await c.query(
      `select count(*) as n from (
        (select district, device_type, total, online from stat_device_counter where tenant_id = $1 and total <> 0
         except select left(region_code, 6), device_type, count(*)::int, (count(*) filter (where status = 1))::int
           from camera_device where tenant_id = $1 and is_deleted = 0 group by 1, 2)
        union all
        (select left(region_code, 6), device_type, count(*)::int, (count(*) filter (where status = 1))::int
           from camera_device where tenant_id = $1 and is_deleted = 0 group by 1, 2
         except select district, device_type, total, online from stat_device_counter where tenant_id = $1)) x`,
      [TENANT],
    );
    const countersExact = Number(diff.rows[0].n) === 0;
    log('counters equal a direct aggregate', countersExact);
    // 3. The province with the most devices: its region admin; and the city administrator (data scope all).
    const [prov] = (
      await c.query<{ code: string; name: string; devices: string }>(
        `select p.code, p.name, x.n as devices from (select left(district, 2) as code, sum(total) as n
          from stat_device_counter where tenant_id = $1 group by 1 order by n desc limit 1) x
        join region p on p.code = x.code and p.is_deleted = 0`,
        [TENANT],
      )
    ).rows;
    const province = { code: prov.code, name: prov.name, devices: Number(prov.devices) };
    log('region admin: province (devices)', `${province.code} ${province.name} (${province.devices})`);
    await staff(c, CITY, 'city_admin', 1, null);
    await staff(c, REGION, 'region_admin', 6, province.code);

    // 4. The server; both log in with a captcha.
    const captchaFile = path.join(db.dir, 'captchas.txt');
    server = await db.start('test/captcha-file-server.ts', serverDir, {
      ATRIUM_E2E_CAPTCHA_FILE: captchaFile,
      // A device goes offline after 3 heartbeats: a day's heartbeat keeps the sweep from rewriting the loaded rows.
      ATRIUM_DEVICE_HEARTBEAT_SECONDS: '86400',
    });
    const headersOf = async (account: string) => ({
      authorization: BASIC,
      'blade-auth': `bearer ${await captchaLogin(base, captchaFile, account, PASSWORD, TENANT)}`,
    });
    const city = await headersOf(CITY);
    const region = await headersOf(REGION);

    // 5. pageList of the region admin, page 1 and page 1000 (the camera module's endpoint).
    let pageList: DevicesResult['pageList'] = {};
    const aims: Record<string, boolean> = {};
    const probe = await fetch(`${base}/api/blade-device-access/cameraDevice/pageList?current=1&size=10`, {
      headers: region,
    });
    if (probe.status === 404) pageList = 'not measured: no cameraDevice/pageList route (404)';
    else {
      let endpointState = 'ok';
      for (const current of [1, 1000]) {
        const query = { current: String(current), size: '10' };
        // The SQL the endpoint runs (docs/devices.md "Camera list"): the total from the statistics counters, the page
        // by the province column in the list's order.
        const where = `tenant_id = $1 and is_deleted = 0 and region_p2 = $2`;
        const done = await timePageCase({
          c,
          url: `${base}/api/blade-device-access/cameraDevice/pageList?${new URLSearchParams(query)}`,
          headers: region,
          label: `pageList ${current}, size 10, region admin`,
          query,
          count: {
            text: `select coalesce(sum(total), 0) as count from stat_device_counter
              where tenant_id = $1 and starts_with(district, $2)`,
            values: [TENANT, province.code],
          },
          page: {
            text: `select * from camera_device where ${where} order by create_time desc, id limit 10 offset $3`,
            values: [TENANT, province.code, (current - 1) * 10],
          },
          tenantId: TENANT,
          n,
          warm,
          budgetMs,
          endpointState,
          name: 'cameraDevice pageList',
          log,
        });
        pageList[`page${current}`] = done.result;
        endpointState = done.endpointState;
        if (done.result.endpoint) aims[`pageList${current}P99Under50`] = done.result.endpoint.p99 <= 50;
      }
    }

    // 6. The statistics calls, as the city administrator (whole tenant: the root's provinces) and the region admin.
    const yesterday = (await c.query<{ d: string }>(`select (current_date - 1)::text as d`)).rows[0].d;
    const statistics: Record<string, CallCase> = {};
    const calls: [string, Record<string, string>, string, keyof ReturnType<typeof statSql>, string, number][] = [
      ['page', city, '/api/deviceinOnlineStatusStatics/page?size=50', 'page', '', 2],
      ['page', region, `/api/deviceinOnlineStatusStatics/page?size=50`, 'page', province.code, 4],
      ['pageDate', city, `/api/deviceinOnlineStatusStatics/page?size=50&date=${yesterday}`, 'pageDate', '', 2],
      ['trend', city, '/api/deviceinOnlineStatusStatics/trend', 'trend', '', 2],
      ['trend', region, '/api/deviceinOnlineStatusStatics/trend', 'trend', province.code, 2],
      ['deviceRanking', city, '/api/home/deviceJoinRankingByRegionReport?deviceType=131', 'deviceRanking', '', 2],
      ['deviceRanking', region, '/api/home/deviceJoinRankingByRegionReport', 'deviceRanking', province.code, 4],
      ['channelRanking', city, '/api/home/channelJoinRankingByRegionReport', 'channelRanking', '', 2],
      ['channelRanking', region, '/api/home/channelJoinRankingByRegionReport', 'channelRanking', province.code, 4],
    ];
    for (const [name, headers, url, sqlKey, prefix, len] of calls) {
      const who = headers === city ? 'city' : 'region';
      const key = `${name}:${who}`;
      const queries = statSql(prefix, len)[sqlKey];
      if (process.env.BENCH_EXPLAIN === '1') await printPlans(c, queries, TENANT);
      const first = await fetch(`${base}${url}`, { headers });
      let endpoint: Stat | undefined;
      let error: string | undefined;
      if (first.status !== 200) error = `answered ${first.status}: ${(await first.text()).slice(0, 200)}`;
      else {
        await first.arrayBuffer();
        endpoint = stat(
          await timed(
            n,
            warm,
            async () => {
              const r = await fetch(`${base}${url}`, { headers });
              if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
              await r.arrayBuffer();
            },
            budgetMs,
          ),
        );
        aims[`${key}P99Under100`] = endpoint.p99 <= 100;
      }
      const run = async () => {
        for (const q of queries) await c!.query(q);
      };
      const raw = stat(await timed(n, warm, run, budgetMs));
      const rawRls = stat(await timed(n, warm, () => asTenant(c!, TENANT, run), budgetMs));
      statistics[key] = { url, endpoint, raw, rawRls, ...(error ? { error } : {}) };
      log(`statistics ${key} ms`, { endpoint: endpoint ?? error, raw, rawRls });
    }
    // 7. What a scan per call would cost: the tenant's devices per province, directly.
    const scan = stat(
      await timed(
        Math.min(n, 20),
        2,
        async () => {
          await c!.query(
            `select left(region_code, 2), count(*), count(*) filter (where status = 1) from camera_device
            where tenant_id = $1 and is_deleted = 0 group by 1`,
            [TENANT],
          );
        },
        budgetMs,
      ),
    );
    log('for scale: the scan the counters replace (ms)', scan);
    // 8. What the list's total cost when it counted the province's rows on every request (before the counters).
    const provinceCount = stat(
      await timed(
        Math.min(n, 50),
        3,
        async () => {
          await c!.query(
            `select count(*) from camera_device where tenant_id = $1 and is_deleted = 0
              and starts_with(region_code, $2)`,
            [TENANT, province.code],
          );
        },
        budgetMs,
      ),
    );
    log('for scale: counting the province’s rows (ms)', provinceCount);
    log('devices: aims', aims);
    const mem = rssOf(server.pid);
    return {
      provinceCount,
      cameras,
      nvrs: seeded.nvrCount,
      channels: seeded.nvrCount * CHANNELS_PER_NVR,
      districts: seeded.nd,
      loadMs: seeded.loadMs,
      countersExact,
      province,
      pageList,
      statistics,
      scan,
      aims,
      serverRssMb: mem.rss,
    };
  } finally {
    if (server) await stop(server);
    await c?.end().catch(() => {});
    await db.close();
  }
}

runIfMain(import.meta.url, benchDevices);
