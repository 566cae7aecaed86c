import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, type RouteEntry } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { seedIfEmpty } from '../src/seed/seed.ts';
import { md5Hex } from '../src/platform/password.ts';
import type { Services } from '../src/platform/services.ts';
import { ADMIN_PASSWORD } from './global-setup.ts';
import { watchCaptchas } from './support/captchas.ts';

export { ADMIN_PASSWORD };
export const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

export type TestApp = {
  app: FastifyInstance;
  services: Services;
  database: Database;
  config: Config;
  captchas: Map<string, string>;
  clock: { offsetMs: number };
  routeTable: RouteEntry[];
  /** The token signing key, shared by a second instance (`secondInstance`). */
  signingKey: string;
  /** The PostgreSQL database of this app (undefined on PGlite). */
  databaseUrl?: string;
  close(): Promise<void>;
};

export type TestDbOptions = {
  /** Build this database from scratch (migrations, then the seed) instead of copying the run's seeded image. */
  fresh?: boolean;
  /** The app's logger (default: none), e.g. to scan what would be logged. */
  logger?: import('fastify').FastifyServerOptions['logger'];
  /** false: migrated but never seeded (implies fresh). */
  seed?: boolean;
};

/** A test's database without an app: what service-level tests call the modules' functions on. */
export type TestDb = {
  database: Database;
  /** The PostgreSQL database (undefined on PGlite). */
  databaseUrl?: string;
  /** Closes the database and drops it (PostgreSQL). */
  close(): Promise<void>;
};

/**
 * A real database, without an app: PGlite in memory, or — when DATABASE_URL is set — a throwaway PostgreSQL database
 * created for this test file and dropped on `close`. It starts as a copy of the migrated, seeded image that
 * test/global-setup.ts builds once per run, unless `db` asks for a fresh one.
 */
