// Issue 23: the server rides through a database that ends its connections, restarts or cannot be reached
// (docs/server.md "Database outages"). PostgreSQL only: PGlite runs in process and has no connection to lose.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { OutboxWorker } from '../src/modules/outbox/worker.ts';
import { enqueueEmail } from '../src/modules/outbox/service.ts';
import { outbox } from '../src/modules/outbox/table.ts';
import { smtpConfig } from '../src/modules/outbox/table.ts';
import { newId } from '../src/db/ids.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { ADMIN_PASSWORD } from './harness.ts';
import { startDbProxy, type DbProxy } from './support/db-proxy.ts';
import { adminTokenOver, freePort, spawnServer, waitReady, type Child } from './support/server-process.ts';

const URL_ = process.env.DATABASE_URL;
const onPg = describe.skipIf(!URL_);
if (!URL_) console.log('db-outage: skipped (PostgreSQL only; set DATABASE_URL)');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function admin<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const c = new pg.Client({ connectionString: URL_ });
  await c.connect();
  try {
    return await c.query<T>(text, values);
  } finally {
    await c.end();
  }
}

/** A database of its own: a copy of the run's seeded image, or empty (`empty`). Answers its URL and name. */
async function newDatabase(empty = false): Promise<{ url: string; name: string }> {
  const name = `atrium_outage_${randomBytes(5).toString('hex')}`;
  const image = inject('dbImage');
  const template = !empty && image?.kind === 'postgres' ? ` TEMPLATE ${image.template}` : '';
  await admin(`CREATE DATABASE ${name}${template}`);
  const u = new URL(URL_!);
  u.pathname = `/${name}`;
  return { url: u.toString(), name };
}
const dropDatabase = (name: string) => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);

/** Ends every connection of database `name` as an administrator does (57P01 at the server). */
async function terminateAll(name: string): Promise<number> {
  const r = await admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [name]);
  return r.rowCount ?? 0;
}

