import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, inArray, lte, sql } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import ExcelJS from 'exceljs';
import { menu, role, roleMenu } from '../src/db/schema/index.ts';
import { seedIfEmpty } from '../src/seed/seed.ts';
import { divisions, regionRows } from '../src/seed/regions.ts';
import { registerRegionUsage } from '../src/modules/region/service.ts';
import { region } from '../src/modules/region/table.ts';
import { xlsxFile, type XlsxCell as Cell } from '../src/platform/xlsx.ts';
import { ADMIN_PASSWORD, bearer, client, createTestApp, loginToken, provisionedTenant, tenantUser } from './harness.ts';
import type { TestApp } from './harness.ts';
import { rowsOf } from '../src/db/rows.ts';

/**
 * Regions (docs/product.md "Regions"): the seed from the registry package, the code rules of submit, lazy-tree,
 * detail by code, removal refusals, and the xlsx export and import (all rows or none).
 */
const BASE = '/api/blade-system/region';
let t: TestApp;
let platform: string;
let tenantAdmin: string;
let nobody: string;

type Node = { id: string; parentId: string; title: string; key: string; value: string; hasChildren: boolean };
type Region = Record<string, unknown> & { id: string; code: string; name: string; version: number };

beforeAll(async () => {
  t = await createTestApp();
  platform = (await loginToken(t)).access;
  tenantAdmin = (await provisionedTenant(t, platform, '760001')).token;
  nobody = await tenantUser(t, '760002', 'no-codes', []);
});
afterAll(async () => t?.close());

const api = (token = platform, lang?: 'en') => client(t, token, lang);
const detail = async (code: string) => (await api().get(`${BASE}/detail?code=${code}`)).json().data as Region;
const live = async (...where: Parameters<typeof and>) =>
  (
    await t.services.db
      .select({ n: count() })
      .from(region)
      .where(and(eq(region.isDeleted, 0), ...where))
  )[0].n;

