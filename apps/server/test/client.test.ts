// Issue 10: clients, their registration by SMS code, the review through approvals, the client's account and the
// region data scope (docs/clients.md). Real database; the SMS code is read from the outbox, as a phone would.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../src/platform/password.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { outbox } from '../src/modules/outbox/table.ts';
import { clientInfo } from '../src/modules/client/table.ts';
import { user } from '../src/db/schema/index.ts';
import { clientTexts } from '../src/modules/client/messages.ts';
import { messages } from '@atrium/contract';
import {
  BASIC,
  bearer,
  client,
  createTestApp,
  login,
  loginToken,
  provisionedTenant,
  userToken,
  type TestApp,
} from './harness.ts';

const T = '730001';
const OTHER = '730002';
const UA = 'Mozilla/5.0 (test)';
let t: TestApp;
let admin: string;
let other: string;

const pub = (tenantId = T, lang?: 'en') => {
  const headers = { 'tenant-id': tenantId, authorization: BASIC, ...(lang ? { 'accept-language': 'en' } : {}) };
  return {
    get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers, payload }),
  };
};
const base = '/api/blade-business/clientInfo';
const q = (o: Record<string, string | number>) => new URLSearchParams(o as Record<string, string>).toString();

/** The code the phone received: the text of the latest SMS to it in the outbox. */
async function smsCode(phone: string, tenantId = T): Promise<string> {
  const [row] = await withTenant(t.services.db, tenantId, (tx) =>
    tx
      .select({ content: outbox.content })
      .from(outbox)
      .where(and(eq(outbox.tenantId, tenantId), eq(outbox.recipient, phone)))
      .orderBy(desc(outbox.id))
      .limit(1),
  );
  const m = /(?:验证码为|code is) (\d{6})/.exec(row?.content ?? '');
  if (!m) throw new Error(`no code sent to ${phone}: ${row?.content}`);
  return m[1];
}

/** Let the 60 s resend limit pass by moving the phone's codes back in time. */
async function age(phone: string, ms: number) {
  const { clientCode } = await import('../src/modules/client/table.ts');
  const { sql } = await import('drizzle-orm');
  await withTenant(t.services.db, T, (tx) =>
    tx
      .update(clientCode)
      .set({ createTime: sql`${clientCode.createTime} - ${`${ms} milliseconds`}::interval` })
      .where(eq(clientCode.phone, phone)),
  );
}

function form(phone: string, over: Record<string, unknown> = {}) {
  return {
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
  };
}

async function register(phone: string, over: Record<string, unknown> = {}, password = 'Client#2026x') {
  expect(
    (await pub().get(`${base}/verification?${q({ operatorTel: phone, type: 1, userAgent: UA })}`)).statusCode,
  ).toBe(200);
  const code = await smsCode(phone);
  const checked = await pub().get(
    `${base}/verificat?${q({ operatorTel: phone, type: 1, userAgent: UA, verificationCode: code })}`,
  );
  expect([checked.statusCode, checked.body]).toEqual([200, checked.body]);
  const ticket = checked.json().data.ticket as string;
  const res = await pub().post(`${base}/register`, { ...form(phone, over), password, ticket });
  return { res, ticket };
}

async function pendingApproval(token: string, phone: string) {
  const res = await client(t, token).get(`/api/blade-business/approval/approvalPage?size=100`);
  expect(res.statusCode).toBe(200);
  return (res.json().data.records as { id: string; applicantPhone: string; referId: string }[]).find(
    (r) => r.applicantPhone === phone,
  );
}

async function roleId(alias: string) {
  const res = await client(t, admin).get(`/api/blade-system/role/list?roleAlias=${alias}`);
  return res.json().data.records[0].id as string;
}

/** A user of the tenant with a product role and a region. */
async function staff(account: string, alias: string, regionCode: string) {
  const res = await client(t, admin).post('/api/blade-user/submit', {
    account,
    realName: account,
    password: 'Staff#2026x',
    roleIds: [await roleId(alias)],
    regionCode,
  });
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return userToken(t, T, account, 'Staff#2026x');
}

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, T)).token;
  other = (await provisionedTenant(t, platform, OTHER)).token;
});
afterAll(async () => t?.close());

