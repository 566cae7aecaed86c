// Reports (docs/reports.md): saved definitions (CRUD through the contract's resource), each dataset run over seeded
// rows, the caller's data scope (a region admin's report covers its region), bad parameters and unbounded ranges
// refused in zh and en, the export (csv content, xlsx read back with exceljs), a cancelled export stopping its reads,
// and another tenant's report a 404 on every path. Real database: PGlite or PostgreSQL.
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import type { AuthContext } from '../src/platform/tokens.ts';
import { approvalTable } from '../src/modules/approval/table.ts';
import { clientInfo } from '../src/modules/client/table.ts';
import { cameraDevice, nvrChannel } from '../src/modules/device/table.ts';
import { statDeviceDaily } from '../src/modules/statistics/table.ts';
import { writeCsv } from '../src/modules/report/export.ts';
import { writeXlsx } from '../src/platform/xlsx.ts';
import { exportBatches } from '../src/modules/report/service.ts';
import { reportTable } from '../src/modules/report/table.ts';
import { client, createTestApp, loginToken, provisionedTenant, userToken, type TestApp } from './harness.ts';

const T = '750001';
const OTHER = '750002';
const BASE = '/api/blade-report/report/rest';
let t: TestApp;
let admin: string;
let other: string;
let regional: string;

type Run = { columns: { key: string; label: string }[]; rows: (string | number)[][]; total: number };

async function roleId(alias: string) {
  const res = await client(t, admin).get(`/api/blade-system/role/list?roleAlias=${alias}`);
  return res.json().data.records[0].id as string;
}

let serial = 0;
const device = (regionCode: string, deviceType: string, status: number) => ({
  id: newId(),
  tenantId: T,
  deviceCode: `${regionCode}0000${deviceType}0${String(++serial).padStart(6, '0')}`.slice(0, 20),
  name: `cam${serial}`,
  deviceType,
  regionCode,
  status,
});

const client1 = (regionCode: string, status: number, at: string) => {
  const phone = `139${String(++serial).padStart(8, '0')}`;
  return {
    id: newId(),
    tenantId: T,
    clientName: `client-${phone}`,
    clientType: 1,
    creditCode: '91110108MA01ABCD0B',
    contactName: 'c',
    operatorTel: phone,
    regionCode,
    appClientAccount: phone,
    status,
    createTime: new Date(at),
  };
};

async function seed() {
  const nvr = device('110101', '118', 1);
  await withTenant(t.services.db, T, async (tx) => {
    await tx
      .insert(cameraDevice)
      .values([device('110101', '131', 1), device('110101', '131', 0), device('110102', '132', 1), nvr]);
    await tx.insert(nvrChannel).values(
      [1, 2, 3].map((n) => ({
        id: newId(),
        tenantId: T,
        nvrDeviceId: nvr.id,
        channelNo: n,
        regionCode: n === 3 ? '110102' : '110101',
      })),
    );
    await tx
      .insert(clientInfo)
      .values([
        client1('110101', 1, '2026-03-10T04:00:00Z'),
        client1('110101', 2, '2026-03-11T04:00:00Z'),
        client1('110102', 2, '2026-04-02T04:00:00Z'),
        client1('110101', 2, '2025-01-02T04:00:00Z'),
      ]);
    const approval = (regionCode: string, status: number) => ({
      id: newId(),
      tenantId: T,
      referType: 'client',
      referId: newId(),
      title: 't',
      regionCode,
      status,
      submitTime: new Date('2026-03-15T04:00:00Z'),
    });
    await tx.insert(approvalTable).values([approval('110101', 1), approval('110101', 2), approval('110102', 1)]);
    const daily = [];
    for (const day of ['2026-01-01', '2026-01-02'])
      for (const district of ['110101', '110102', '1101', '11', ''])
        daily.push({ tenantId: T, day, district, deviceType: '131', total: 10, online: district === '110101' ? 5 : 8 });
    await tx.insert(statDeviceDaily).values(daily);
  });
}

