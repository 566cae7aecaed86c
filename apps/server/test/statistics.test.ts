// Statistics by region (docs/devices.md "Statistics"): the counters the triggers keep follow every kind of change
// (compared with a direct aggregate after a random sequence), the three calls' numbers, scope (region admin, client
// account, another tenant), the rollup of past days, and bad parameters. Real database: PGlite or PostgreSQL.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.ts';
import { menu, roleMenu, user } from '../src/db/schema/index.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { clientInfo } from '../src/modules/client/table.ts';
import { cameraDevice, nvrChannel } from '../src/modules/device/table.ts';
import { runRollup } from '../src/modules/statistics/rollup.ts';
import { addDays, dayIn } from '../src/modules/statistics/service.ts';
import {
  client,
  createTestApp,
  loginToken,
  provisionedTenant,
  tenantUser,
  userToken,
  type TestApp,
} from './harness.ts';
import { rowsOf } from '../src/db/rows.ts';

const T = '740001';
const OTHER = '740002';
const DISTRICTS = ['110101', '110102', '110105'];
const TYPES = ['131', '132', '118'];
let t: TestApp;
let admin: string;
let other: string;

const page = '/api/deviceinOnlineStatusStatics/page';
const trend = '/api/deviceinOnlineStatusStatics/trend';
const devRank = '/api/home/deviceJoinRankingByRegionReport';
const chRank = '/api/home/channelJoinRankingByRegionReport';

/** A deterministic pseudo-random sequence (the same run every time). */
function rng(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

let serial = 0;
function device(tenantId: string, over: Partial<typeof cameraDevice.$inferInsert> = {}) {
  const region = over.regionCode ?? DISTRICTS[0];
  const type = over.deviceType ?? '131';
  serial++;
  return {
    id: newId(),
    tenantId,
    deviceCode: `${region.slice(0, 6)}00${'00'}${type}0${String(serial).padStart(6, '0')}`.slice(0, 20),
    name: `cam${serial}`,
    deviceType: type,
    regionCode: region,
    status: 0,
    ...over,
  };
}

async function insertDevices(tenantId: string, rows: ReturnType<typeof device>[]) {
  await withTenant(t.services.db, tenantId, (tx) => tx.insert(cameraDevice).values(rows));
  return rows.map((r) => r.id);
}

async function exec<T = Record<string, unknown>>(tenantId: string, q: ReturnType<typeof sql>): Promise<T[]> {
  return withTenant(t.services.db, tenantId, (tx) => rowsOf<T>(tx, q));
}

/** The counters of a tenant beside the same numbers by a direct aggregate over the devices. */
async function countersAndTruth(tenantId: string) {
  const norm = (rows: Record<string, unknown>[]) =>
    rows
      .filter((r) => Number(r.total) !== 0 || Number(r.online) !== 0)
      .map((r) => `${r.district}/${r.device_type}:${Number(r.total)}/${Number(r.online)}`)
      .sort();
  const counters = await exec(
    tenantId,
    sql`select district, device_type, total, online from stat_device_counter where tenant_id = ${tenantId}`,
  );
  const truth = await exec(
    tenantId,
    sql`select left(region_code, 6) as district, device_type, count(*) as total,
      count(*) filter (where status = 1) as online
      from camera_device where tenant_id = ${tenantId} and is_deleted = 0 group by 1, 2`,
  );
  const chCounters = await exec(
    tenantId,
    sql`select district, total from stat_channel_counter where tenant_id = ${tenantId} and total <> 0`,
  );
  const chTruth = await exec(
    tenantId,
    sql`select coalesce(left(region_code, 6), '') as district, count(*) as total from nvr_channel
      where tenant_id = ${tenantId} and is_deleted = 0 group by 1`,
  );
  const ch = (rows: Record<string, unknown>[]) => rows.map((r) => `${r.district}:${Number(r.total)}`).sort();
  return {
    counters: norm(counters),
    truth: norm(truth),
    channels: ch(chCounters),
    channelTruth: ch(chTruth),
  };
}

async function roleId(alias: string) {
  const res = await client(t, admin).get(`/api/blade-system/role/list?roleAlias=${alias}`);
  return res.json().data.records[0].id as string;
}

/** A user of T with a product role and a region (as the user screen makes one). */
async function staff(account: string, alias: string, regionCode: string) {
  const res = await client(t, admin).post('/api/blade-user/submit', {
    account,
    realName: account.slice(-10),
    password: 'Staff#2026x',
    roleIds: [await roleId(alias)],
    regionCode,
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return userToken(t, T, account, 'Staff#2026x');
}

async function newClient(tenantId: string, regionCode: string) {
  const id = newId();
  const phone = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  await withTenant(t.services.db, tenantId, (tx) =>
    tx.insert(clientInfo).values({
      id,
      tenantId,
      clientName: `client-${phone}`,
      clientType: 1,
      creditCode: '91110108MA01ABCD0B',
      contactName: 'c',
      operatorTel: phone,
      regionCode,
      appClientAccount: phone,
      status: 2,
    }),
  );
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, T)).token;
  other = (await provisionedTenant(t, platform, OTHER)).token;
});
afterAll(async () => t?.close());