describe('public registration by SMS code', () => {
  it('verify says free; a code is sent once a minute; the form is refused without a ticket', async () => {
    const phone = '13700000001';
    expect((await pub().get(`${base}/verify?operatorTel=${phone}`)).json().data).toEqual({ state: 'free' });
    expect((await pub().get(`${base}/verify?operatorTel=123`)).statusCode).toBe(400);
    const first = await pub().get(`${base}/verification?${q({ operatorTel: phone, type: 1, userAgent: UA })}`);
    expect([first.statusCode, first.json().msg]).toEqual([200, '验证码已发送']);
    // The answer carries no code.
    expect(first.body).not.toContain(await smsCode(phone));
    const again = await pub('730001', 'en').get(
      `${base}/verification?${q({ operatorTel: phone, type: 1, userAgent: UA })}`,
    );
    expect(again.statusCode).toBe(429);
    expect(again.json().msg).toMatch(/^Too frequent; try again in \d+ s$/);
    const noTicket = await pub().post(`${base}/register`, { ...form(phone), password: 'Client#2026x', ticket: 'x' });
    expect([noTicket.statusCode, noTicket.json().msg]).toEqual([400, '手机验证已失效，请重新获取验证码']);
  });

  it('a wrong code counts, five burn it; another user agent cannot use it; a ticket works once', async () => {
    const phone = '13700000002';
    await pub().get(`${base}/verification?${q({ operatorTel: phone, type: 1, userAgent: UA })}`);
    const code = await smsCode(phone);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const other = await pub().get(
      `${base}/verificat?${q({ operatorTel: phone, type: 1, userAgent: 'curl', verificationCode: code })}`,
    );
    expect([other.statusCode, other.json().msg]).toEqual([400, '验证码已失效，请重新获取']);
    for (let i = 0; i < 4; i++) {
      const r = await pub().get(
        `${base}/verificat?${q({ operatorTel: phone, type: 1, userAgent: UA, verificationCode: wrong })}`,
      );
      expect([r.statusCode, r.json().msg]).toEqual([400, '验证码错误']);
    }
    const fifth = await pub().get(
      `${base}/verificat?${q({ operatorTel: phone, type: 1, userAgent: UA, verificationCode: wrong })}`,
    );
    expect(fifth.json().msg).toBe('验证码已失效，请重新获取');
    // Burned: even the right code is refused now.
    const right = await pub().get(
      `${base}/verificat?${q({ operatorTel: phone, type: 1, userAgent: UA, verificationCode: code })}`,
    );
    expect(right.statusCode).toBe(400);

    await age(phone, 61_000);
    const { res, ticket } = await register(phone);
    expect([res.statusCode, res.json().msg]).toEqual([200, '注册申请已提交,请耐心等待管理员通过!']);
    const reused = await pub().post(`${base}/register`, { ...form(phone), password: 'Client#2026x', ticket });
    expect(reused.statusCode).toBe(400);
    expect((await pub().get(`${base}/reviewed?operatorTel=${phone}`)).json().data).toEqual({ status: 'pending' });
    expect((await pub().get(`${base}/verify?operatorTel=${phone}`)).json().data).toEqual({ state: 'registered' });
    // No password, hash or personal data in the public answers.
    const reviewed = await pub().get(`${base}/reviewed?operatorTel=${phone}`);
    expect(reviewed.body).not.toContain('张三');
  });

  it('the form is checked: credit code, ID card, region; messages in English too', async () => {
    const phone = '13700000003';
    await pub().get(`${base}/verification?${q({ operatorTel: phone, type: 1, userAgent: UA })}`);
    const code = await smsCode(phone);
    const ticket = (
      await pub().get(`${base}/verificat?${q({ operatorTel: phone, type: 1, userAgent: UA, verificationCode: code })}`)
    ).json().data.ticket;
    const bad = await pub('730001', 'en').post(`${base}/register`, {
      ...form(phone, { creditCode: '91110108MA01ABCD0C' }),
      password: 'Client#2026x',
      ticket,
    });
    expect([bad.statusCode, bad.json().msg]).toEqual([400, 'The credit code check character is wrong']);
    // The ticket was not spent by the refused form (the transaction rolled back).
    const badCard = await pub().post(`${base}/register`, {
      ...form(phone, { contactIdCard: '110105194912310021' }),
      password: 'Client#2026x',
      ticket,
    });
    expect([badCard.statusCode, badCard.json().msg]).toEqual([400, '身份证校验位错误']);
    const badRegion = await pub().post(`${base}/register`, {
      ...form(phone, { regionCode: '999999' }),
      password: 'Client#2026x',
      ticket,
    });
    expect([badRegion.statusCode, badRegion.json().msg]).toEqual([400, '所选区域不存在']);
    const weak = await pub().post(`${base}/register`, { ...form(phone), password: '123', ticket });
    expect(weak.statusCode).toBe(400);
  });

  it('a blacklisted phone gets no code, and verify says blocked', async () => {
    const phone = '13700000004';
    const add = await client(t, admin).post('/api/blade-business/blackinfo/submit', { type: 1, value: phone });
    expect(add.statusCode).toBe(200);
    const res = await pub().get(`${base}/verification?${q({ operatorTel: phone, type: 1, userAgent: UA })}`);
    expect([res.statusCode, res.json().msg]).toEqual([400, '当前无法向该号码发送验证码']);
    expect((await pub().get(`${base}/verify?operatorTel=${phone}`)).json().data).toEqual({ state: 'blocked' });
  });

  it('public calls are limited per client address: the 61st in a minute is a 429 with Retry-After', async () => {
    const from = (n: number) =>
      t.app.inject({
        method: 'GET',
        url: `${base}/reviewed?operatorTel=13700000099`,
        headers: { 'tenant-id': T, 'accept-language': 'en' },
        remoteAddress: `10.9.9.${n}`,
      });
    for (let i = 0; i < 60; i++) expect((await from(1)).statusCode).toBe(200);
    const over = await from(1);
    expect([over.statusCode, over.json().msg]).toEqual([429, 'Too many requests; try again later']);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await from(2)).statusCode).toBe(200);
    // The same address written as IPv4-mapped IPv6 shares the count (the key is @fastify/rate-limit's).
    const mapped = await t.app.inject({
      method: 'GET',
      url: `${base}/reviewed?operatorTel=13700000099`,
      headers: { 'tenant-id': T },
      remoteAddress: '::ffff:10.9.9.1',
    });
    expect([mapped.statusCode, mapped.json().msg]).toEqual([429, '请求过于频繁，请稍后再试']);
  });

  it('an IPv6 client counts per /64 (one host’s usual share), another /64 apart', async () => {
    const from = (address: string) =>
      t.app.inject({
        method: 'GET',
        url: `${base}/reviewed?operatorTel=13700000099`,
        headers: { 'tenant-id': T, 'accept-language': 'en' },
        remoteAddress: address,
      });
    for (let i = 0; i < 60; i++) expect((await from(`2001:db8:1:2::${(i + 1).toString(16)}`)).statusCode).toBe(200);
    const over = await from('2001:db8:1:2:ffff::1');
    expect([over.statusCode, over.json().msg]).toEqual([429, 'Too many requests; try again later']);
    expect((await from('2001:db8:1:3::1')).statusCode).toBe(200);
  });

  it('the licence image is uploaded before any login: images only; it is then served', async () => {
    const send = (name: string, body: Buffer, tenantId = T) => {
      const boundary = `----licence${Date.now().toString(16)}`;
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      return t.app.inject({
        method: 'POST',
        url: `${base}/licence`,
        headers: { 'tenant-id': tenantId, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([Buffer.from(head), body, Buffer.from(`\r\n--${boundary}--\r\n`)]),
        remoteAddress: '10.8.8.8',
      });
    };
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const ok = await send('licence.png', png);
    expect([ok.statusCode, ok.json().msg]).toEqual([200, '上传成功']);
    const { link, attachId } = ok.json().data as { link: string; attachId: string };
    expect(attachId).toMatch(/^\d+$/);
    // Served to the tenant's staff (docs/system-api.md "Files"), not to whoever holds the link.
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(404);
    const served = await t.app.inject({ method: 'GET', url: link, headers: bearer(admin) });
    expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'image/png']);
    // A PDF is a file put-file takes, but not a licence image; text is no image at all.
    const pdf = await send('licence.pdf', Buffer.from('%PDF-1.4 x'));
    expect([pdf.statusCode, pdf.json().msg]).toEqual([400, '文件类型不支持']);
    expect((await send('licence.png', Buffer.from('not an image'))).statusCode).toBe(400);
    expect((await send('licence.png', png, '999998')).statusCode).toBe(400);
  });

  it('an unknown tenant is refused', async () => {
    const res = await pub('999998').get(`${base}/verify?operatorTel=13700000009`);
    expect([res.statusCode, res.json().msg]).toEqual([400, '租户不存在']);
  });
});

