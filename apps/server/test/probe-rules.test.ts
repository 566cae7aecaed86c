// Issue 24 §4.1–4.3, §4.4's server half: business rules the probe found open (docs/clients.md, docs/devices.md,
// docs/web.md). 1. a record is added or moved only inside its writer's data scope — clients as devices; 2. the creator
// of an application cannot decide it unless the tenant allows it; 3. a client's devices lie within its region;
// 4. the origins the console may frame come from a platform parameter every signed-in user reads.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.ts';
import { param, user } from '../src/db/schema/index.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { approvalTable } from '../src/modules/approval/table.ts';
import { approvalTexts } from '../src/modules/approval/messages.ts';
import { clientInfo } from '../src/modules/client/table.ts';
import { clientTexts } from '../src/modules/client/messages.ts';
import { deviceTexts } from '../src/modules/device/messages.ts';
import { client, createTestApp, loginToken, provisionedTenant, userToken, type TestApp } from './harness.ts';

const T = '740001';
let t: TestApp;
let platform: string;
let admin: string;

const clients = '/api/blade-business/clientInfo';
const approvals = '/api/blade-business/approval';
const cameras = '/api/blade-device-access/cameraDevice';

async function roleId(alias: string) {
  const res = await client(t, admin).get(`/api/blade-system/role/list?roleAlias=${alias}`);
  const list = res.json().data as
    { id: string; roleAlias: string }[] | { records: { id: string; roleAlias: string }[] };
  return (Array.isArray(list) ? list : list.records).find((r) => r.roleAlias === alias)!.id;
}

/** A user of the tenant with a product role and a region. */
async function staff(account: string, alias: string, regionCode: string) {
  const res = await client(t, admin).post('/api/blade-user/submit', {
    account,
    realName: account.slice(-10),
    password: 'Staff#2026x',
    roleIds: [await roleId(alias)],
    regionCode,
  });
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return userToken(t, T, account, 'Staff#2026x');
}

const form = (phone: string, over: Record<string, unknown> = {}) => ({
  clientName: `客户${phone.slice(-4)}`,
  clientType: 1,
  creditCode: '91110108MA01ABCD0B',
  contactName: '张三',
  contactIdCard: '11010519491231002X',
  operatorTel: phone,
  email: `c${phone}@example.com`,
  regionCode: '110101',
  address: '东城区某街 1 号',
  ...over,
});

const clientRows = (phone: string) =>
  withTenant(t.services.db, T, (tx) =>
    tx
      .select({ id: clientInfo.id, regionCode: clientInfo.regionCode })
      .from(clientInfo)
      .where(and(eq(clientInfo.tenantId, T), eq(clientInfo.operatorTel, phone), eq(clientInfo.isDeleted, 0))),
  );
const approvalsOf = (referId: string) =>
  withTenant(t.services.db, T, (tx) =>
    tx
      .select({ id: approvalTable.id, status: approvalTable.status, createUser: approvalTable.createUser })
      .from(approvalTable)
      .where(and(eq(approvalTable.tenantId, T), eq(approvalTable.referId, referId))),
  );

beforeAll(async () => {
  t = await createTestApp();
  platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, T)).token;
});
afterAll(async () => t?.close());

describe('1. a region admin enters clients only inside its data scope', () => {
  it('another district: 400 in zh and en, no client, no approval; its own district: the client and its approval', async () => {
    const a = await staff('rule_region_a', 'region_admin', '110101');
    const far = await client(t, a).post(`${clients}/submit`, form('13600000001', { regionCode: '110102' }));
    expect([far.statusCode, far.json().msg]).toEqual([400, clientTexts.outsideScope.zh]);
    const farEn = await client(t, a, 'en').post(`${clients}/submit`, form('13600000001', { regionCode: '110102' }));
    expect([farEn.statusCode, farEn.json().msg]).toEqual([400, clientTexts.outsideScope.en]);
    expect(await clientRows('13600000001')).toEqual([]);
    // An ancestor region is outside too.
    const up = await client(t, a).post(`${clients}/submit`, form('13600000002', { regionCode: '11' }));
    expect([up.statusCode, up.json().msg]).toEqual([400, clientTexts.outsideScope.zh]);
    expect(await clientRows('13600000002')).toEqual([]);

    const near = await client(t, a).post(`${clients}/submit`, form('13600000003'));
    expect([near.statusCode, near.body.slice(0, 200)]).toEqual([200, near.body.slice(0, 200)]);
    const [row] = await clientRows('13600000003');
    expect((await approvalsOf(row.id)).map((r) => r.status)).toEqual([0]);
    // Moving its own client out of its region is refused as well; the record stays where it was.
    const move = await client(t, a).post(`${clients}/submit`, {
      ...form('13600000003', { regionCode: '110102' }),
      id: row.id,
    });
    expect([move.statusCode, move.json().msg]).toEqual([400, clientTexts.outsideScope.zh]);
    expect((await clientRows('13600000003'))[0].regionCode).toBe('110101');
    // The tenant administrator (data scope all) enters a client anywhere.
    expect(
      (await client(t, admin).post(`${clients}/submit`, form('13600000004', { regionCode: '110102' }))).statusCode,
    ).toBe(200);
  });
});