const save = (token: string, body: object, lang?: 'en') => client(t, token, lang).post(`${BASE}/submit`, body);
async function created(body: object) {
  const res = await save(admin, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}
async function run(token: string, id: string, extra = '') {
  const res = await client(t, token).get(`${BASE}/run?id=${id}${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Run;
}

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, T)).token;
  other = (await provisionedTenant(t, platform, OTHER)).token;
  const res = await client(t, admin).post('/api/blade-user/submit', {
    account: 'region0101',
    realName: 'region0101',
    password: 'Staff#2026x',
    roleIds: [await roleId('region_admin')],
    regionCode: '110101',
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  regional = await userToken(t, T, 'region0101', 'Staff#2026x');
  await seed();
});
afterAll(async () => t?.close());

describe('report definitions', () => {
  it('submit, detail, list, update and remove', async () => {
    const id = await created({ name: '设备统计', dataset: 'device_region', columns: ['regionName', 'total'] });
    const detail = (await client(t, admin).get(`${BASE}/detail?id=${id}`)).json().data;
    expect(detail).toMatchObject({
      name: '设备统计',
      dataset: 'device_region',
      columns: 'regionName,total',
      chart: 'table',
    });
    const list = (await client(t, admin).get(`${BASE}/list?name=设备`)).json().data;
    expect(list.records.map((r: { id: string }) => r.id)).toContain(id);
    const upd = await save(admin, {
      id,
      name: '设备统计2',
      dataset: 'device_region',
      chart: 'bar',
      version: detail.version,
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect((await client(t, admin).get(`${BASE}/detail?id=${id}`)).json().data).toMatchObject({ chart: 'bar' });
    expect((await client(t, admin).post(`${BASE}/remove?ids=${id}`)).statusCode).toBe(200);
    expect((await client(t, admin).get(`${BASE}/detail?id=${id}`)).statusCode).toBe(404);
    expect((await client(t, admin).get(`${BASE}/run?id=${id}`)).statusCode).toBe(404);
  });

  it('refuses columns of another dataset, a reversed range and a day-based dataset without a range (zh and en)', async () => {
    const bad = await save(admin, { name: 'x', dataset: 'channel_region', columns: 'regionName,online' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('所选的列不属于该数据集');
    expect(bad.json().msg).toContain('regionCode, regionName, total');
    const en = await save(admin, { name: 'x', dataset: 'online_day' }, 'en');
    expect(en.statusCode).toBe(400);
    expect(en.json().msg).toBe('This dataset is read by day: choose a start and an end date (at most 366 days)');
    const zh = await save(admin, { name: 'x', dataset: 'approval_result', dateFrom: '2026-01-01' });
    expect(zh.json().msg).toBe('该数据集按天读取，请选择开始日期和结束日期（不超过 366 天）');
    const long = await save(
      admin,
      { name: 'x', dataset: 'online_day', dateFrom: '2025-01-01', dateTo: '2026-01-02' },
      'en',
    );
    expect([long.statusCode, long.json().msg]).toEqual([400, 'The date range cannot be longer than 366 days']);
    const reversed = await save(admin, {
      name: 'x',
      dataset: 'device_region',
      dateFrom: '2026-02-01',
      dateTo: '2026-01-01',
    });
    expect([reversed.statusCode, reversed.json().msg]).toEqual([400, '结束日期不能早于开始日期']);
    const chart = await save(admin, { name: 'x', dataset: 'device_region', chart: 'radar' });
    expect(chart.statusCode).toBe(400);
    const rows = await withTenant(t.services.db, T, (tx) =>
      tx.select().from(reportTable).where(eq(reportTable.name, 'x')),
    );
    expect(rows).toEqual([]);
  });
});

describe('running each dataset', () => {
  it('devices by region, with names, totals and the online rate', async () => {
    const id = await created({ name: 'd', dataset: 'device_region' });
    const r = await run(admin, id);
    expect(r.columns.map((c) => c.key)).toEqual([
      'regionCode',
      'regionName',
      'deviceType',
      'total',
      'online',
      'onlineRate',
    ]);
    expect(r.total).toBe(3);
    expect(r.rows.map((x) => [x[0], x[2], x[3], x[4], x[5]])).toEqual([
      ['110101', '118', 1, 1, 100],
      ['110101', '131', 2, 1, 50],
      ['110102', '132', 1, 1, 100],
    ]);
    expect(r.rows[0][1]).toBe('东城区');
    const typed = await created({
      name: 'd2',
      dataset: 'device_region',
      deviceType: '131',
      columns: 'deviceType,total',
    });
    expect((await run(admin, typed)).rows).toEqual([['131', 2]]);
  });

  it('online rate by day reads the district rows of the rollup in the range', async () => {
    const id = await created({
      name: 'o',
      dataset: 'online_day',
      dateFrom: '2026-01-02',
      dateTo: '2026-01-31',
      columns: 'day,regionCode,onlineRate',
    });
    expect((await run(admin, id)).rows).toEqual([
      ['2026-01-02', '110101', 50],
      ['2026-01-02', '110102', 80],
    ]);
  });

  it('clients by status and month, approvals by result, channels by region', async () => {
    const c = await created({
      name: 'c',
      dataset: 'client_status_month',
      dateFrom: '2026-01-01',
      dateTo: '2026-12-31',
    });
    expect((await run(admin, c)).rows).toEqual([
      ['2026-03', '待审核', 1],
      ['2026-03', '已通过', 1],
      ['2026-04', '已通过', 1],
    ]);
    const a = await created({ name: 'a', dataset: 'approval_result', dateFrom: '2026-03-01', dateTo: '2026-03-31' });
    const en = (await client(t, admin, 'en').get(`${BASE}/run?id=${a}`)).json().data as Run;
    expect(en.columns.map((x) => x.label)).toEqual(['Type', 'Status', 'Count']);
    expect(en.rows).toEqual([
      ['Client registration', 'Approved', 2],
      ['Client registration', 'Rejected', 1],
    ]);
    const ch = await created({ name: 'ch', dataset: 'channel_region', columns: 'regionCode,total' });
    expect((await run(admin, ch)).rows).toEqual([
      ['110101', 2],
      ['110102', 1],
    ]);
  });

  it('pages, and refuses pages beyond the first 10,000 rows, bad sizes and unknown parameters', async () => {
    const id = await created({ name: 'p', dataset: 'device_region' });
    const p2 = await run(admin, id, '&current=2&size=2');
    expect([p2.rows.length, p2.total]).toEqual([1, 3]);
    const far = await client(t, admin, 'en').get(`${BASE}/run?id=${id}&current=21&size=500`);
    expect([far.statusCode, far.json().msg]).toEqual([
      400,
      'At most 10000 rows are shown here; export the report for the rest',
    ]);
    for (const q of ['&size=0', '&size=501', '&current=abc', '&sort=1']) {
      const res = await client(t, admin).get(`${BASE}/run?id=${id}${q}`);
      expect([q, res.statusCode]).toEqual([q, 400]);
    }
    const fmt = await client(t, admin, 'en').get(`${BASE}/export?id=${id}&format=pdf`);
    expect(fmt.statusCode).toBe(400);
    expect(fmt.json().msg).toContain('The export format is csv or xlsx');
  });

  it('a definition left without its range (written outside the API) is refused, not read whole', async () => {
    const id = await created({ name: 'u', dataset: 'online_day', dateFrom: '2026-01-01', dateTo: '2026-01-02' });
    await withTenant(t.services.db, T, (tx) =>
      tx.execute(sql`update report set date_from = null, date_to = null where id = ${id}`),
    );
    for (const url of [`${BASE}/run?id=${id}`, `${BASE}/export?id=${id}&format=csv`]) {
      const res = await client(t, admin, 'en').get(url);
      expect([res.statusCode, res.json().msg]).toEqual([
        400,
        'This dataset is read by day: choose a start and an end date (at most 366 days)',
      ]);
    }
  });
});

describe('data scope and tenants', () => {
  it('a region admin’s report covers its region only, on every dataset', async () => {
    const ids = {
      device: await created({ name: 's1', dataset: 'device_region', columns: 'regionCode' }),
      day: await created({
        name: 's2',
        dataset: 'online_day',
        dateFrom: '2026-01-01',
        dateTo: '2026-01-02',
        columns: 'regionCode',
      }),
      clients: await created({
        name: 's3',
        dataset: 'client_status_month',
        dateFrom: '2026-01-01',
        dateTo: '2026-12-31',
        columns: 'count',
      }),
      approvals: await created({
        name: 's4',
        dataset: 'approval_result',
        dateFrom: '2026-01-01',
        dateTo: '2026-12-31',
        columns: 'count',
      }),
      channels: await created({ name: 's5', dataset: 'channel_region', columns: 'regionCode' }),
    };
    expect((await run(regional, ids.device)).rows).toEqual([['110101'], ['110101']]);
    expect((await run(regional, ids.day)).rows).toEqual([['110101'], ['110101']]);
    expect((await run(regional, ids.clients)).rows).toEqual([[1], [1]]);
    expect((await run(regional, ids.approvals)).rows).toEqual([[1], [1]]);
    expect((await run(regional, ids.channels)).rows).toEqual([['110101']]);
    // A region named outside its own reads nothing more.
    const outside = await created({
      name: 's6',
      dataset: 'device_region',
      regionCode: '110102',
      columns: 'regionCode',
    });
    expect((await run(regional, outside)).rows).toEqual([]);
    const csv = await client(t, regional).get(`${BASE}/export?id=${ids.device}&format=csv`);
    expect(csv.body).not.toContain('110102');
  });

  it('another tenant’s report is a 404 on detail, run, export, submit and remove', async () => {
    const id = await created({ name: 'mine', dataset: 'device_region' });
    const o = client(t, other);
    for (const url of [`${BASE}/detail?id=${id}`, `${BASE}/run?id=${id}`, `${BASE}/export?id=${id}&format=xlsx`])
      expect([url, (await o.get(url)).statusCode]).toEqual([url, 404]);
    expect((await o.post(`${BASE}/submit`, { id, name: 'stolen', dataset: 'device_region' })).statusCode).toBe(404);
    expect((await o.post(`${BASE}/remove?ids=${id}`)).statusCode).toBe(404);
    expect((await o.get(`${BASE}/list`)).json().data.records).toEqual([]);
  });
});

describe('export', () => {
  it('csv: a BOM, the labels, one line per row, the row count in a header', async () => {
    const id = await created({
      name: 'e',
      dataset: 'device_region',
      columns: 'regionCode,deviceType,total,onlineRate',
    });
    const res = await client(t, admin, 'en').get(`${BASE}/export?id=${id}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['x-report-rows']).toBe('3');
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(res.body).toBe(
      '\ufeffRegion code,Device type,Total,Online rate (%)\r\n110101,118,1,100\r\n110101,131,2,50\r\n110102,132,1,100\r\n',
    );
  });

  it('xlsx: read back with exceljs, labels in Chinese', async () => {
    const id = await created({ name: 'x1', dataset: 'channel_region' });
    const res = await client(t, admin).get(`${BASE}/export?id=${id}&format=xlsx`);
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    // exceljs types its input as the DOM's Buffer (ArrayBuffer), the reply holds Node's: the same bytes.
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.name).toBe('报表');
    const values = sheet
      .getSheetValues()
      .slice(1)
      .map((r) => (r as unknown[]).slice(1));
    expect(values[0]).toEqual(['区域编码', '区域名称', '总数']);
    expect(values.slice(1).map((r) => [r[0], r[2]])).toEqual([
      ['110101', 2],
      ['110102', 1],
    ]);
  });

  it('a cancelled export reads no further batch', async () => {
    const id = await created({ name: 'k', dataset: 'online_day', dateFrom: '2026-01-01', dateTo: '2026-01-02' });
    const [d] = await withTenant(t.services.db, T, (tx) => tx.select().from(reportTable).where(eq(reportTable.id, id)));
    const auth = (await t.services.tokens.verifyAccess(admin)) as AuthContext;
    // Every row, one per batch: four batches.
    let all = 0;
    for await (const b of exportBatches(t.services, auth, d, 'zh', { batch: 1 })) all += b.length;
    expect(all).toBe(4);
    const stop = new AbortController();
    let read = 0;
    for await (const b of exportBatches(t.services, auth, d, 'zh', { batch: 1, signal: stop.signal })) {
      read += b.length;
      stop.abort();
    }
    expect(read).toBe(1);
  });

  it('csv cells: separators and quotes quoted, line breaks flattened, formulas defused, plain text as it is', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    async function* one() {
      yield [['a,b', '"q"', 'x\r\ny', '=1+1', '-2', '@a', '"', ',', 'plain 中文', '', null, 3.5]];
    }
    await writeCsv(out, ['h'], one());
    const lines = Buffer.concat(chunks).toString('utf8').split('\r\n');
    expect(lines[1]).toBe(`"a,b","""q""",x y,'=1+1,'-2,'@a,"""",",",plain 中文,,,3.5`);
  });

  it('xlsx in its worker: the batches in order, read back; a cancel ends it after the batch in hand', async () => {
    const write = async (signal?: AbortController) => {
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on('data', (c: Buffer) => chunks.push(c));
      async function* three() {
        for (let b = 0; b < 3; b++) {
          yield [[`r${b}`, b]];
          if (b === 0) signal?.abort();
        }
      }
      const rows = await writeXlsx(out, { name: 'S', heads: ['name', 'n'] }, three(), signal?.signal);
      return { rows, bytes: Buffer.concat(chunks) };
    };
    const whole = await write();
    const book = new ExcelJS.Workbook();
    // exceljs types its input as the DOM's Buffer (ArrayBuffer); Node's Buffer holds the same bytes.
    await book.xlsx.load(whole.bytes as unknown as ArrayBuffer);
    const values = book.worksheets[0].getSheetValues().slice(1);
    expect([whole.rows, values.map((r) => (r as unknown[]).slice(1))]).toEqual([
      3,
      [
        ['name', 'n'],
        ['r0', 0],
        ['r1', 1],
        ['r2', 2],
      ],
    ]);
    const cancelled = await write(new AbortController());
    expect(cancelled.rows).toBe(1);
  });
});
