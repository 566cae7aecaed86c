// Sub-domains (docs/subdomains.md): the legality rules, the application through an approval, the lifecycle, the
// public ask of the edge proxy, the bind limit, tenant isolation and the rate limit. Real database. On PostgreSQL the
// whole suite runs again with the applying tenant moved to a database of its own: its hosts stay in the main
// database's namespace (docs/tenants.md "Sub-domain hosts of a moved tenant").
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../src/db/ids.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { clientInfo } from '../src/modules/client/table.ts';
import { subdomainTexts as texts } from '../src/modules/subdomain/messages.ts';
import { ASK_LIMIT } from '../src/modules/subdomain/module.ts';
import { bindDevice, hasRunningSubDomain } from '../src/modules/subdomain/service.ts';
import { sql } from 'drizzle-orm';
import { HOST_CLAIM_GRACE_MS, claimHost, syncHosts } from '../src/modules/subdomain/hosts.ts';
import { subDomain, subDomainHost } from '../src/modules/subdomain/table.ts';
import { client, createTestApp, loginToken, provisionedTenant, type TestApp } from './harness.ts';
import {
  MOVE_NETWORKS,
  adminRows,
  dbOfTenant,
  mainDbName,
  moveBack,
  moveTenant,
  type TenantDatabase,
} from './support/moved.ts';

const PG = !!process.env.DATABASE_URL;

for (const moved of PG ? [false, true] : [false]) {
  describe(moved ? 'the applying tenant on its own database' : 'on one database', () => suite(moved));
}