describe('counters kept by the triggers', () => {
  it('follow inserts, status changes, moves, type changes, soft and hard removes (random sequence)', async () => {
    const rand = rng(20261124);
    const pick = <X>(xs: X[]) => xs[Math.floor(rand() * xs.length)];
    const ids = await insertDevices(
      T,
      Array.from({ length: 60 }, () =>
        device(T, { regionCode: pick(DISTRICTS), deviceType: pick(TYPES), status: pick([0, 1, 2]) }),
      ),
    );
    // An NVR with channels.
    const [nvr] = await insertDevices(T, [device(T, { regionCode: '110102', deviceType: '118', status: 1 })]);
    await withTenant(t.services.db, T, (tx) =>
      tx.insert(nvrChannel).values(
        Array.from({ length: 8 }, (_, i) => ({
          id: newId(),
          tenantId: T,
          nvrDeviceId: nvr,
          channelNo: i + 1,
          regionCode: '110102',
        })),
      ),
    );
    let s = await countersAndTruth(T);
    expect(s.counters).toEqual(s.truth);
    expect(s.channels).toEqual(['110102:8']);

    for (let step = 0; step < 120; step++) {
      const id = pick(ids);
      const op = Math.floor(rand() * 7);
      await withTenant(t.services.db, T, async (tx) => {
        if (op === 0)
          await tx
            .update(cameraDevice)
            .set({ status: pick([0, 1, 2]) })
            .where(eq(cameraDevice.id, id));
        else if (op === 1)
          await tx
            .update(cameraDevice)
            .set({ regionCode: `${pick(DISTRICTS)}${pick(['', '001', '002001'])}` })
            .where(eq(cameraDevice.id, id));
        else if (op === 2) await tx.update(cameraDevice).set({ isDeleted: 1 }).where(eq(cameraDevice.id, id));
        else if (op === 3) await tx.update(cameraDevice).set({ isDeleted: 0 }).where(eq(cameraDevice.id, id));
        else if (op === 4)
          await tx
            .update(cameraDevice)
            .set({ deviceType: pick(TYPES) })
            .where(eq(cameraDevice.id, id));
        else if (op === 5)
          // One statement over many rows: every device of a district online.
          await tx
            .update(cameraDevice)
            .set({ status: 1 })
            .where(sql`starts_with(${cameraDevice.regionCode}, ${pick(DISTRICTS)})`);
        else
          await tx
            .update(cameraDevice)
            .set({ name: `renamed${step}` })
            .where(eq(cameraDevice.id, id));
      });
    }
    // A hard delete (a cleanup job) and a change rolled back count nothing.
    const gone = ids.pop()!;
    await withTenant(t.services.db, T, (tx) => tx.delete(cameraDevice).where(eq(cameraDevice.id, gone)));
    await withTenant(t.services.db, T, async (tx) => {
      await tx.update(cameraDevice).set({ isDeleted: 1 }).where(eq(cameraDevice.tenantId, T));
      throw new Error('rolled back');
    }).catch(() => undefined);
    // Channels: two removed softly, one moved, one hard-deleted.
    await withTenant(t.services.db, T, async (tx) => {
      await tx
        .update(nvrChannel)
        .set({ isDeleted: 1 })
        .where(and(eq(nvrChannel.nvrDeviceId, nvr), sql`${nvrChannel.channelNo} in (1, 2)`));
      await tx
        .update(nvrChannel)
        .set({ regionCode: '110105' })
        .where(and(eq(nvrChannel.nvrDeviceId, nvr), eq(nvrChannel.channelNo, 3)));
      await tx.delete(nvrChannel).where(and(eq(nvrChannel.nvrDeviceId, nvr), eq(nvrChannel.channelNo, 4)));
    });
    s = await countersAndTruth(T);
    expect(s.counters).toEqual(s.truth);
    expect(s.channels).toEqual(s.channelTruth);
    expect(s.channels).toEqual(['110102:4', '110105:1']);
  });

  it('stay exact under concurrent changes of one district', async () => {
    const ids = await insertDevices(
      T,
      Array.from({ length: 20 }, () => device(T, { regionCode: '110105', deviceType: '132', status: 0 })),
    );
    await Promise.all(
      ids.map((id, i) =>
        withTenant(t.services.db, T, (tx) =>
          tx
            .update(cameraDevice)
            .set({ status: i % 2 ? 1 : 2 })
            .where(eq(cameraDevice.id, id)),
        ),
      ),
    );
    const s = await countersAndTruth(T);
    expect(s.counters).toEqual(s.truth);
  });

  it('never count another tenant, whose counters are its own (and hidden by RLS)', async () => {
    await insertDevices(
      OTHER,
      Array.from({ length: 5 }, () => device(OTHER, { regionCode: '110101', deviceType: '131', status: 1 })),
    );
    const seen = await exec(T, sql`select count(*) as n from stat_device_counter where tenant_id = ${OTHER}`);
    expect(Number(seen[0].n)).toBe(0);
    const s = await countersAndTruth(OTHER);
    expect(s.counters).toEqual(['110101/131:5/5']);
  });
});