describe('review, account and region scope', () => {
  it('a region admin of district A decides A, never sees B; approval makes the account; a second decision is 409', async () => {
    const a = await staff('region_a', 'region_admin', '110101');
    const b = await staff('region_b', 'region_admin', '110102');
    const phoneA = '13700000011';
    const phoneB = '13700000012';
    expect((await register(phoneA)).res.statusCode).toBe(200);
    expect((await register(phoneB, { regionCode: '110102' })).res.statusCode).toBe(200);

    const mine = await pendingApproval(a, phoneA);
    expect(mine).toBeDefined();
    expect(await pendingApproval(a, phoneB)).toBeUndefined();
    expect(await pendingApproval(b, phoneA)).toBeUndefined();
    const pageA = (await client(t, a).get(`${base}/page?size=100`)).json().data.records as { operatorTel: string }[];
    expect(pageA.map((r) => r.operatorTel)).toContain(phoneA);
    expect(pageA.map((r) => r.operatorTel)).not.toContain(phoneB);
    // B names A's approval by id: not found, not decided.
    const sneak = await client(t, b).post('/api/blade-business/approval/businessApproval', { id: mine!.id, status: 1 });
    expect(sneak.statusCode).toBe(404);
    // Another tenant too.
    const cross = await client(t, other).post('/api/blade-business/approval/businessApproval', {
      id: mine!.id,
      status: 1,
    });
    expect(cross.statusCode).toBe(404);
    expect((await client(t, other).get(`${base}/detail?id=${mine!.referId}`)).statusCode).toBe(404);

    const noOpinion = await client(t, a).post('/api/blade-business/approval/businessApproval', {
      id: mine!.id,
      status: 2,
    });
    expect([noOpinion.statusCode, noOpinion.json().msg]).toEqual([400, '驳回时请填写审批意见']);
    const ok = await client(t, a).post('/api/blade-business/approval/businessApproval', { id: mine!.id, status: 1 });
    expect([ok.statusCode, ok.json().msg]).toEqual([200, '审批通过']);
    const again = await client(t, admin).post('/api/blade-business/approval/businessApproval', {
      id: mine!.id,
      status: 1,
    });
    expect([again.statusCode, again.json().msg]).toEqual([409, '该申请已处理，不能再次审批']);

    // The account: the phone, the password chosen at registration, the client's region and id.
    const [row] = await withTenant(t.services.db, T, (tx) =>
      tx
        .select()
        .from(user)
        .where(and(eq(user.tenantId, T), eq(user.account, phoneA))),
    );
    expect(row).toMatchObject({ userType: 2, regionCode: '110101', status: 1 });
    expect((await pub().get(`${base}/reviewed?operatorTel=${phoneA}`)).json().data).toEqual({ status: 'approved' });
    const sms = await withTenant(t.services.db, T, (tx) =>
      tx.select({ content: outbox.content }).from(outbox).where(eq(outbox.recipient, phoneA)).orderBy(desc(outbox.id)),
    );
    expect(sms[0].content).toContain('已通过审核');

    // The client signs in and sees only its own client.
    const own = (await loginToken(t, { tenantId: T, username: phoneA, password: 'Client#2026x' })).access;
    const list = (await client(t, own).get(`${base}/page?size=100`)).json().data.records as { operatorTel: string }[];
    expect(list.map((r) => r.operatorTel)).toEqual([phoneA]);
    const theirs = await client(t, own).get(`${base}/detail?id=${(await pendingApproval(b, phoneB))!.referId}`);
    expect(theirs.statusCode).toBe(404);
    // It holds no staff codes.
    expect((await client(t, own).post(`${base}/approve`, { ids: [mine!.referId], pass: true })).statusCode).toBe(403);
  });

  it('two staff approving at once: one wins, the client gets one account', async () => {
    const phone = '13700000021';
    expect((await register(phone)).res.statusCode).toBe(200);
    const app = (await pendingApproval(admin, phone))!;
    const city = await staff('city_1', 'city_admin', '11');
    const results = await Promise.all([
      client(t, admin).post('/api/blade-business/approval/businessApproval', { id: app.id, status: 1 }),
      client(t, city).post('/api/blade-business/approval/businessApproval', { id: app.id, status: 1 }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const accounts = await withTenant(t.services.db, T, (tx) =>
      tx
        .select({ id: user.id })
        .from(user)
        .where(and(eq(user.tenantId, T), eq(user.account, phone))),
    );
    expect(accounts).toHaveLength(1);
  });

  it('a rejection tells the opinion; the phone may register again; staff entry starts pending', async () => {
    const phone = '13700000031';
    expect((await register(phone)).res.statusCode).toBe(200);
    const app = (await pendingApproval(admin, phone))!;
    const no = await client(t, admin).post('/api/blade-business/approval/businessApproval', {
      id: app.id,
      status: 2,
      opinion: '执照不清晰',
    });
    expect(no.statusCode).toBe(200);
    expect((await pub().get(`${base}/reviewed?operatorTel=${phone}`)).json().data).toEqual({ status: 'rejected' });
    await age(phone, 61_000);
    expect((await register(phone)).res.statusCode).toBe(200);
    const history = await client(t, admin).get(`/api/blade-business/approval/approvalDetail?referId=${app.referId}`);
    expect((history.json().data as { status: number }[]).map((r) => r.status)).toEqual([2, 0]);

    const staffEntered = await client(t, admin).post(`${base}/submit`, form('13700000032'));
    expect(staffEntered.statusCode).toBe(200);
    expect(staffEntered.json().data).toMatchObject({ status: 1, source: 2 });
    expect(staffEntered.body).not.toContain('pendingPassword');
  });

  it('a region admin cannot place a user outside their region', async () => {
    const rows = await withTenant(t.services.db, T, (tx) =>
      tx.select({ id: clientInfo.id }).from(clientInfo).where(eq(clientInfo.tenantId, T)),
    );
    expect(rows.length).toBeGreaterThan(0);
    const a = await userToken(t, T, 'region_a', 'Staff#2026x');
    // region_a holds no user screen: the call is refused before anything else.
    const res = await client(t, a).post('/api/blade-user/submit', {
      account: 'sneaky',
      realName: 'x',
      password: 'Staff#2026x',
      regionCode: '11',
    });
    expect(res.statusCode).toBe(403);
    expect(md5Hex('x')).toHaveLength(32);
  });
});

describe('the staff’s calls on a client and the forgotten password', () => {
  const phone = '13700000041';
  const signIn = async (password: string) => (await login(t, { tenantId: T, username: phone, password })).statusCode;
  const pubHeaders = { 'tenant-id': T, authorization: BASIC };
  /** The registration page's calls from their own address (the public calls are limited per address). */
  const page = {
    get: (url: string) => t.app.inject({ method: 'GET', url, headers: pubHeaders, remoteAddress: '10.7.7.1' }),
    post: (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: pubHeaders, payload, remoteAddress: '10.7.7.1' }),
  };
  let clientId: string;

  beforeAll(async () => {
    const entered = await client(t, admin).post(`${base}/submit`, form(phone));
    expect([entered.statusCode, entered.body.slice(0, 200)]).toEqual([200, entered.body.slice(0, 200)]);
    clientId = entered.json().data.id;
  });

  it('updatePwd: no account before approval; then the client signs in with the password staff set', async () => {
    const early = await client(t, admin).post(`${base}/updatePwd`, { clientInfoId: clientId, pwd: 'Client#2026s' });
    expect([early.statusCode, early.json().msg]).toEqual([400, clientTexts.noAccount.zh]);
    // Entered by the admin, decided by someone else (no one decides their own application).
    const city = await staff('city_2', 'city_admin', '11');
    const application = (await pendingApproval(city, phone))!;
    const approved = await client(t, city).post('/api/blade-business/approval/businessApproval', {
      id: application.id,
      status: 1,
    });
    expect(approved.statusCode).toBe(200);
    // Another tenant's staff cannot name this client; nothing changes.
    const cross = await client(t, other).post(`${base}/updatePwd`, { clientInfoId: clientId, pwd: 'Client#2026o' });
    expect(cross.statusCode).toBe(404);
    const res = await client(t, admin).post(`${base}/updatePwd`, { clientInfoId: clientId, pwd: 'Client#2026s' });
    expect([res.statusCode, res.json()]).toEqual([
      200,
      { code: 200, success: true, data: true, msg: clientTexts.passwordChanged.zh },
    ]);
    expect(await signIn('Client#2026o')).not.toBe(200);
    expect(await signIn('Client#2026s')).toBe(200);
  });

  it('resetPassword: a type-2 code’s ticket sets the new password, once', async () => {
    const sent = await page.get(`${base}/verification?${q({ operatorTel: phone, type: 2, userAgent: UA })}`);
    expect([sent.statusCode, sent.body]).toEqual([200, sent.body]);
    const code = await smsCode(phone);
    const checked = await page.get(
      `${base}/verificat?${q({ operatorTel: phone, type: 2, userAgent: UA, verificationCode: code })}`,
    );
    expect([checked.statusCode, checked.body]).toEqual([200, checked.body]);
    const ticket = checked.json().data.ticket as string;
    const res = await page.post(`${base}/resetPassword`, { operatorTel: phone, ticket, password: 'Client#2026r' });
    expect([res.statusCode, res.json()]).toEqual([
      200,
      { code: 200, success: true, data: true, msg: clientTexts.passwordReset.zh },
    ]);
    expect(await signIn('Client#2026s')).not.toBe(200);
    expect(await signIn('Client#2026r')).toBe(200);
    const again = await page.post(`${base}/resetPassword`, { operatorTel: phone, ticket, password: 'Client#2026t' });
    expect([again.statusCode, again.json().msg]).toEqual([400, clientTexts.ticketBad.zh]);
    expect(await signIn('Client#2026r')).toBe(200);
  });

  it('sendEmail, customerTrack, clientTrackRecord: queued per client, each a follow-up; other tenants get 404', async () => {
    const mail = { clientIds: [clientId], subject: 'Welcome', content: '<p>hello</p><script>alert(1)</script>' };
    expect((await client(t, other).post(`${base}/sendEmail`, mail)).statusCode).toBe(404);
    const sent = await client(t, admin).post(`${base}/sendEmail`, mail);
    expect([sent.statusCode, sent.json().msg]).toEqual([200, clientTexts.emailQueued.zh]);
    const [queued] = sent.json().data as { clientId: string; outboxId: string }[];
    expect(queued.clientId).toBe(clientId);
    const [row] = await withTenant(t.services.db, T, (tx) =>
      tx
        .select({ recipient: outbox.recipient, content: outbox.content })
        .from(outbox)
        .where(eq(outbox.id, queued.outboxId)),
    );
    expect(row.recipient).toBe(`c${phone}@example.com`);
    expect(row.content).toContain('hello');
    expect(row.content).not.toContain('<script>');

    const call = { clientId, trackType: 1, content: 'Called about the licence' };
    expect((await client(t, other).post(`${base}/customerTrack`, call)).statusCode).toBe(404);
    const bad = await client(t, admin).post(`${base}/customerTrack`, { ...call, trackType: 9 });
    expect(bad.statusCode).toBe(400);
    const added = await client(t, admin).post(`${base}/customerTrack`, call);
    expect([added.statusCode, added.json().msg]).toEqual([200, messages.added.zh]);

    expect((await client(t, other).get(`${base}/clientTrackRecord?clientId=${clientId}`)).statusCode).toBe(404);
    const records = await client(t, admin).get(`${base}/clientTrackRecord?clientId=${clientId}`);
    expect(records.statusCode).toBe(200);
    const list = records.json().data as { id: string; trackType: number; content: string; outboxId: string | null }[];
    expect(list.map((r) => [r.trackType, r.content, r.outboxId]).sort()).toEqual(
      [
        [1, 'Called about the licence', null],
        [3, 'Welcome', queued.outboxId],
      ].sort(),
    );
    expect(list.map((r) => r.id)).toContain(added.json().data.id);
  });

  it('delClientInfo: another tenant gets 404; removed, the client is gone and its account no longer signs in', async () => {
    expect((await client(t, other).post(`${base}/delclientInfo?id=${clientId}`)).statusCode).toBe(404);
    expect((await client(t, admin).get(`${base}/detail?id=${clientId}`)).statusCode).toBe(200);
    const res = await client(t, admin).post(`${base}/delclientInfo?id=${clientId}`);
    expect([res.statusCode, res.json().data, res.json().msg]).toEqual([200, true, messages.deleted.zh]);
    expect((await client(t, admin).get(`${base}/detail?id=${clientId}`)).statusCode).toBe(404);
    expect(await signIn('Client#2026r')).not.toBe(200);
  });
});
