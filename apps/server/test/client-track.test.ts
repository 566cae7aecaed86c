// 客户跟踪 (docs/clients.md "Client tracking"): the follow-ups written by customerTrack, as a read-only resource —
// list filters and order, the detail, the client list's data scope (a region admin sees its region's clients' records
// only), another tenant's record a 404, and no second way to write one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, loginToken, provisionedTenant, userToken, type TestApp } from './harness.ts';

const T = '740101';
const T2 = '740102';
let t: TestApp;
let admin: string;
let other: string;

const clients = '/api/blade-business/clientInfo';
const tracks = '/api/blade-business/clientTrack';

type Track = {
  id: string;
  clientId: string;
  clientName: string | null;
  trackType: number;
  content: string;
  trackerName: string;
  trackTime: string;
  nextTrackTime: string | null;
};

async function roleId(alias: string) {
  const res = await client(t, admin).get(`/api/blade-system/role/list?roleAlias=${alias}`);
  const list = res.json().data as
    { id: string; roleAlias: string }[] | { records: { id: string; roleAlias: string }[] };
  return (Array.isArray(list) ? list : list.records).find((r) => r.roleAlias === alias)!.id;
}

/** A region admin of `regionCode`. */
async function regionAdmin(account: string, regionCode: string) {
  const res = await client(t, admin).post('/api/blade-user/submit', {
    account,
    realName: account,
    password: 'Staff#2026x',
    roleIds: [await roleId('region_admin')],
    regionCode,
  });
  expect(res.statusCode).toBe(200);
  return userToken(t, T, account, 'Staff#2026x');
}

/** A staff-entered client of `regionCode`; answers its id. */
async function newClient(phone: string, regionCode: string) {
  const res = await client(t, admin).post(`${clients}/submit`, {
    clientName: `客户${phone.slice(-4)}`,
    clientType: 1,
    creditCode: '91110108MA01ABCD0B',
    contactName: '张三',
    operatorTel: phone,
    regionCode,
  });
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return String(res.json().data.id);
}

async function track(token: string, body: Record<string, unknown>) {
  const res = await client(t, token).post(`${clients}/customerTrack`, body);
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return String(res.json().data.id);
}

const list = async (token: string, query = '') => {
  const res = await client(t, token).get(`${tracks}/list?size=100${query}`);
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return res.json().data.records as Track[];
};

let east: string; // a client of 110101 (东城区)
let west: string; // a client of 110102 (西城区)
let eastCall: string;
let eastVisit: string;
let westCall: string;
let eastAdmin: string;

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, T)).token;
  other = (await provisionedTenant(t, platform, T2)).token;
  east = await newClient('13900001101', '110101');
  west = await newClient('13900001102', '110102');
  eastCall = await track(admin, {
    clientId: east,
    trackType: 1,
    content: 'Called about the licence',
    trackTime: '2026-11-01T09:00:00Z',
    nextTrackTime: '2026-11-08T09:00:00Z',
  });
  westCall = await track(admin, {
    clientId: west,
    trackType: 1,
    content: 'West call',
    trackTime: '2026-11-03T09:00:00Z',
  });
  eastAdmin = await regionAdmin('track_east', '110101');
  // Written by the region admin: the tracker is its account.
  eastVisit = await track(eastAdmin, {
    clientId: east,
    trackType: 2,
    content: 'Visited the shop',
    trackTime: '2026-11-05T09:00:00Z',
  });
});
afterAll(async () => t?.close());

describe('client tracking', () => {
  it('lists every record of the tenant, newest track time first, with the client name and the tracker', async () => {
    const rows = await list(admin);
    expect(rows.map((r) => r.id)).toEqual([eastVisit, westCall, eastCall]);
    const call = rows.find((r) => r.id === eastCall)!;
    expect(call).toMatchObject({
      clientId: east,
      clientName: '客户1101',
      trackType: 1,
      content: 'Called about the licence',
    });
    expect(call.trackTime).toBe('2026-11-01T09:00:00.000Z');
    expect(call.nextTrackTime).toBe('2026-11-08T09:00:00.000Z');
    expect(rows.find((r) => r.id === eastVisit)!.trackerName).toBe('track_east');
    const ascending = await list(admin, '&ascs=trackTime');
    expect(ascending.map((r) => r.id)).toEqual([eastCall, westCall, eastVisit]);
  });

  it('filters by client, tracker, track type and track-time range; a bad date is a 400', async () => {
    expect((await list(admin, `&clientId=${east}`)).map((r) => r.id)).toEqual([eastVisit, eastCall]);
    expect((await list(admin, '&trackerName=track_east')).map((r) => r.id)).toEqual([eastVisit]);
    expect((await list(admin, '&trackType=1')).map((r) => r.id)).toEqual([westCall, eastCall]);
    const range = '&trackTime_dategt=2026-11-02T00:00:00Z&trackTime_datelt=2026-11-06T00:00:00Z';
    expect((await list(admin, range)).map((r) => r.id)).toEqual([eastVisit, westCall]);
    const bad = await client(t, admin).get(`${tracks}/list?trackTime_dategt=27/11/2026`);
    expect(bad.statusCode).toBe(400);
  });

  it('a region admin sees the records of its region’s clients only; another region’s record is a 404', async () => {
    expect((await list(eastAdmin)).map((r) => r.id)).toEqual([eastVisit, eastCall]);
    expect((await list(eastAdmin, `&clientId=${west}`)).map((r) => r.id)).toEqual([]);
    expect((await client(t, eastAdmin).get(`${tracks}/detail?id=${westCall}`)).statusCode).toBe(404);
    const mine = await client(t, eastAdmin).get(`${tracks}/detail?id=${eastCall}`);
    expect([mine.statusCode, mine.json().data.content]).toEqual([200, 'Called about the licence']);
    const westAdmin = await regionAdmin('track_west', '110102');
    expect((await list(westAdmin)).map((r) => r.id)).toEqual([westCall]);
  });

  it('another tenant gets a 404 on the detail and an empty list', async () => {
    expect((await client(t, other).get(`${tracks}/detail?id=${eastCall}`)).statusCode).toBe(404);
    expect(await list(other)).toEqual([]);
    const detail = await client(t, admin).get(`${tracks}/detail?id=${eastCall}`);
    expect([detail.statusCode, detail.json().data.clientName]).toEqual([200, '客户1101']);
  });

  it('has no second way to write a record: submit and remove do not exist', async () => {
    const submit = await client(t, admin).post(`${tracks}/submit`, { clientId: east, trackType: 1, content: 'x' });
    expect(submit.statusCode).toBe(404);
    const remove = await client(t, admin).post(`${tracks}/remove?ids=${eastCall}`);
    expect(remove.statusCode).toBe(404);
    expect((await list(admin)).length).toBe(3);
  });
});