type Row = {
  regionCode: string;
  regionName: string;
  total: number;
  online: number;
  offline: number;
  onlineRate: number;
};

/** T's live devices per district and type (the truth the calls are compared with). */
async function truthOf(prefix: string, len: number, type?: string) {
  const rows = await exec(
    T,
    sql`select left(region_code, ${len}) as k, count(*) as total, count(*) filter (where status = 1) as online
      from camera_device where tenant_id = ${T} and is_deleted = 0 and starts_with(region_code, ${prefix})
      ${type ? sql`and device_type = ${type}` : sql``} group by 1`,
  );
  return new Map(rows.map((r) => [String(r.k), { total: Number(r.total), online: Number(r.online) }]));
}

describe('GET deviceinOnlineStatusStatics/page', () => {
  it('the tenant administrator: the districts of the city it works in, numbers equal to the devices', async () => {
    const res = await client(t, admin).get(`${page}?size=100`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.regionCode).toBe('1101');
    // 1101 is named 市辖区 in GB/T 2260: the title says whose.
    expect(data.regionName).toBe('市辖区');
    expect(data.regionPath).toBe('北京市 市辖区');
    const rows = data.records as Row[];
    expect(rows.length).toBeGreaterThanOrEqual(16);
    const truth = await truthOf('1101', 6);
    for (const r of rows) {
      const c = truth.get(r.regionCode) ?? { total: 0, online: 0 };
      expect([r.regionCode, r.total, r.online, r.offline]).toEqual([
        r.regionCode,
        c.total,
        c.online,
        c.total - c.online,
      ]);
      expect(r.onlineRate).toBe(c.total ? Math.round((c.online / c.total) * 10000) / 100 : 0);
    }
    expect(rows.find((r) => r.regionCode === '110101')!.regionName).toBe('东城区');
    const all = [...truth.values()].reduce((a, c) => a + c.total, 0);
    expect(data.summary.total).toBe(all);
  });

  it('paging, sorts from the allowlist, drill-down to the root and to a district, a device type', async () => {
    const sorted = (await client(t, admin).get(`${page}?size=3&current=1&descs=total`)).json().data;
    expect(sorted.records).toHaveLength(3);
    expect(sorted.pages).toBe(Math.ceil(sorted.total / 3));
    const totals = (sorted.records as Row[]).map((r) => r.total);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const second = (await client(t, admin).get(`${page}?size=3&current=2&descs=total`)).json().data.records as Row[];
    expect(second[0].total).toBeLessThanOrEqual(totals[2]);
    const byName = (await client(t, admin).get(`${page}?size=100&ascs=onlineRate,regionCode`)).json().data
      .records as Row[];
    expect(byName.map((r) => r.onlineRate)).toEqual([...byName.map((r) => r.onlineRate)].sort((a, b) => a - b));

    const root = (await client(t, admin).get(`${page}?regionCode=00&size=100`)).json().data.records as Row[];
    expect(root.find((r) => r.regionCode === '11')!.total).toBe((await truthOf('11', 2)).get('11')!.total);
    expect(root.find((r) => r.regionCode === '12')!.total).toBe(0);

    // A district without towns in the region table answers itself; with a device type, that type only.
    const district = (await client(t, admin).get(`${page}?regionCode=110105&deviceType=132`)).json().data;
    const truth = (await truthOf('110105', 6, '132')).get('110105')!;
    expect(district.records).toEqual([
      expect.objectContaining({ regionCode: '110105', total: truth.total, online: truth.online }),
    ]);
  });

  it('bad regionCode, date, sort, paging or parameter name → 400 in the caller’s language; unknown region → 404', async () => {
    const bad = async (q: string, status = 400) => {
      const res = await client(t, admin, 'en').get(`${page}?${q}`);
      expect([q, res.statusCode]).toEqual([q, status]);
      expect(res.json().msg).not.toMatch(/[\u4e00-\u9fff]/);
      return res.json().msg as string;
    };
    expect(await bad('regionCode=abc')).toBe('A region code is 00 or 2 to 12 digits');
    await bad('regionCode=1234567');
    await bad("regionCode=11'--");
    expect(await bad('date=2026-13-01')).toBe('A date is written YYYY-MM-DD');
    await bad('date=yesterday');
    expect(await bad(`date=${dayIn('Asia/Shanghai', new Date(Date.now() + 86400000))}`)).toBe(
      'Choose a day before today',
    );
    expect(await bad('descs=password')).toContain('password');
    await bad('ascs=__proto__');
    await bad('current=0');
    await bad('size=-1');
    await bad('tenantId=740002');
    await bad('deviceType=1%3B2');
    expect(await bad('regionCode=999999', 404)).toBe('The region does not exist or is outside your data scope');
  });
});