onPg('a server on PostgreSQL whose connections are ended', () => {
  let db: { url: string; name: string };
  let proxy: DbProxy;
  let server: Child;
  let base: string;
  let token: string;
  let webDir: string;

  beforeAll(async () => {
    db = await newDatabase();
    const u = new URL(URL_!);
    proxy = await startDbProxy({ host: u.hostname, port: Number(u.port || 5432) });
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-outage-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Atrium</title>');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawnServer(webDir, port, {
      DATABASE_URL: proxy.via(db.url),
      ATRIUM_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ATRIUM_CAPTCHA: 'off',
      ATRIUM_MQTT_PORT: '0',
      ATRIUM_WEB_DIST: webDir,
      LOG_LEVEL: 'warn',
    });
    await waitReady(server, `${base}/api/blade-system/tenant/info?domain=x`);
    token = await adminTokenOver(base, ADMIN_PASSWORD);
  }, 120_000);

  afterAll(async () => {
    server?.proc.kill('SIGKILL');
    await server?.exited;
    await proxy?.close();
    if (db) await dropDatabase(db.name);
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const call = async (method: 'GET' | 'POST', url: string, body?: unknown, lang?: string) => {
    const t0 = performance.now();
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        'blade-auth': `bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(lang ? { 'accept-language': lang } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, text, ms: performance.now() - t0, at: performance.now() };
  };

  /** Statements on the test's database itself, as its owner (row-level security does not apply to a superuser). */
  const onDb = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      return (await c.query<T>(text, values)).rows;
    } finally {
      await c.end();
    }
  };

  it('lists, writes and a multi-row action under five rounds of ended connections: 200 or 503, nothing half written', async () => {
    const role = JSON.parse(
      (
        await call('POST', '/api/blade-system/role/submit', {
          roleName: 'outage',
          roleAlias: 'outage',
          parentId: '0',
          sort: 1,
        })
      ).text,
    );
    expect(role.code, JSON.stringify(role)).toBe(200);
    const roleId = String(role.data.id);
    const menus = (await onDb<{ id: string }>(`select id::text as id from menu where is_deleted = 0 order by id`)).map(
      (r) => r.id,
    );
    // Two grants of different sizes: after any number of them the role holds exactly one of the two sets.
    const sets = [menus.slice(0, 20), menus.slice(0, 7)];
    expect(sets[0].length).toBe(20);

    type Seen = { status: number; at: number; kind: string; text: string };
    const seen: Seen[] = [];
    const failures: string[] = [];
    const posts = new Map<string, number>();
    const grants: { set: number; status: number }[] = [];
    let stop = false;
    let n = 0;
    const loop = async (kind: string, once: () => Promise<{ status: number; at: number; text: string }>) => {
      while (!stop) {
        try {
          const r = await once();
          seen.push({ ...r, kind });
          if (r.status !== 200 && r.status !== 503) failures.push(`${kind}: ${r.status} ${r.text.slice(0, 200)}`);
          if (r.status === 503) expect(JSON.parse(r.text)).toMatchObject({ code: 503, success: false });
        } catch (err) {
          // A dropped socket or a reset: what a caller must never get.
          failures.push(`${kind}: ${(err as Error).message} ${String((err as { cause?: unknown }).cause)}`);
          await sleep(50);
        }
      }
    };
    const list = () => call('GET', '/api/blade-system/post/list?current=1&size=10');
    const users = () => call('GET', '/api/blade-user/page?current=1&size=10');
    const write = async () => {
      const code = `o${(n++).toString(36)}${randomBytes(3).toString('hex')}`.slice(0, 12);
      const r = await call('POST', '/api/blade-system/post/submit', {
        category: 1,
        postCode: code,
        postName: 'outage',
        sort: 1,
      });
      posts.set(code, r.status);
      return r;
    };
    const grant = async () => {
      const set = grants.length % 2;
      const r = await call('POST', '/api/blade-system/role/grant', {
        roleIds: [roleId],
        menuIds: sets[set],
        dataScopeIds: [],
        apiScopeIds: [],
      });
      grants.push({ set, status: r.status });
      return r;
    };
    const loops = [
      loop('list', list),
      loop('users', users),
      loop('write', write),
      loop('write', write),
      loop('grant', grant),
    ];
    await sleep(800);
    const windows: number[] = [];
    for (let round = 0; round < 5; round++) {
      const t0 = performance.now();
      await terminateAll(db.name);
      await sleep(1500);
      const late = seen.filter((x) => x.at > t0 && x.status === 503).map((x) => x.at - t0);
      windows.push(late.length ? Math.max(...late) : 0);
    }
    stop = true;
    await Promise.all(loops);
    expect(server.proc.exitCode, server.output()).toBeNull();
    expect(failures, failures.slice(0, 5).join('\n')).toEqual([]);
    const ok = seen.filter((x) => x.status === 200).length;
    const refused = seen.filter((x) => x.status === 503).length;
    expect(ok).toBeGreaterThan(50);
    const sorted = [...windows].sort((a, b) => a - b);
    console.log(
      `db-outage: ${seen.length} calls, ${ok} × 200, ${refused} × 503; 503 seen for ${windows.map((w) => Math.round(w)).join(', ')} ms after each termination (median ${Math.round(sorted[2])} ms)`,
    );
    // Every write answered 200 is there once; one answered 503 is there once or not at all.
    const stored = new Map(
      (
        await onDb<{ post_code: string; n: number }>(
          `select post_code, count(*)::int as n from post where post_code = any($1) group by post_code`,
          [[...posts.keys()]],
        )
      ).map((r) => [r.post_code, r.n]),
    );
    for (const [code, status] of posts) {
      if (status === 200) expect(stored.get(code), code).toBe(1);
      else expect(stored.get(code) ?? 0, code).toBeLessThanOrEqual(1);
    }
    // The role holds the set of its last grant answered 200, or of a later one answered 503 — never a mix.
    const held = (await onDb<{ menu_id: string }>(`select menu_id::text from role_menu where role_id = $1`, [roleId]))
      .map((r) => r.menu_id)
      .sort();
    const lastOk = grants.map((g) => g.status).lastIndexOf(200);
    const possible = grants.slice(Math.max(0, lastOk)).map((g) => [...sets[g.set]].sort());
    expect(
      possible.some((p) => JSON.stringify(p) === JSON.stringify(held)),
      `held ${held.length} menus`,
    ).toBe(true);
    // And it serves again at once.
    expect((await list()).status).toBe(200);
  }, 120_000);

  it('while the database cannot be reached: API calls get 503 at once (in both languages), the console is still served, and it recovers by itself', async () => {
    proxy.blackhole();
    // The first call may wait for its connection attempt (CONNECT_TIMEOUT_MS); after it every call is answered at once.
    const first = await call('GET', '/api/blade-system/post/list');
    expect(first.status).toBe(503);
    const zh = await call('GET', '/api/blade-system/post/list');
    const en = await call('GET', '/api/blade-system/post/list', undefined, 'en');
    expect(zh.status).toBe(503);
    expect(JSON.parse(zh.text)).toMatchObject({ code: 503, msg: '数据库暂时不可用，请稍后重试' });
    expect(JSON.parse(en.text)).toMatchObject({
      code: 503,
      msg: 'The database is unavailable right now; try again shortly',
    });
    expect(Math.max(zh.ms, en.ms)).toBeLessThan(1000);
    const page = await fetch(`${base}/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Atrium</title>');
    // Refused outright (a stopped database): still 503.
    await proxy.down();
    expect((await call('GET', '/api/blade-system/post/list')).status).toBe(503);
    await proxy.up();
    const back = performance.now();
    let status = 0;
    while (performance.now() - back < 10_000) {
      status = (await call('GET', '/api/blade-system/post/list')).status;
      if (status === 200) break;
      await sleep(100);
    }
    expect(status).toBe(200);
    expect(server.proc.exitCode).toBeNull();
    expect(server.output()).toMatch(/database unavailable: API calls are answered 503/);
    expect(server.output()).toMatch(/database is back after \d+ ms/);
  }, 60_000);
});