describe('2. the creator of an application cannot decide it', () => {
  it('403 in zh and en on both decision routes; another approver decides; the tenant setting relaxes it', async () => {
    const a = await userToken(t, T, 'rule_region_a', 'Staff#2026x');
    const a2 = await staff('rule_region_a2', 'region_admin', '110101');
    const made = await client(t, a).post(`${clients}/submit`, form('13600000011'));
    expect(made.statusCode).toBe(200);
    const clientId = made.json().data.id as string;
    const [app] = await approvalsOf(clientId);
    expect(app.status).toBe(0);

    const own = await client(t, a).post(`${approvals}/businessApproval`, { id: app.id, status: 1 });
    expect([own.statusCode, own.json().msg]).toEqual([403, approvalTexts.ownApplication.zh]);
    const ownEn = await client(t, a, 'en').post(`${approvals}/businessApproval`, {
      id: app.id,
      status: 2,
      opinion: 'x',
    });
    expect([ownEn.statusCode, ownEn.json().msg]).toEqual([403, approvalTexts.ownApplication.en]);
    const viaClient = await client(t, a).post(`${clients}/approve`, { ids: [clientId], pass: true });
    expect([viaClient.statusCode, viaClient.json().msg]).toEqual([403, approvalTexts.ownApplication.zh]);
    // Still pending, no account made.
    expect((await approvalsOf(clientId)).map((r) => r.status)).toEqual([0]);
    const accounts = await withTenant(t.services.db, T, (tx) =>
      tx
        .select({ id: user.id })
        .from(user)
        .where(and(eq(user.tenantId, T), eq(user.account, '13600000011'))),
    );
    expect(accounts).toEqual([]);
    // Another approver of the district decides it.
    const other = await client(t, a2).post(`${approvals}/businessApproval`, { id: app.id, status: 1 });
    expect([other.statusCode, other.json().msg]).toEqual([200, approvalTexts.approved.zh]);

    // The tenant allows self-decision: its default config of type `approval`.
    const setting = await client(t, admin).post('/api/blade-auth/sysConfigRegion/submit', {
      regionCode: '00',
      sysType: 'approval',
      config: { allowSelfDecision: true },
    });
    expect([setting.statusCode, setting.body.slice(0, 200)]).toEqual([200, setting.body.slice(0, 200)]);
    const second = await client(t, a).post(`${clients}/submit`, form('13600000012'));
    const [app2] = await approvalsOf(second.json().data.id as string);
    const allowed = await client(t, a).post(`${approvals}/businessApproval`, { id: app2.id, status: 1 });
    expect([allowed.statusCode, allowed.json().msg]).toEqual([200, approvalTexts.approved.zh]);
    // Switched off again (false): refused again.
    const id = setting.json().data.id as string;
    const version = setting.json().data.version as number;
    const off = await client(t, admin).post('/api/blade-auth/sysConfigRegion/submit', {
      id,
      version,
      regionCode: '00',
      sysType: 'approval',
      config: { allowSelfDecision: false },
    });
    expect(off.statusCode).toBe(200);
    const third = await client(t, a).post(`${clients}/submit`, form('13600000013'));
    const [app3] = await approvalsOf(third.json().data.id as string);
    const refused = await client(t, a).post(`${approvals}/businessApproval`, { id: app3.id, status: 1 });
    expect(refused.statusCode).toBe(403);
  });
});