describe('scope', () => {
  let a: string;
  let b: string;
  let leader: string;
  let own: string;
  let clientId: string;

  beforeAll(async () => {
    a = await staff('stat_region_a', 'region_admin', '110101');
    b = await staff('stat_region_b', 'region_admin', '110102');
    leader = await staff('stat_leader', 'leader_admin', '11');
    // A client account: a supplier admin whose user record names its client (as the approval makes it).
    clientId = await newClient(T, '110105');
    await insertDevices(T, [
      device(T, { regionCode: '110105', deviceType: '131', status: 1, clientId }),
      device(T, { regionCode: '110105', deviceType: '131', status: 0, clientId }),
      device(T, { regionCode: '110101', deviceType: '132', status: 1, clientId }),
    ]);
    const [nvr] = await insertDevices(T, [device(T, { regionCode: '110101', deviceType: '118', clientId })]);
    await withTenant(t.services.db, T, (tx) =>
      tx.insert(nvrChannel).values(
        [1, 2].map((n) => ({
          id: newId(),
          tenantId: T,
          nvrDeviceId: nvr,
          channelNo: n,
          regionCode: '110101',
          clientId,
        })),
      ),
    );
    // The seed gives a client account no statistics screen; its tenant may grant them (the numbers stay its own).
    const supplier = await roleId('supplier_admin');
    await withTenant(t.services.db, T, async (tx) => {
      const menus = await tx
        .select({ id: menu.id })
        .from(menu)
        .where(inArray(menu.code, ['device_online', 'device_ranking']));
      await tx.insert(roleMenu).values(menus.map((m) => ({ roleId: supplier, menuId: m.id, tenantId: T })));
    });
    own = await staff('stat_client', 'supplier_admin', '110105');
    await withTenant(t.services.db, T, (tx) =>
      tx
        .update(user)
        .set({ clientInfoId: clientId })
        .where(and(eq(user.tenantId, T), eq(user.account, 'stat_client'))),
    );
    t.services.cache.clearAll();
  });

  it('a region admin sees its own district only; another district or a region above is a 404', async () => {
    const mine = (await client(t, a).get(page)).json().data;
    expect(mine.regionCode).toBe('110101');
    const truth = (await truthOf('110101', 6)).get('110101')!;
    expect(mine.records).toEqual([expect.objectContaining({ regionCode: '110101', total: truth.total })]);
    expect(mine.summary.total).toBe(truth.total);
    for (const q of ['regionCode=110102', 'regionCode=1101', 'regionCode=00', 'regionCode=11']) {
      const res = await client(t, a).get(`${page}?${q}`);
      expect([q, res.statusCode]).toEqual([q, 404]);
      expect(res.body).not.toContain('"total"');
    }
    expect((await client(t, a).get(`${devRank}?regionCode=110102`)).statusCode).toBe(404);
    expect((await client(t, a).get(`${chRank}?regionCode=1101`)).statusCode).toBe(404);
    const theirs = (await client(t, b).get(page)).json().data.records as Row[];
    expect(theirs.map((r) => r.regionCode)).toEqual(['110102']);
    expect(theirs[0].total).toBe((await truthOf('110102', 6)).get('110102')!.total);
    const ranking = (await client(t, a).get(devRank)).json().data as Row[];
    expect(ranking.map((r) => r.regionCode)).toEqual(['110101']);
  });

  it('the leader (read-only) sees the tenant, like the city administrator', async () => {
    const res = await client(t, leader).get(`${page}?size=100`);
    expect(res.statusCode).toBe(200);
    const adminView = (await client(t, admin).get(`${page}?size=100`)).json().data;
    expect(res.json().data.summary).toEqual(adminView.summary);
    expect((await client(t, leader).get(devRank)).statusCode).toBe(200);
  });

  it('a client account counts its own devices and channels only', async () => {
    const res = await client(t, own).get(`${page}?size=100`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.regionCode).toBe('1101');
    expect(data.summary).toEqual({ total: 4, online: 2, offline: 2, onlineRate: 50 });
    const rows = data.records as Row[];
    expect(rows.find((r) => r.regionCode === '110105')).toMatchObject({ total: 2, online: 1 });
    expect(rows.find((r) => r.regionCode === '110101')).toMatchObject({ total: 2, online: 1 });
    expect(rows.find((r) => r.regionCode === '110102')).toMatchObject({ total: 0 });
    const ch = (await client(t, own).get(chRank)).json().data as Row[];
    expect(ch[0]).toMatchObject({ rank: 1, regionCode: '110101', total: 2 });
    expect(ch.slice(1).every((r) => r.total === 0)).toBe(true);
    const past = await client(t, own).get(`${page}?date=${addDays(dayIn('Asia/Shanghai', new Date()), -1)}`);
    expect([past.statusCode, past.json().msg]).toEqual([400, '客户账号只能查看当前的统计']);
  });

  it('another tenant never sees T’s numbers, and T never sees its', async () => {
    const theirs = (await client(t, other).get(`${page}?regionCode=1101&size=100`)).json().data;
    expect(theirs.summary.total).toBe(5);
    const mine = (await client(t, admin).get(`${page}?regionCode=1101&size=100`)).json().data;
    expect(mine.summary.total).toBe([...(await truthOf('1101', 4)).values()][0].total);
  });

  it('without the screens’ codes: 403', async () => {
    const nobody = await tenantUser(t, T, 'statnobody', ['clientinfo']);
    for (const url of [page, trend, devRank, chRank]) expect((await client(t, nobody).get(url)).statusCode).toBe(403);
  });
});