onPg('start-up while the database ends its connections', () => {
  it('a start on an empty database whose connections are ended during the migration lock tries again and starts', async () => {
    const db = await newDatabase(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-outage-start-'));
    const port = await freePort();
    const server = spawnServer(dir, port, {
      DATABASE_URL: db.url,
      ATRIUM_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ATRIUM_MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
    });
    try {
      let ended = 0;
      const until = Date.now() + 60_000;
      // Each time a start-up holds the advisory lock (it is migrating or seeding), its connections are ended: twice.
      while (ended < 2 && Date.now() < until && server.proc.exitCode === null) {
        const held = await admin(
          `select 1 from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and d.datname = $1`,
          [db.name],
        );
        if (held.rowCount) {
          await sleep(ended ? 300 : 100);
          if ((await terminateAll(db.name)) > 0) ended++;
          await sleep(200);
        } else await sleep(20);
      }
      expect(ended).toBe(2);
      await waitReady(server, `http://127.0.0.1:${port}/api/blade-system/tenant/info?domain=x`);
      expect(server.proc.exitCode).toBeNull();
      expect(server.output()).toMatch(/The database is unavailable \(.+\): start-up attempt 1 failed, trying again/);
      // The start finished whole: the seed is there once.
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      const { rows } = await c.query(`select count(*)::int as n from tenant where tenant_id = '000000'`);
      await c.end();
      expect(rows[0].n).toBe(1);
    } finally {
      server.proc.kill('SIGKILL');
      await server.exited;
      await dropDatabase(db.name);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

onPg('the outbox while the database goes away during a delivery', () => {
  let database: Database;
  let proxy: DbProxy;
  let db: { url: string; name: string };
  let smtp: SMTPServer;
  let release = () => {};
  let receiving: Promise<void>;
  let onReceive = () => {};
  const received: string[] = [];

  beforeAll(async () => {
    db = await newDatabase();
    const u = new URL(URL_!);
    proxy = await startDbProxy({ host: u.hostname, port: Number(u.port || 5432) });
    database = await openDatabase({ databaseUrl: proxy.via(db.url), poolSize: 4 });
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString()));
        stream.on('end', () => {
          received.push(session.envelope.rcptTo.map((r) => r.address).join(','));
          onReceive();
          // The answer waits until the test lets it go: the database goes away meanwhile.
          release = () => cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  }, 60_000);
  afterAll(async () => {
    await new Promise<void>((r) => smtp?.close(() => r()));
    await database?.close();
    await proxy?.close();
    if (db) await dropDatabase(db.name);
  });

  it('a message being sent when the database is cut is recorded as sent once it is back, and sent once', async () => {
    const { app, services } = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db: database.db,
      signingKey: randomBytes(32).toString('hex'),
    });
    await app.ready();
    try {
      const port = (smtp.server.address() as AddressInfo).port;
      // SMTP settings of the platform tenant, enabled, no login (the loopback server asks for none).
      await withTenant(database.db, '000000', (tx) =>
        tx.insert(smtpConfig).values({
          id: newId(),
          tenantId: '000000',
          name: 'loopback',
          host: '127.0.0.1',
          port,
          tlsMode: 1,
          fromAddress: 'noreply@atrium.test',
          status: 2,
        }),
      );
      const id = await withTenant(database.db, '000000', (tx) =>
        enqueueEmail(services, tx, { tenantId: '000000', to: 'first@example.com', subject: 'Outage', text: 'x' }),
      );
      const worker = new OutboxWorker(services, {});
      receiving = new Promise<void>((r) => (onReceive = r));
      const round = worker.runOnce();
      await receiving;
      // The message is on the wire: the database goes away, and comes back a second and a half later.
      await proxy.down();
      release();
      await sleep(1500);
      await proxy.up();
      expect(await round).toBe(1);
      const [row] = await database.db.select().from(outbox).where(eq(outbox.id, id));
      expect(row).toMatchObject({ status: 2, provider: 'smtp' });
      expect(received).toEqual(['first@example.com']);
      // The worker goes on: the next message is delivered too.
      const next = await withTenant(database.db, '000000', (tx) =>
        enqueueEmail(services, tx, { tenantId: '000000', to: 'second@example.com', subject: 'After', text: 'y' }),
      );
      onReceive = () => setImmediate(() => release());
      expect(await worker.runOnce()).toBe(1);
      expect((await database.db.select().from(outbox).where(eq(outbox.id, next)))[0].status).toBe(2);
      expect(received).toEqual(['first@example.com', 'second@example.com']);
    } finally {
      await app.close();
    }
  }, 60_000);
});