function suite(moved: boolean) {
  const T = moved ? '740011' : '740001';
  const OTHER = moved ? '740012' : '740002';
  const BASE = 'atrium.localhost';
  const api = '/api/blade-business/subDomain';
  let t: TestApp;
  let admin: string;
  let other: string;
  let clientA: { id: string; account: string };
  let clientB: { id: string; account: string };
  let platform: string;
  let target: TenantDatabase | undefined;

  /** An approved client of a tenant, as the client module leaves one after its approval. */
  async function approvedClient(tenantId: string, phone: string) {
    const id = newId();
    await withTenant(t.services.db, tenantId, (tx) =>
      tx.insert(clientInfo).values({
        id,
        tenantId,
        clientName: `client ${phone}`,
        clientType: 1,
        creditCode: '91110108MA01ABCD0B',
        contactName: 'contact',
        operatorTel: phone,
        regionCode: '110101',
        appClientAccount: phone,
        status: 2,
      }),
    );
    return { id, account: phone };
  }

  const legal = async (name: string, lang?: 'en', token = admin) => {
    const res = await client(t, token, lang).get(`${api}/checkSubDomainLegal?subDomain=${encodeURIComponent(name)}`);
    expect(res.statusCode).toBe(200);
    return res.json().data as { legal: boolean; reason: string; fullDomain: string | null };
  };

  const apply = (name: string, account: string, token = admin) =>
    client(t, token).get(
      `${api}/submitSubDomainApply?subDomain=${encodeURIComponent(name)}&appClientAccount=${account}`,
    );

  const ask = (domain: string, ip = '10.0.0.1') =>
    t.app.inject({ method: 'GET', url: `${api}/ask?domain=${encodeURIComponent(domain)}`, remoteAddress: ip });

  async function decide(token: string, subId: string, status: 1 | 2, opinion?: string) {
    const page = await client(t, token).get('/api/blade-business/approval/approvalPage?size=1000');
    expect(page.statusCode).toBe(200);
    const a = (page.json().data.records as { id: string; referId: string; referType: string }[]).find(
      (r) => r.referId === subId && r.referType === 'subdomain',
    );
    expect(a).toBeTruthy();
    const res = await client(t, token).post('/api/blade-business/approval/businessApproval', {
      id: a!.id,
      status,
      ...(opinion ? { opinion } : {}),
    });
    expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  }

  const detail = async (id: string, token = admin) =>
    (await client(t, token).get(`${api}/detail?id=${id}`)).json().data as Record<string, unknown>;

  beforeAll(async () => {
    t = await createTestApp(moved ? { datasourcePrivateNetworks: MOVE_NETWORKS } : {});
    platform = (await loginToken(t)).access;
    admin = (await provisionedTenant(t, platform, T)).token;
    other = (await provisionedTenant(t, platform, OTHER)).token;
    // Here the tenant administrator both applies (for its client) and decides: the tenant allows an application's
    // creator to decide it (docs/clients.md "Approvals"; refused by default, test/probe-rules.test.ts).
    const allow = await client(t, admin).post('/api/blade-auth/sysConfigRegion/submit', {
      regionCode: '00',
      sysType: 'approval',
      config: { allowSelfDecision: true },
    });
    expect(allow.statusCode).toBe(200);
    clientA = await approvedClient(T, '13700000001');
    clientB = await approvedClient(OTHER, '13700000002');
    // The applying tenant's clients (and everything else of it) go with it to its own database.
    if (moved) target = await moveTenant(t, platform, T);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await target?.drop();
  });

  describe('checkSubDomainLegal', () => {
    it('answers every shape rule with its reason, in zh and en', async () => {
      const cases: [string, { zh: string; en: string }][] = [
        ['', texts.empty],
        ['ab', texts.length],
        ['a'.repeat(33), texts.length],
        ['shop_1', texts.chars],
        ['shop.one', texts.chars],
        ['商店abc', texts.chars],
        ['1shop', texts.firstLetter],
        ['-shop', texts.firstLetter],
        ['shop-', texts.edgeHyphen],
        ['xn--shop', texts.punycode],
        ['ab--cd', texts.punycode],
        ['www', texts.reserved],
        ['API', texts.reserved],
        ['mail', texts.reserved],
        ['ns1', texts.reserved],
        ['ns42', texts.reserved],
      ];
      for (const [name, reason] of cases) {
        const zh = await legal(name);
        expect([name, zh.legal, zh.reason]).toEqual([name, false, reason.zh]);
        const en = await legal(name, 'en');
        expect([name, en.legal, en.reason]).toEqual([name, false, reason.en]);
      }
      const ok = await legal('My-Shop1');
      expect(ok).toMatchObject({ legal: true, reason: texts.legal.zh, fullDomain: `my-shop1.${BASE}` });
      expect((await legal('abc')).legal).toBe(true);
      expect((await legal('a'.repeat(32))).legal).toBe(true);
      expect((await legal('nsfw-free')).legal).toBe(true);
    });

    it('refuses a name holding a blacklisted word (the tenant’s or the platform’s)', async () => {
      const res = await client(t, admin).post('/api/blade-business/blackinfo/submit', { type: 3, value: 'casino' });
      expect(res.statusCode).toBe(200);
      const r = await legal('bestcasino2', 'en');
      expect(r).toMatchObject({ legal: false, reason: texts.blocked.en });
      expect((await legal('bestcasino2', undefined, other)).legal).toBe(true);
      expect((await apply('casino1', clientA.account)).statusCode).toBe(400);
    });
  });

  describe('apply → approve → start → ask → stop', () => {
    let id: string;

    it('an application is state 0 with a pending approval; the name is then taken, in any case', async () => {
      const res = await apply('Shop1', clientA.account);
      expect([res.statusCode, res.body.slice(0, 300)]).toEqual([200, res.body.slice(0, 300)]);
      const row = res.json().data as Record<string, unknown>;
      id = String(row.id);
      expect(row).toMatchObject({ subDomain: 'shop1', fullDomain: `shop1.${BASE}`, status: 0, bindLimit: 10 });
      expect(await detail(id)).toMatchObject({
        status: 0,
        clientId: clientA.id,
        clientName: `client ${clientA.account}`,
      });
      expect(await legal('SHOP1')).toMatchObject({ legal: false, reason: texts.taken.zh });
      const again = await apply('shop1', clientA.account);
      expect([again.statusCode, again.json().msg]).toEqual([400, texts.taken.zh]);
      // The full domain is one namespace: another tenant on the same base cannot have it either.
      expect(await legal('shop1', 'en', other)).toMatchObject({ legal: false, reason: texts.taken.en });
      const state = await client(t, admin).get(
        `${api}/checkSubDomainIsPassApproval?subDomain=SHOP1&appClientAccount=${clientA.account}`,
      );
      expect(state.json().data).toMatchObject({ id, status: 0, pass: false });
      // Not startable before the approval.
      expect((await client(t, admin).post(`${api}/startSubDomain`, { id })).statusCode).toBe(400);
    });

    it('an unknown or unapproved client account is refused', async () => {
      const res = await apply('shop9', '13799999999');
      expect([res.statusCode, res.json().msg]).toEqual([400, texts.noClient.zh]);
    });

    it('approve → 1; start → 2 and ask answers 200; tenant/info resolves the host; stop → ask 404', async () => {
      expect((await ask(`shop1.${BASE}`)).statusCode).toBe(404);
      await decide(admin, id, 1);
      expect(await detail(id)).toMatchObject({ status: 1 });
      const state = await client(t, admin).get(`${api}/checkSubDomainIsPassApproval?subDomain=shop1`);
      expect(state.json().data).toMatchObject({ status: 1, pass: true });
      expect((await ask(`shop1.${BASE}`)).statusCode).toBe(404);

      const started = await client(t, admin).post(`${api}/startSubDomain`, { id });
      expect([started.statusCode, started.body.slice(0, 200)]).toEqual([200, started.body.slice(0, 200)]);
      expect(await detail(id)).toMatchObject({ status: 2 });
      expect((await detail(id)).startTime).toBeTruthy();
      const yes = await ask(`SHOP1.${BASE}`);
      expect([yes.statusCode, yes.json().data]).toEqual([200, null]);
      const info = await t.app.inject({ method: 'GET', url: `/api/blade-system/tenant/info?domain=shop1.${BASE}` });
      expect(info.json().data).toMatchObject({ tenantId: T });
      expect(await hasRunningSubDomain(dbOfTenant(t, T), T, clientA.id)).toBe(true);

      // Starting a running one again is refused; removing it too; its client cannot be removed.
      expect((await client(t, admin).post(`${api}/startSubDomain`, { id })).statusCode).toBe(400);
      const rm = await client(t, admin).post(`${api}/remove?ids=${id}`);
      expect([rm.statusCode, rm.json().msg]).toEqual([400, texts.runningNoRemove.zh]);
      const rmClient = await client(t, admin, 'en').post(`/api/blade-business/clientInfo/remove?ids=${clientA.id}`);
      expect([rmClient.statusCode, rmClient.json().msg]).toEqual([
        400,
        `This client ${texts.clientHasRunning.en} and cannot be removed`,
      ]);

      const stopped = await client(t, admin).post(`${api}/stopSubDomain`, { id });
      expect(stopped.statusCode).toBe(200);
      expect(await detail(id)).toMatchObject({ status: 3 });
      expect((await ask(`shop1.${BASE}`)).statusCode).toBe(404);
      const gone = await t.app.inject({ method: 'GET', url: `/api/blade-system/tenant/info?domain=shop1.${BASE}` });
      expect(gone.json().data).toBeNull();
      expect((await client(t, admin).post(`${api}/stopSubDomain`, { id })).statusCode).toBe(400);
      // Stopped → running again.
      expect((await client(t, admin).post(`${api}/startSubDomain`, { id })).statusCode).toBe(200);
      expect((await ask(`shop1.${BASE}`)).statusCode).toBe(200);
    });

    it('binds devices up to the limit; decreseBindSubDomain never goes below 0', async () => {
      const upd = await client(t, admin).post(`${api}/submit`, { id, bindLimit: 2, remark: 'two' });
      expect([upd.statusCode, upd.body.slice(0, 200)]).toEqual([200, upd.body.slice(0, 200)]);
      const bind = () => withTenant(t.services.db, T, (tx) => bindDevice(tx, T, id));
      await bind();
      await bind();
      await expect(bind()).rejects.toMatchObject({ status: 400 });
      expect(await detail(id)).toMatchObject({ bindCount: 2, bindLimit: 2 });
      for (const want of [1, 0, 0]) {
        const res = await client(t, admin).post(`${api}/decreseBindSubDomain`, { id });
        expect(res.statusCode).toBe(200);
        expect((await detail(id)).bindCount).toBe(want);
      }
      // Another tenant's id is not found.
      await expect(withTenant(t.services.db, OTHER, (tx) => bindDevice(tx, OTHER, id))).rejects.toMatchObject({
        status: 404,
      });
    });

    it('another tenant reaches it by no path', async () => {
      const b = client(t, other);
      expect((await b.get(`${api}/detail?id=${id}`)).statusCode).toBe(404);
      expect((await b.post(`${api}/submit`, { id, bindLimit: 5 })).statusCode).toBe(404);
      expect((await b.post(`${api}/remove?ids=${id}`)).statusCode).toBe(404);
      for (const path of ['startSubDomain', 'stopSubDomain', 'decreseBindSubDomain'])
        expect([path, (await b.post(`${api}/${path}`, { id })).statusCode]).toEqual([path, 404]);
      expect((await b.get(`${api}/checkSubDomainIsPassApproval?subDomain=shop1`)).statusCode).toBe(404);
      for (const list of ['pagelist', 'list']) expect((await b.get(`${api}/${list}?size=1000`)).body).not.toContain(id);
      // The full domain is A's: B's own client cannot have it.
      expect((await apply('shop1', clientB.account, other)).json().msg).toBe(texts.taken.zh);
      // A's client account is unknown here.
      expect((await apply('shop5', clientA.account, other)).statusCode).toBe(400);
    });

    it('stopped, it can be removed; its name is then free', async () => {
      expect((await client(t, admin).post(`${api}/stopSubDomain`, { id })).statusCode).toBe(200);
      expect((await client(t, admin).post(`${api}/remove?ids=${id}`)).statusCode).toBe(200);
      expect((await legal('shop1')).legal).toBe(true);
      expect((await legal('shop1', undefined, other)).legal).toBe(true);
    });
  });

  describe('a rejected application', () => {
    it('goes to 4 with the opinion required, frees its name, and the client is told by SMS', async () => {
      const res = await apply('shop2', clientA.account);
      expect(res.statusCode).toBe(200);
      const id = String(res.json().data.id);
      await decide(admin, id, 2, 'name too generic');
      expect(await detail(id)).toMatchObject({ status: 4 });
      expect((await client(t, admin).post(`${api}/startSubDomain`, { id })).statusCode).toBe(400);
      expect((await legal('shop2')).legal).toBe(true);
      const { outbox } = await import('../src/modules/outbox/table.ts');
      const sent = await withTenant(t.services.db, T, (tx) => tx.select().from(outbox).where(eq(outbox.refId, id)));
      expect(sent.length).toBe(1);
      expect(sent[0].recipient).toBe(clientA.account);
      // Applying again is allowed.
      expect((await apply('shop2', clientA.account)).statusCode).toBe(200);
    });
  });

  describe('the public ask', () => {
    it('needs no token, says nothing of unknown hosts, and is rate-limited per address with a bilingual 429', async () => {
      const ip = '10.9.9.9';
      for (let i = 0; i < ASK_LIMIT.limit; i++) expect((await ask(`nobody${i}.${BASE}`, ip)).statusCode).toBe(404);
      const over = await ask(`nobody.${BASE}`, ip);
      expect(over.statusCode).toBe(429);
      expect(over.headers['retry-after']).toBeTruthy();
      expect(over.json().msg).toMatch(/秒后重试/);
      const en = await t.app.inject({
        method: 'GET',
        url: `${api}/ask?domain=x.${BASE}`,
        remoteAddress: ip,
        headers: { 'accept-language': 'en' },
      });
      expect([en.statusCode, en.json().msg]).toEqual([
        429,
        expect.stringMatching(/^Too many requests; try again in \d+ s$/),
      ]);
      // Another address is not affected.
      expect((await ask(`nobody.${BASE}`, '10.9.9.10')).statusCode).toBe(404);
    });

    it('the window is fixed: the limit is counted again a minute after its first call (@fastify/rate-limit)', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      try {
        const ip = '10.9.8.1';
        for (let i = 0; i < ASK_LIMIT.limit; i++) await ask(`nobody${i}.${BASE}`, ip);
        vi.setSystemTime(Date.now() + ASK_LIMIT.windowMs - 2_000);
        const over = await ask(`nobody.${BASE}`, ip);
        expect([over.statusCode, over.headers['retry-after']]).toEqual([429, '2']);
        expect(over.json().msg).toBe('请求过于频繁，请 2 秒后重试');
        vi.setSystemTime(Date.now() + 2_000);
        expect((await ask(`nobody.${BASE}`, ip)).statusCode).toBe(404);
      } finally {
        vi.useRealTimers();
      }
    });

    it('a sub-domain row in the database is untouched by the other tenant', async () => {
      const rows = await withTenant(t.services.db, OTHER, (tx) => tx.select().from(subDomain));
      expect(rows.every((r) => r.tenantId === OTHER)).toBe(true);
    });
  });

  describe.runIf(moved)('the host namespace of a moved tenant (main database)', () => {
    const hostRows = async (where: string) =>
      adminRows(`select full_domain, tenant_id, running from sub_domain_host where ${where} order by 1`, mainDbName(t));

    it('a host another tenant holds on the main database is taken for the moved tenant, and the other way round', async () => {
      const b = await apply('shopb', clientB.account, other);
      expect(b.statusCode).toBe(200);
      expect(await legal('shopb', 'en')).toMatchObject({ legal: false, reason: texts.taken.en });
      const a = await client(t, admin, 'en').get(
        `${api}/submitSubDomainApply?subDomain=shopb&appClientAccount=${clientA.account}`,
      );
      expect([a.statusCode, a.json().msg]).toEqual([400, texts.taken.en]);
      const mine = await apply('shopa', clientA.account);
      expect(mine.statusCode).toBe(200);
      expect(await legal('shopa', 'en', other)).toMatchObject({ legal: false, reason: texts.taken.en });
      expect(await hostRows(`full_domain in ('shopa.${BASE}', 'shopb.${BASE}')`)).toEqual([
        { full_domain: `shopa.${BASE}`, tenant_id: T, running: 0 },
        { full_domain: `shopb.${BASE}`, tenant_id: OTHER, running: 0 },
      ]);
      // Nothing of the namespace is written on the tenant's own database.
      expect(await adminRows('select full_domain from sub_domain_host', target!.name)).toEqual([]);
    });

    it('a claim whose transaction rolls back is taken back at once', async () => {
      const domain = `undone.${BASE}`;
      await expect(
        withTenant(t.services.db, T, async (tx) => {
          await claimHost(t.services, tx, T, newId(), domain);
          expect(await hostRows(`full_domain = '${domain}'`)).toHaveLength(1);
          throw new Error('the application fails after its claim');
        }),
      ).rejects.toThrow('the application fails after its claim');
      expect(await hostRows(`full_domain = '${domain}'`)).toEqual([]);
      expect((await legal('undone', 'en', other)).legal).toBe(true);
    });

    it('the sweep repairs what a server dying between a commit and its sync left, and leaves a young claim', async () => {
      const res = await apply('shopc', clientA.account);
      const id = String(res.json().data.id);
      await decide(admin, id, 1);
      expect((await client(t, admin).post(`${api}/startSubDomain`, { id })).statusCode).toBe(200);
      expect((await ask(`shopc.${BASE}`)).statusCode).toBe(200);
      // As if the start's sync never ran, and as if an undone claim's undo were lost (old) or still to come (young).
      const db = t.services.db;
      await db
        .update(subDomainHost)
        .set({ running: 0 })
        .where(sql`full_domain = ${`shopc.${BASE}`}`);
      const old = new Date(Date.now() - HOST_CLAIM_GRACE_MS - 5_000);
      await db.insert(subDomainHost).values([
        { fullDomain: `lost.${BASE}`, tenantId: T, subDomainId: newId(), claimedAt: old },
        { fullDomain: `young.${BASE}`, tenantId: T, subDomainId: newId() },
      ]);
      expect((await ask(`shopc.${BASE}`)).statusCode).toBe(404);
      expect((await legal('lost', 'en', other)).legal).toBe(false);
      const r = await syncHosts(t.services, T, { wait: false });
      expect(r).toMatchObject({ ran: true, updated: 1, deleted: 1, inserted: 0, conflicts: [] });
      expect((await ask(`shopc.${BASE}`)).statusCode).toBe(200);
      expect((await legal('lost', 'en', other)).legal).toBe(true);
      expect(await hostRows(`full_domain = 'young.${BASE}'`)).toHaveLength(1);
      await db.delete(subDomainHost).where(sql`full_domain = ${`young.${BASE}`}`);
    });

    it('several applications removed in one call: all their hosts go, their names free for another tenant', async () => {
      const ids: string[] = [];
      for (const label of ['shopd', 'shope']) {
        const res = await apply(label, clientA.account);
        expect(res.statusCode).toBe(200);
        ids.push(String(res.json().data.id));
      }
      expect(await hostRows(`full_domain in ('shopd.${BASE}', 'shope.${BASE}')`)).toHaveLength(2);
      expect((await legal('shopd', 'en', other)).legal).toBe(false);
      const removed = await client(t, admin).post(`${api}/remove?ids=${ids.join(',')}`);
      expect(removed.statusCode).toBe(200);
      expect(await hostRows(`full_domain in ('shopd.${BASE}', 'shope.${BASE}')`)).toEqual([]);
      expect((await legal('shopd', 'en', other)).legal).toBe(true);
      expect((await legal('shope', 'en', other)).legal).toBe(true);
    });

    it('moved back to the main database, its hosts answer as before and change in its transactions again', async () => {
      await moveBack(t, platform, T);
      expect((await ask(`shopc.${BASE}`)).statusCode).toBe(200);
      const info = await t.app.inject({ method: 'GET', url: `/api/blade-system/tenant/info?domain=shopc.${BASE}` });
      expect(info.json().data).toMatchObject({ tenantId: T });
      const row = (await client(t, admin).get(`${api}/checkSubDomainIsPassApproval?subDomain=shopc`)).json().data;
      expect((await client(t, admin).post(`${api}/stopSubDomain`, { id: row.id })).statusCode).toBe(200);
      expect((await ask(`shopc.${BASE}`)).statusCode).toBe(404);
      expect(await legal('shopb', 'en')).toMatchObject({ legal: false, reason: texts.taken.en });
    }, 60_000);
  });
}