export async function createTestDb(db: TestDbOptions = {}): Promise<TestDb> {
  const fresh = db.fresh || db.seed === false;
  // Undefined when run without the global setup (another config): then every file migrates and seeds itself.
  const image = fresh ? undefined : inject('dbImage');
  let dbUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  let loadDataDir: Blob | undefined;
  if (process.env.DATABASE_URL) {
    const name = `atrium_t_${randomBytes(6).toString('hex')}`;
    const template = image?.kind === 'postgres' ? ` TEMPLATE ${image.template}` : '';
    await adminQuery(`CREATE DATABASE ${name}${template}`);
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${name}`;
    dbUrl = u.toString();
    dropDb = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } else if (image?.kind === 'pglite') {
    loadDataDir = new Blob([fs.readFileSync(image.file)], { type: 'application/x-tar' });
  }
  const fromImage = Boolean(image && (dbUrl ? image.kind === 'postgres' : loadDataDir));
  const database = await openDatabase({ databaseUrl: dbUrl, dataDir: 'memory://', poolSize: 4, loadDataDir });
  if (!fromImage) {
    await database.migrate();
    if (db.seed !== false) await seedIfEmpty(database.db, { adminPassword: ADMIN_PASSWORD });
  }
  return {
    database,
    databaseUrl: dbUrl,
    async close() {
      await database.close();
      await dropDb?.();
    },
  };
}

/** A test's configuration on a data directory of its own (a fresh temporary folder: remove `dataDir` after). */
export function testConfig(overrides: Partial<Config> = {}): { config: Config; dataDir: string } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-test-'));
  const config: Config = {
    ...loadConfig({
      NODE_ENV: 'test',
      ATRIUM_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ATRIUM_FFMPEG: process.env.ATRIUM_FFMPEG,
    }),
    ...overrides,
  };
  return { config, dataDir };
}

/** A real app on a real database (`createTestDb`: PGlite in memory, or a throwaway PostgreSQL database). */
export async function createTestApp(
  overrides: Partial<Config> = {},
  setup?: (app: FastifyInstance, services: Services) => void,
  db: TestDbOptions = {},
): Promise<TestApp> {
  const { config, dataDir } = testConfig(overrides);
  const testDb = await createTestDb(db);
  const { database, databaseUrl: dbUrl } = testDb;
  const captchas = new Map<string, string>();
  const clock = { offsetMs: 0 };
  const signingKey = randomBytes(32).toString('hex');
  const { app, services, routeTable } = await buildApp({
    config,
    db: database.db,
    logger: db.logger,
    signingKey,
    now: () => new Date(Date.now() + clock.offsetMs),
  });
  watchCaptchas(services, (key, text) => captchas.set(key, text));
  setup?.(app, services);
  await app.ready();
  return {
    app,
    services,
    database,
    config,
    captchas,
    clock,
    routeTable,
    signingKey,
    databaseUrl: dbUrl,
    async close() {
      await app.close();
      await testDb.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second server on the same database as `t`: its own app, cache and token service, the same signing key (as two
 * instances behind one load balancer). On PostgreSQL it has a pool of its own; PGlite has one connection, which both
 * share. Close it before `t`. `databaseUrl`: reach `t`'s PostgreSQL database another way (e.g. through a proxy).
 * `config`: the second server's own (e.g. another data dir, as on another machine).
 */
export async function secondInstance(
  t: TestApp,
  databaseUrl = t.databaseUrl,
  config: Config = t.config,
): Promise<TestApp> {
  const database = databaseUrl
    ? await openDatabase({ databaseUrl, poolSize: 4 })
    : { ...t.database, close: async () => {} };
  const captchas = new Map<string, string>();
  const clock = { offsetMs: 0 };
  const { app, services, routeTable } = await buildApp({
    config,
    db: database.db,
    signingKey: t.signingKey,
    now: () => new Date(Date.now() + clock.offsetMs),
  });
  watchCaptchas(services, (key, text) => captchas.set(key, text));
  await app.ready();
  return {
    ...t,
    app,
    services,
    config,
    database,
    captchas,
    clock,
    routeTable,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** One statement on the DATABASE_URL database, for creating and dropping the per-file databases. */
async function adminQuery(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export async function newCaptcha(t: TestApp): Promise<{ key: string; code: string }> {
  const res = await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
  const { key } = res.json() as { key: string };
  return { key, code: t.captchas.get(key)! };
}

export type LoginInput = {
  tenantId?: string;
  username?: string;
  password?: string;
  captcha?: { key: string; code: string } | null;
  plain?: boolean;
};

/** The login of the console: captcha first, then the token call with the MD5 of the typed password. */
export async function login(t: TestApp, input: LoginInput = {}) {
  const captcha = input.captcha === undefined ? await newCaptcha(t) : input.captcha;
  const tenantId = input.tenantId ?? '000000';
  const password = input.password ?? ADMIN_PASSWORD;
  const query = new URLSearchParams({
    tenantId,
    username: input.username ?? 'admin',
    password: input.plain ? password : md5Hex(password),
    grant_type: captcha ? 'captcha' : 'password',
    scope: 'all',
    type: 'account',
  });
  return t.app.inject({
    method: 'POST',
    url: `/api/blade-auth/oauth/token?${query}`,
    headers: {
      authorization: BASIC,
      'tenant-id': tenantId,
      ...(captcha ? { 'captcha-key': captcha.key, 'captcha-code': captcha.code } : {}),
    },
  });
}

export async function loginToken(
  t: TestApp,
  input: LoginInput = {},
): Promise<{ access: string; refresh: string; body: Record<string, unknown> }> {
  const res = await login(t, input);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { access: body.access_token, refresh: body.refresh_token, body };
}

export const bearer = (token: string) => ({ 'blade-auth': `bearer ${token}`, authorization: BASIC });

/**
 * A tenant (created if missing) with a role granted exactly `codes` (menus of the platform tree, by code)
 * and a user holding that role. Returns the user's token.
 */
export async function tenantUser(
  t: TestApp,
  tenantId: string,
  account: string,
  codes: string[],
  password = 'Tenant#2026x',
): Promise<string> {
  const { tenant: tenantT, role, roleMenu, menu, user, userRole } = await import('../src/db/schema/index.ts');
  const { newId } = await import('../src/db/ids.ts');
  const { hashPassword } = await import('../src/platform/password.ts');
  const { eq, inArray } = await import('drizzle-orm');
  const db = t.services.db;
  const existing = await db.select().from(tenantT).where(eq(tenantT.tenantId, tenantId));
  if (!existing.length) await db.insert(tenantT).values({ id: newId(), tenantId, tenantName: `T${tenantId}` });
  const roleId = newId();
  await db.insert(role).values({ id: roleId, tenantId, roleName: `role-${account}`, roleAlias: `role_${account}` });
  const menus = codes.length ? await db.select({ id: menu.id }).from(menu).where(inArray(menu.code, codes)) : [];
  if (menus.length !== codes.length) throw new Error(`unknown menu codes among ${codes.join(',')}`);
  if (menus.length) await db.insert(roleMenu).values(menus.map((m) => ({ roleId, menuId: m.id, tenantId })));
  const userId = newId();
  await db
    .insert(user)
    .values({ id: userId, tenantId, account, password: await hashPassword(md5Hex(password)), realName: account });
  await db.insert(userRole).values({ userId, roleId, tenantId });
  t.services.cache.clearAll();
  return (await loginToken(t, { tenantId, username: account, password })).access;
}

/** GET / POST as a token holder, JSON in and out. */
export function client(t: TestApp, token: string, lang?: 'en') {
  const headers = { ...bearer(token), ...(lang ? { 'accept-language': 'en' } : {}) };
  return {
    get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload?: object) =>
      t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) }),
  };
}

/**
 * The platform administrator creates a tenant through the API (provisioning its admin); returns the tenant's
 * admin token and the one-time password.
 */
export async function provisionedTenant(
  t: TestApp,
  platformToken: string,
  tenantId: string,
  extra: Record<string, unknown> = {},
) {
  const res = await client(t, platformToken).post('/api/blade-system/tenant/submit', {
    tenantId,
    tenantName: `租户${tenantId}`,
    ...extra,
  });
  if (res.statusCode !== 200) throw new Error(`tenant submit failed: ${res.body}`);
  const data = res.json().data as { id: string; adminAccount: string; adminPassword: string };
  const token = await userToken(t, tenantId, data.adminAccount, data.adminPassword);
  return { token, tenantRowId: data.id, password: data.adminPassword };
}

/** Logs a user in; a first password given by an administrator is changed (to itself) the way the console forces it. */
export async function userToken(t: TestApp, tenantId: string, account: string, password: string): Promise<string> {
  const { access, body } = await loginToken(t, { tenantId, username: account, password });
  if (body.must_change_password) {
    const res = await client(t, access).post('/api/blade-user/update-password', {
      oldPassword: md5Hex(password),
      newPassword: password,
      newPassword1: password,
    });
    if (res.statusCode !== 200) throw new Error(`password change failed: ${res.body}`);
  }
  return access;
}