describe('3. a client account registers devices only within its client’s region', () => {
  let serial = 0;
  const codeOf = (district: string) => `${district}00001310${String(++serial).padStart(6, '0')}`;
  const camera = (regionCode: string, over: Record<string, unknown> = {}) => ({
    deviceCode: codeOf(regionCode.slice(0, 6)),
    name: `cam ${serial}`,
    deviceType: '131',
    regionCode,
    ...over,
  });

  it('another district: 400 naming the region, in zh and en; its own: saved; staff place a client’s device there too', async () => {
    const mine = newId();
    await withTenant(t.services.db, T, (tx) =>
      tx.insert(clientInfo).values({
        id: mine,
        tenantId: T,
        clientName: 'rule client',
        clientType: 1,
        creditCode: '91110108MA01ABCD0B',
        contactName: 'contact',
        operatorTel: '13600000021',
        regionCode: '110101',
        appClientAccount: '13600000021',
        status: 2,
      }),
    );
    const supplier = await staff('rule_supplier', 'supplier_admin', '110101');
    await withTenant(t.services.db, T, (tx) =>
      tx
        .update(user)
        .set({ clientInfoId: mine })
        .where(and(eq(user.tenantId, T), eq(user.account, 'rule_supplier'))),
    );
    t.services.cache.clearAll();

    const far = await client(t, supplier).post(`${cameras}/save`, camera('110102'));
    expect([far.statusCode, far.json().msg]).toEqual([
      400,
      deviceTexts.outsideClientRegion.zh.replace('{region}', '110101'),
    ]);
    expect(far.json().data).toEqual([{ field: 'regionCode', message: far.json().msg }]);
    const farEn = await client(t, supplier, 'en').post(`${cameras}/save`, camera('110102'));
    expect([farEn.statusCode, farEn.json().msg]).toEqual([
      400,
      deviceTexts.outsideClientRegion.en.replace('{region}', '110101'),
    ]);
    const page = (await client(t, admin).get(`${cameras}/pageList?size=1000&regionCode=110102`)).json().data;
    expect(page.records.filter((r: { clientId: string }) => r.clientId === mine)).toEqual([]);

    const near = await client(t, supplier).post(`${cameras}/save`, camera('110101'));
    expect([near.statusCode, near.body.slice(0, 200)]).toEqual([200, near.body.slice(0, 200)]);
    expect(near.json().data.clientId).toBe(mine);
    // Moving it to another district: refused (the code's district stays 110101, so the region is checked first).
    const cam = near.json().data as { id: string; version: number; deviceCode: string };
    const move = await client(t, admin).post(`${cameras}/submit`, {
      ...camera('110102', { deviceCode: cam.deviceCode }),
      id: cam.id,
    });
    expect(move.statusCode).toBe(400);
    // Staff registering the client's device in another district: the same rule.
    const staffFar = await client(t, admin).post(`${cameras}/save`, camera('110102', { clientId: mine }));
    expect([staffFar.statusCode, staffFar.json().msg]).toEqual([
      400,
      deviceTexts.outsideClientRegion.zh.replace('{region}', '110101'),
    ]);
  });
});

describe('4. the origins the console may frame', () => {
  it('every signed-in user reads them; parsed to origins; none without a token', async () => {
    const a = await userToken(t, T, 'rule_region_a', 'Staff#2026x');
    const first = await client(t, a).get('/api/blade-system/param/frame-origins');
    expect([first.statusCode, first.json().data]).toEqual([200, { origins: [] }]);
    await t.services.db
      .update(param)
      .set({ paramValue: 'self https://docs.example.com/path, http://map.example.org:8080\nnot-a-url ftp://x.example' })
      .where(eq(param.paramKey, 'frame.allowedOrigins'));
    const res = await client(t, a).get('/api/blade-system/param/frame-origins');
    expect(res.json().data).toEqual({ origins: ['https://docs.example.com', 'http://map.example.org:8080'] });
    expect((await t.app.inject({ method: 'GET', url: '/api/blade-system/param/frame-origins' })).statusCode).toBe(401);
    // Only the platform administrator writes it (the parameter screen).
    expect((await client(t, a).get('/api/blade-system/param/list')).statusCode).toBe(403);
    expect(
      (await client(t, platform).get('/api/blade-system/param/list?paramKey=frame')).json().data.records,
    ).toHaveLength(1);
  });
});