/** A multipart upload of one file, as the screen sends it. */
function upload(token: string, file: Buffer, lang?: 'en') {
  const boundary = `----atrium${Date.now().toString(16)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="regions.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`;
  return t.app.inject({
    method: 'POST',
    url: `${BASE}/import`,
    headers: {
      ...bearer(token),
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(lang ? { 'accept-language': lang } : {}),
    },
    payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
}

const sheet = (heads: string[], rows: Cell[][]) => xlsxFile({ name: 'regions', heads, rows });

describe('seed', () => {
  it('holds the whole country to district level, from the package', async () => {
    const upToDistricts = await live(lte(region.level, 3));
    expect(upToDistricts).toBeGreaterThanOrEqual(3000);
    expect(upToDistricts).toBe(divisions('provinces').length + divisions('cities').length + divisions('areas').length);
    expect(await live(eq(region.level, 1))).toBe(31);
    const westLake = await detail('330106');
    expect(westLake).toMatchObject({
      code: '330106',
      parentCode: '3301',
      ancestors: '00,33,3301',
      level: 3,
      provinceCode: '33',
      provinceName: '浙江省',
      cityCode: '3301',
      cityName: '杭州市',
      districtCode: '330106',
      districtName: '西湖区',
      townCode: null,
    });
  });

  it('fills the regions of an existing database whose region table is empty, and only then', async () => {
    const before = await live();
    expect(await seedIfEmpty(t.services.db, { adminPassword: ADMIN_PASSWORD })).toBe(false);
    expect(await live()).toBe(before);
    await t.services.db.delete(region);
    const started = performance.now();
    expect(await seedIfEmpty(t.services.db, { adminPassword: ADMIN_PASSWORD })).toBe(false);
    console.log(`regions seeded: ${before} rows in ${Math.round(performance.now() - started)} ms`);
    expect(await live()).toBe(before);
    const rows = regionRows(4);
    expect(rows.filter((r) => r.level === 4).length).toBeGreaterThan(40000);
  });
});

describe('lazy-tree and detail', () => {
  it('answers one level with hasChildren, to anyone', async () => {
    const roots = (await api(nobody).get(`${BASE}/lazy-tree`)).json().data as Node[];
    expect(roots).toHaveLength(31);
    expect(roots.find((n) => n.id === '33')).toEqual({
      id: '33',
      parentId: '00',
      title: '浙江省',
      key: '33',
      value: '33',
      level: 1,
      hasChildren: true,
      children: [],
    });
    const hangzhou = (await api(nobody).get(`${BASE}/lazy-tree?parentCode=3301`)).json().data as Node[];
    expect(hangzhou.map((n) => n.id)).toContain('330106');
    expect(hangzhou.every((n) => n.parentId === '3301' && !n.hasChildren)).toBe(true);
    expect((await api(nobody).get(`${BASE}/lazy-tree?parentCode=x1`)).statusCode).toBe(400);
    // Public (the registration page picks a region before any login), limited per client address.
    const anon = (n: number) => t.app.inject({ method: 'GET', url: `${BASE}/lazy-tree`, remoteAddress: `10.7.7.${n}` });
    expect(((await anon(1)).json().data as Node[]).map((n) => n.id)).toContain('33');
    for (let i = 0; i < 299; i++) await anon(1);
    const over = await anon(1);
    expect([over.statusCode, over.json().msg]).toEqual([429, '请求过于频繁，请稍后再试']);
    expect((await anon(2)).statusCode).toBe(200);
  });

  it('finds a record by code or by id; the screen code guards both', async () => {
    const byCode = await detail('3301');
    expect(byCode).toMatchObject({ code: '3301', name: '杭州市', level: 2 });
    const byId = (await api().get(`${BASE}/detail?id=${byCode.id}`)).json().data as Region;
    expect(byId.code).toBe('3301');
    expect((await api().get(`${BASE}/detail?code=339999`)).statusCode).toBe(404);
    const neither = await api(platform, 'en').get(`${BASE}/detail`);
    expect([neither.statusCode, neither.json().msg]).toEqual([400, 'Name the region by code or id']);
    expect((await api(nobody).get(`${BASE}/detail?code=3301`)).statusCode).toBe(403);
    expect((await api(tenantAdmin).get(`${BASE}/detail?code=3301`)).statusCode).toBe(200);
  });
});

describe('submit', () => {
  const save = (body: object, token = platform) => api(token, 'en').post(`${BASE}/submit`, body);
  const fieldOf = (res: Awaited<ReturnType<typeof save>>) =>
    (res.json().data as { field: string; message: string }[])[0];

  it('checks that a code extends its parent by the digits of its level', async () => {
    const cases: [object, string, string][] = [
      [{ code: '3301999', name: 'x' }, 'code', 'A region code has 2, 4, 6, 9 or 12 digits'],
      [{ code: '00', name: 'x' }, 'code', 'A region code has 2, 4, 6, 9 or 12 digits'],
      [
        { parentCode: '3301', code: '330299', name: 'x' },
        'code',
        'The code must start with the parent code 3301 and have 6 digits',
      ],
      [{ parentCode: '3301', code: '33010601', name: 'x' }, 'code', 'A region code has 2, 4, 6, 9 or 12 digits'],
      [
        { parentCode: '330106', code: '330106001001', name: 'x' },
        'code',
        'The code must start with the parent code 330106 and have 9 digits',
      ],
      [{ parentCode: '00', code: '3399', name: 'x' }, 'code', 'A province code has 2 digits'],
      [{ code: '999901', name: 'x' }, 'parentCode', 'The parent region does not exist'],
      [{ parentCode: '331', code: '331001', name: 'x' }, 'parentCode', 'The parent region does not exist'],
      [{ code: '33', name: 'x' }, 'code', 'The region code already exists'],
    ];
    for (const [body, field, message] of cases) {
      const res = await save(body);
      expect([body, res.statusCode, fieldOf(res)]).toEqual([body, 400, { field, message }]);
    }
    expect((await save({ code: '98', name: 'x' }, tenantAdmin)).statusCode).toBe(403);
  });

  it('fills ancestors, level and the level columns from the parent; a rename reaches the regions below', async () => {
    const town = await save({ code: '330106901', name: '测试街道', sort: 3 });
    expect(town.statusCode).toBe(200);
    expect(town.json().data).toMatchObject({
      parentCode: '330106',
      ancestors: '00,33,3301,330106',
      level: 4,
      provinceName: '浙江省',
      cityName: '杭州市',
      districtCode: '330106',
      districtName: '西湖区',
      townCode: '330106901',
      townName: '测试街道',
      villageCode: null,
    });
    const village = await save({ parentCode: '330106901', code: '330106901001', name: '测试村' });
    expect(village.json().data).toMatchObject({ level: 5, townName: '测试街道', villageName: '测试村' });

    // The parent and the code stay as created; the name moves into the level columns of the region and below.
    const west = await detail('330106');
    const renamed = await save({ ...west, parentCode: '00', code: '11', name: '西湖区改' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({ code: '330106', parentCode: '3301', districtName: '西湖区改' });
    expect(await detail('330106901001')).toMatchObject({ districtName: '西湖区改', townName: '测试街道' });
    const back = await save({ ...(await detail('330106')), name: '西湖区' });
    expect(back.statusCode).toBe(200);
    expect((await detail('330106901')).districtName).toBe('西湖区');
  });
});

describe('remove', () => {
  let inUse: string | null = null;
  beforeAll(() =>
    registerRegionUsage(t.services, async (_tx, codes) => (inUse && codes.includes(inUse) ? inUse : null)),
  );

  it('refuses a region with children, and one in use; removes by id or ids', async () => {
    await api().post(`${BASE}/submit`, { code: '98', name: '测试省' });
    await api().post(`${BASE}/submit`, { code: '9801', name: '测试市' });
    const province = await detail('98');
    const city = await detail('9801');

    const refused = await api(platform, 'en').post(`${BASE}/remove?ids=${province.id}`);
    expect([refused.statusCode, refused.json().msg]).toEqual([400, 'Remove its sub-regions first']);

    inUse = '9801';
    const used = await api(platform, 'en').post(`${BASE}/remove?id=${city.id}`);
    expect([used.statusCode, used.json().msg]).toEqual([400, 'Region 测试市 is in use and cannot be removed']);
    inUse = null;

    expect((await api(tenantAdmin).post(`${BASE}/remove?id=${city.id}`)).statusCode).toBe(403);
    expect((await api().post(`${BASE}/remove`)).statusCode).toBe(400);
    expect((await api().post(`${BASE}/remove?id=${city.id}`)).statusCode).toBe(200);
    // A province and its last child together are fine.
    await api().post(`${BASE}/submit`, { code: '9802', name: '测试市' });
    const second = await detail('9802');
    expect((await api().post(`${BASE}/remove?ids=${province.id},${second.id}`)).statusCode).toBe(200);
    expect((await api().get(`${BASE}/detail?code=98`)).statusCode).toBe(404);
  });
});

describe('remove: regions of users and clients', () => {
  it("refuses a region still some tenant's user's or client's region, naming neither; allows it once they move", async () => {
    await api().post(`${BASE}/submit`, { code: '97', name: '用户省' });
    await api().post(`${BASE}/submit`, { code: '9701', name: '用户市' });
    const city = await detail('9701');

    // A user of another tenant (760001) in the region: the platform's removal is refused in the reader's language.
    const roles = await api(tenantAdmin).get('/api/blade-system/role/list?roleAlias=region_admin');
    const roleId = roles.json().data.records[0].id as string;
    const made = await api(tenantAdmin).post('/api/blade-user/submit', {
      account: 'region-9701',
      realName: 'r9701',
      password: 'Region#2026x',
      roleIds: [roleId],
      regionCode: '9701',
    });
    expect([made.statusCode, made.body.slice(0, 200)]).toEqual([200, made.body.slice(0, 200)]);
    const userId = made.json().data.id as string;

    const en = await api(platform, 'en').post(`${BASE}/remove?ids=${city.id}`);
    expect([en.statusCode, en.json().msg]).toEqual([
      400,
      "Region 用户市 is still a user's region; change those users' region first",
    ]);
    const zh = await api().post(`${BASE}/remove?id=${city.id}`);
    expect([zh.statusCode, zh.json().msg]).toEqual([400, '区划 用户市 仍是用户的所属区域，请先修改这些用户的区域']);
    // Nothing of the tenant or the user leaks into the answer.
    expect(zh.body).not.toContain('760001');
    expect(zh.body).not.toContain('region-9701');
    expect((await detail('9701')).id).toBe(city.id);

    // The user moves elsewhere (a removed user would count no more either); a client of the platform's tenant
    // in the region refuses it next.
    const user = (await api(tenantAdmin).get(`/api/blade-user/detail?id=${userId}`)).json().data;
    const moved = await api(tenantAdmin).post('/api/blade-user/submit', {
      ...user,
      password: undefined,
      regionCode: '110101',
    });
    expect([moved.statusCode, moved.body.slice(0, 200)]).toEqual([200, moved.body.slice(0, 200)]);
    const entered = await api().post('/api/blade-business/clientInfo/submit', {
      clientName: '用户市客户',
      clientType: 1,
      creditCode: '91110108MA01ABCD0B',
      contactName: '张三',
      contactIdCard: '11010519491231002X',
      operatorTel: '13700009701',
      email: 'c9701@example.com',
      regionCode: '9701',
    });
    expect([entered.statusCode, entered.body.slice(0, 200)]).toEqual([200, entered.body.slice(0, 200)]);
    const clientId = entered.json().data.id as string;
    const byClient = await api(platform, 'en').post(`${BASE}/remove?ids=${city.id}`);
    expect([byClient.statusCode, byClient.json().msg]).toEqual([
      400,
      "Region 用户市 is still a client's region; change those clients' region first",
    ]);
    expect((await api().post(`${BASE}/remove?id=${city.id}`)).json().msg).toBe(
      '区划 用户市 仍是客户的所在区域，请先修改这些客户的区域',
    );

    // A removed client no longer holds it: the region and its province go.
    expect((await api().post(`/api/blade-business/clientInfo/remove?ids=${clientId}`)).statusCode).toBe(200);
    expect((await api().post(`${BASE}/remove?id=${city.id}`)).statusCode).toBe(200);
    expect((await api().post(`${BASE}/remove?id=${(await detail('97')).id}`)).statusCode).toBe(200);
  });

  it('the functions answer a boolean and nothing else', async () => {
    const res = await rowsOf(
      t.services.db,
      sql`select atrium_region_used_by_users('110101') as u, atrium_region_used_by_clients('999999') as c`,
    );
    expect(res[0]).toEqual({ u: true, c: false });
  });
});

describe('export and import', () => {
  const exported = async (query: string, token = platform, lang?: 'en') => {
    const res = await api(token, lang).get(`${BASE}/export${query}`);
    return { res, rows: res.statusCode === 200 ? await readSheet(res.rawPayload) : [] };
  };

  it('exports a subtree or everything as xlsx, with headers in the reader language', async () => {
    const { res, rows } = await exported('?code=3301');
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(rows[0].slice(0, 4)).toEqual(['区划编号', '上级区划', '区划名称', '区划等级']);
    const subtree = await t.services.db
      .select({ code: region.code })
      .from(region)
      .where(and(eq(region.isDeleted, 0), sql`${region.code} like '3301%'`))
      .orderBy(region.code);
    expect(rows.slice(1).map((r) => r[0])).toEqual(subtree.map((r) => r.code));
    expect(rows[1]).toEqual(expect.arrayContaining(['3301', '33', '杭州市', 2]));
    const all = await exported('', platform, 'en');
    expect(all.rows[0].slice(0, 3)).toEqual(['Code', 'Parent region', 'Name']);
    expect(all.rows.length - 1).toBe(await live());
    expect((await api().get(`${BASE}/export?nosuch=1`)).statusCode).toBe(400);
    expect((await api().get(`${BASE}/export?code=abc`)).statusCode).toBe(400);
    expect((await api(nobody).get(`${BASE}/export`)).statusCode).toBe(403);
    // A tenant reads regions like everyone; its package has the export button.
    expect((await api(tenantAdmin).get(`${BASE}/export?code=33`)).statusCode).toBe(200);
  });

  it('imports the exported workbook as it is: every row unchanged; the header frozen, columns widened', async () => {
    const { res } = await exported('?code=33', platform, 'en');
    const count33 = (await exported('?code=33')).rows.length - 1;
    const book = new ExcelJS.Workbook();
    // exceljs types its input as the DOM's Buffer (ArrayBuffer); Node's Buffer holds the same bytes.
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = book.worksheets[0];
    expect([ws.name, ws.views[0]?.state, ws.getColumn(1).width, ws.getColumn(3).width]).toEqual([
      'Regions',
      'frozen',
      14,
      20,
    ]);
    const again = await upload(platform, res.rawPayload, 'en');
    expect([again.statusCode, again.json().data]).toEqual([
      200,
      { total: count33, inserted: 0, updated: 0, unchanged: count33, errors: [] },
    ]);
  });

  it('round-trips: an exported sheet, edited, upserts by code', async () => {
    const { rows } = await exported('?code=3302');
    const [header, ...body] = rows as Cell[][];
    const count3302 = body.length;
    // Rename one district, add a town below another, leave the rest as exported.
    const renamedAt = body.findIndex((r) => r[0] === '330203');
    body[renamedAt] = body[renamedAt].map((c, i) => (i === 2 ? '海曙区新' : c));
    body.push(['330203901', '330203', '导入街道', 4, 7, '由导入新增']);
    const res = await upload(platform, await sheet(header as string[], body), 'en');
    expect([res.statusCode, res.json().data]).toEqual([
      200,
      { total: count3302 + 1, inserted: 1, updated: 1, unchanged: count3302 - 1, errors: [] },
    ]);
    expect(res.json().msg).toBe('Imported: 1 added, 1 updated');
    expect(await detail('330203901')).toMatchObject({
      name: '导入街道',
      level: 4,
      ancestors: '00,33,3302,330203',
      districtName: '海曙区新',
      sort: 7,
      remark: '由导入新增',
    });
    expect((await detail('330203')).name).toBe('海曙区新');
    // The same file again changes nothing.
    const again = await upload(platform, await sheet(header as string[], body));
    expect(again.json().data).toMatchObject({ inserted: 0, updated: 0, unchanged: count3302 + 1 });
  });

  it('reports every bad row and writes nothing', async () => {
    const before = await live();
    const file = await sheet(
      ['code', 'parentCode', 'name', 'sort'],
      [
        ['330212901', '330212', '好的街道', 1],
        ['abc', '', '坏编号', 1],
        ['330212902', '330212', '', 1],
        ['330212901', '330212', '重复', 1],
        ['339999901', '339999', '无上级', 1],
        ['330212903', '3302', '上级不符', 1],
        ['330212904', '330212', '排序错', -1],
        [],
        [330212905, 330212, '数字编号', 2],
      ],
    );
    const res = await upload(platform, file, 'en');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('Nothing was imported: 6 rows have errors; correct them and import again');
    expect(res.json().data.errors).toEqual([
      { row: 3, code: 'abc', message: 'A region code has 2, 4, 6, 9 or 12 digits' },
      { row: 4, code: '330212902', message: 'Enter the region name' },
      { row: 5, code: '330212901', message: 'The code appears twice in the file (also row 2)' },
      { row: 6, code: '339999901', message: 'The parent region does not exist' },
      { row: 7, code: '330212903', message: 'The parent code must be 330212' },
      { row: 8, code: '330212904', message: 'The sort order is a whole number from 0 to 999999' },
    ]);
    expect(await live()).toBe(before);
    expect((await api().get(`${BASE}/detail?code=330212901`)).statusCode).toBe(404);
  });

  it('refuses what is not an xlsx workbook, a sheet without its columns, and callers without the import code', async () => {
    const notXlsx = await upload(platform, Buffer.from('code,name\n11,x\n'), 'en');
    expect([notXlsx.statusCode, notXlsx.json().msg]).toEqual([400, 'The file is not a valid xlsx workbook']);
    const noColumns = await upload(platform, await sheet(['a', 'b'], [['11', 'x']]), 'en');
    expect(noColumns.statusCode).toBe(400);
    expect((await api(platform, 'en').post(`${BASE}/import`, {})).json().msg).toBe('Choose an xlsx file to import');
    expect((await upload(tenantAdmin, await sheet(['code', 'name'], [['98', 'x']]))).statusCode).toBe(403);
  });

  it('loads a level of towns from the package through the import', async () => {
    const streets = divisions('streets').filter((d) => d.code.startsWith('11'));
    const started = Date.now();
    const res = await upload(
      platform,
      await sheet(
        ['区划编号', '区划名称'],
        streets.map((d) => [d.code, d.name]),
      ),
    );
    expect([res.statusCode, res.json().data.inserted]).toEqual([200, streets.length]);
    expect(Date.now() - started).toBeLessThan(30_000);
    const dongcheng = (await api().get(`${BASE}/lazy-tree?parentCode=110101`)).json().data as Node[];
    expect(dongcheng.length).toBe(streets.filter((d) => d.code.startsWith('110101')).length);
    const beijing = (await api().get(`${BASE}/lazy-tree?parentCode=1101`)).json().data as Node[];
    expect(beijing.find((n) => n.id === '110101')?.hasChildren).toBe(true);
    expect(await detail(streets[0].code)).toMatchObject({ level: 4, provinceName: '北京市', districtCode: '110101' });
  });
});

describe('permission codes', () => {
  it('the button migration adds import and export to a database seeded without them', async () => {
    const db = t.services.db;
    const buttons = await db
      .select({ id: menu.id })
      .from(menu)
      .where(inArray(menu.code, ['region_import', 'region_export']));
    await db.delete(roleMenu).where(
      inArray(
        roleMenu.menuId,
        buttons.map((b) => b.id),
      ),
    );
    await db.delete(menu).where(
      inArray(
        menu.id,
        buttons.map((b) => b.id),
      ),
    );
    const file = new URL('../src/db/migrations/0013_region_buttons.sql', import.meta.url);
    for (const statement of fs.readFileSync(file, 'utf8').split('--> statement-breakpoint'))
      await db.execute(sql.raw(statement));
    const added = await db
      .select({ code: menu.code, parent: menu.parentId, category: menu.category })
      .from(menu)
      .where(inArray(menu.code, ['region_import', 'region_export']));
    const [screen] = await db.select({ id: menu.id }).from(menu).where(eq(menu.code, 'region'));
    expect(added.sort((a, b) => a.code.localeCompare(b.code))).toEqual([
      { code: 'region_export', parent: screen.id, category: 2 },
      { code: 'region_import', parent: screen.id, category: 2 },
    ]);
    // Every administrator role held the screen and adding: both buttons are theirs again.
    const admins = await db.select({ id: role.id }).from(role).where(eq(role.roleAlias, 'administrator'));
    const held = await db
      .select({ n: count() })
      .from(roleMenu)
      .innerJoin(menu, eq(menu.id, roleMenu.menuId))
      .where(
        and(
          inArray(
            roleMenu.roleId,
            admins.map((a) => a.id),
          ),
          inArray(menu.code, ['region_import', 'region_export']),
        ),
      );
    expect(held[0].n).toBe(admins.length * 2);
    t.services.cache.clearAll();
    expect((await api().get(`${BASE}/export?code=11`)).statusCode).toBe(200);
  });
});