describe('rankings', () => {
  it('devices of a type and channels per district, most first', async () => {
    const res = await client(t, admin).get(`${devRank}?deviceType=131`);
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as (Row & { rank: number })[];
    const truth = await truthOf('1101', 6, '131');
    for (const r of rows) expect(r.total).toBe(truth.get(r.regionCode)?.total ?? 0);
    expect(rows.map((r) => r.rank)).toEqual(rows.map((_, i) => i + 1));
    expect(rows.map((r) => r.total)).toEqual([...rows.map((r) => r.total)].sort((x, y) => y - x));
    const ch = (await client(t, admin).get(chRank)).json().data as Row[];
    expect(ch.slice(0, 2).map((r) => [r.regionCode, r.total])).toEqual([
      ['110102', 4],
      ['110101', 2],
    ]);
    expect((await client(t, admin).get(`${devRank}?deviceType=x;1`)).statusCode).toBe(400);
    expect((await client(t, admin).get(`${chRank}?deviceType=131`)).statusCode).toBe(400);
  });
});

describe('daily rollup and past days', () => {
  it('yesterday keeps the counters as they stood; later changes move today only; the 30-day line', async () => {
    const today = dayIn(t.config.timeZone, new Date());
    const yesterday = addDays(today, -1);
    const before = (await client(t, admin).get(`${page}?size=100`)).json().data.summary;
    expect(await runRollup(t.services, today)).toBeGreaterThan(0);
    // A second run (another server, a restart) writes nothing.
    expect(await runRollup(t.services, today)).toBe(0);
    await insertDevices(T, [device(T, { regionCode: '110101', status: 1 }), device(T, { regionCode: '110102' })]);
    const past = (await client(t, admin).get(`${page}?size=100&date=${yesterday}`)).json().data;
    expect(past.date).toBe(yesterday);
    expect(past.summary).toEqual(before);
    // Every level reads its own rows of the rollup: the provinces of the root, a district alone.
    const provinces = (await client(t, admin).get(`${page}?regionCode=00&size=100&date=${yesterday}`)).json().data;
    expect(provinces.records.find((r: Row) => r.regionCode === '11').total).toBe(before.total);
    const one = (await client(t, admin).get(`${page}?regionCode=110101&date=${yesterday}`)).json().data;
    expect(one.records[0].total).toBe(past.records.find((r: Row) => r.regionCode === '110101').total);
    const now = (await client(t, admin).get(`${page}?size=100`)).json().data.summary;
    expect(now.total).toBe(before.total + 2);
    // A day without a rollup: zeros.
    const older = (await client(t, admin).get(`${page}?date=${addDays(today, -20)}`)).json().data;
    expect(older.summary.total).toBe(0);
    // Past days are kept per district: a region below one cannot be asked for.
    const town = await client(t, admin).get(`${page}?regionCode=110101001&date=${yesterday}`);
    expect(town.statusCode === 400 || town.statusCode === 404).toBe(true);

    const line = (await client(t, admin).get(trend)).json().data;
    expect(line.days).toHaveLength(30);
    expect(line.days[29]).toMatchObject({ day: today, total: now.total, online: now.online });
    expect(line.days[28]).toMatchObject({ day: yesterday, total: before.total, onlineRate: before.onlineRate });
    expect(line.days[0].total).toBeNull();
    expect((await client(t, admin).get(`${trend}?days=0`)).statusCode).toBe(400);
    expect((await client(t, admin).get(`${trend}?days=7`)).json().data.days).toHaveLength(7);
  });

  it('missed days after a stop are filled from the counters, at most 31 back', async () => {
    const today = dayIn(t.config.timeZone, new Date());
    // Pretend the server stops today and starts again in three days.
    const later = addDays(today, 3);
    await runRollup(t.services, later);
    const days = await exec(
      T,
      sql`select day::text as day, sum(total) as total from stat_device_daily where tenant_id = ${T} group by day order by day`,
    );
    expect(days.map((d) => d.day)).toEqual([addDays(today, -1), today, addDays(today, 1), addDays(today, 2)]);
    expect(Number(days[1].total)).toBe(Number(days[3].total));
    await exec(T, sql`delete from stat_device_daily where tenant_id = ${T} and day >= ${today}`);
  });
});
