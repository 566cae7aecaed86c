// The camera list's total and pages for each shape of data scope (docs/devices.md "Camera list"): the tenant
// administrator and a region admin of a province (region_p2), a city (region_p4), a district (starts_with) see the
// total of what they may see — from the statistics counters when the list is unfiltered, by counting rows when a
// filter is set — and pages that hold exactly their rows. Real database (PGlite, or PostgreSQL with DATABASE_URL).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../src/platform/tenant-db.ts';
import { client, createTestApp, loginToken, provisionedTenant, userToken, type TestApp } from './harness.ts';

const T = '750031';
const OTHER = '750032';
const api = '/api/blade-device-access/cameraDevice';
let t: TestApp;
let admin: string;
let other: string;
let serial = 0;

const codeOf = (district: string, n = ++serial) => `${district}00001310${String(n).padStart(6, '0')}`;
type Page = { records: { id: string; regionCode: string }[]; total: number; current: number };

async function add(token: string, regionCode: string, name = `cam ${serial}`) {
  const res = await client(t, token).post(`${api}/save`, {
    deviceCode: codeOf(regionCode.slice(0, 6)),
    name,
    deviceType: '131',
    regionCode,
  });
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return (res.json().data as { id: string }).id;
}

async function page(token: string, query: string): Promise<Page> {
  const res = await client(t, token).get(`${api}/pageList?${query}`);
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return res.json().data as Page;
}

async function staff(account: string, regionCode: string) {
  const roles = (await client(t, admin).get('/api/blade-system/role/list?roleAlias=region_admin')).json().data as
    { id: string; roleAlias: string }[] | { records: { id: string; roleAlias: string }[] };
  const role = (Array.isArray(roles) ? roles : roles.records).find((r) => r.roleAlias === 'region_admin')!;
  const res = await client(t, admin).post('/api/blade-user/submit', {
    account,
    realName: account,
    password: 'Staff#2026x',
    roleIds: [role.id],
    regionCode,
  });
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return userToken(t, T, account, 'Staff#2026x');
}

/** Every row a caller's list holds, page by page (size 2), with the total each page answered. */
async function walk(token: string, filter = '') {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let current = 1; current < 50; current++) {
    const p = await page(token, `size=2&current=${current}${filter}`);
    totals.add(p.total);
    if (!p.records.length) break;
    ids.push(...p.records.map((r) => r.id));
  }
  return { ids, totals: [...totals] };
}

let byRegion: Record<string, string[]>;
/** Each shape of data scope with the region prefix it sees ('' = the whole tenant). */
const callers = () =>
  [
    [admin, ''],
    [province, '11'],
    [city, '1101'],
    [district, '110101'],
  ] as const;
let province: string;
let city: string;
let district: string;

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, T)).token;
  other = (await provisionedTenant(t, platform, OTHER)).token;
  byRegion = { '110101': [], '110102': [], '110105': [], '120101': [] };
  for (const [region, n] of [
    ['110101', 3],
    ['110102', 2],
    ['110105', 1],
    ['120101', 2],
  ] as const)
    for (let i = 0; i < n; i++) byRegion[region].push(await add(admin, region));
  // Another tenant's devices in the same districts count nowhere here.
  for (let i = 0; i < 4; i++) await add(other, '110101');
  province = await staff('total_p2', '11');
  city = await staff('total_p4', '1101');
  district = await staff('total_d6', '110101');
});
afterAll(async () => t?.close());

const expected = (prefix: string) =>
  Object.entries(byRegion)
    .filter(([r]) => r.startsWith(prefix))
    .flatMap(([, ids]) => ids);

describe('camera list: totals and pages by data scope', () => {
  it('each caller’s pages hold exactly its rows and every page answers the same total', async () => {
    for (const [token, prefix] of callers()) {
      const { ids, totals } = await walk(token);
      expect(ids.sort()).toEqual(expected(prefix).sort());
      expect(totals).toEqual([expected(prefix).length]);
    }
  });

  it('a filter counts the rows: the total is that of the filtered list', async () => {
    const named = await add(admin, '110102', 'total-filter-probe');
    byRegion['110102'].push(named);
    for (const token of [admin, province, city]) {
      const p = await page(token, 'size=2&name=total-filter-probe');
      expect([p.total, p.records.map((r) => r.id)]).toEqual([1, [named]]);
    }
    const none = await page(district, 'size=2&name=total-filter-probe');
    expect([none.total, none.records]).toEqual([0, []]);
  });

  it('a region in the search is that region and everything below it; a code that is not one is a 400', async () => {
    for (const prefix of ['11', '1101', '110101', '12']) {
      const { ids, totals } = await walk(admin, `&regionCode=${prefix}`);
      expect([ids.sort(), totals]).toEqual([expected(prefix).sort(), [expected(prefix).length]]);
    }
    // Within a data scope: a province admin searching another province finds nothing.
    expect((await page(province, 'size=2&regionCode=12')).total).toBe(0);
    const bad = await client(t, admin).get(`${api}/pageList?regionCode=11%25`);
    expect([bad.statusCode, bad.json().success]).toEqual([400, false]);
  });

  it('a removed camera leaves every total at once; a page past the end still answers the total', async () => {
    const gone = byRegion['110101'].pop()!;
    const res = await client(t, admin).post(`${api}/remove?ids=${gone}`);
    expect(res.statusCode).toBe(200);
    for (const [token, prefix] of callers()) {
      const past = await page(token, 'size=2&current=40');
      expect([past.records, past.total]).toEqual([[], expected(prefix).length]);
      expect((await page(token, 'size=100')).records.map((r) => r.id)).not.toContain(gone);
    }
  });

  it('the unfiltered total is the counters’ (kept with the rows), the filtered one a count of rows', async () => {
    // Shown by moving the tenant's counter for one district: the unfiltered lists follow it, a filtered one does not.
    const move = (by: number) =>
      withTenant(t.services.db, T, (tx) =>
        tx.execute(sql`update stat_device_counter set total = total + ${by}
          where tenant_id = ${T} and district = '110105' and device_type = '131'`),
      );
    await move(1000);
    try {
      expect((await page(province, 'size=2')).total).toBe(expected('11').length + 1000);
      expect((await page(admin, 'size=2')).total).toBe(expected('').length + 1000);
      expect((await page(district, 'size=2')).total).toBe(expected('110101').length);
      expect((await page(province, 'size=2&deviceType=131')).total).toBe(expected('11').length);
      // The other tenant's counters are never read.
      expect((await page(other, 'size=2')).total).toBe(4);
    } finally {
      await move(-1000);
    }
  });
});
