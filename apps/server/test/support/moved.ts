import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { system } from '@atrium/contract';
import { datasource } from '@atrium/contract/resources/system/datasource';
import type { Db } from '../../src/db/client.ts';
import { tenantRoutesOf } from '../../src/platform/tenant-route.ts';
import { client, type TestApp } from '../harness.ts';

/**
 * A tenant moved to a database of its own in a test (docs/tenants.md "Moving a tenant"), on PostgreSQL only: a
 * throwaway database beside the test's, a data source record naming it (the app must allow `127.0.0.0/8`:
 * `createTestApp({ datasourcePrivateNetworks: MOVE_NETWORKS })`), the tenant bound through the real route, and the
 * database dropped afterwards. Shared by test/tenant-move.test.ts and the generated matrices.
 */
export const MOVE_NETWORKS = ['127.0.0.0/8'];

/** One statement as the server's superuser on a database of the run's server (default: DATABASE_URL's). */
export async function adminRows(text: string, database?: string): Promise<Record<string, unknown>[]> {
  const u = new URL(process.env.DATABASE_URL!);
  if (database) u.pathname = `/${database}`;
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    return (await c.query(text)).rows as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}

/** The name of a test app's own database. */
export const mainDbName = (t: TestApp) => new URL(t.databaseUrl!).pathname.slice(1);

export type TenantDatabase = {
  /** The throwaway database's name. */
  name: string;
  /** Its data source record's id. */
  datasourceId: string;
  /** Drops the database (after the app that used it is closed, or with the tenant moved back). */
  drop(): Promise<void>;
};

/** A throwaway database and a data source record naming it, saved by the platform administrator. */
export async function tenantDatabase(t: TestApp, platformToken: string): Promise<TenantDatabase> {
  const name = `atrium_tm_${randomBytes(4).toString('hex')}`;
  await adminRows(`create database ${name}`);
  const saved = await client(t, platformToken, 'en').post(`${datasource.base}/submit`, {
    name,
    url: `postgres://127.0.0.1:5432/${name}`,
    username: 'postgres',
  });
  if (saved.statusCode !== 200) {
    await adminRows(`drop database if exists ${name} with (force)`);
    throw new Error(`data source submit failed: ${saved.body}`);
  }
  return {
    name,
    datasourceId: String(saved.json().data.id),
    drop: async () => void (await adminRows(`drop database if exists ${name} with (force)`)),
  };
}

/** The platform administrator's `POST tenant/datasource` (an empty id moves the tenant back). */
export const bindRequest = (t: TestApp, platformToken: string, tenantId: string, datasourceId: string) =>
  client(t, platformToken, 'en').post(system.tenantDatasource.path, { tenantId, datasourceId });

/** Moves a tenant to a fresh database of its own through the real route; answers the database (drop it after). */
export async function moveTenant(t: TestApp, platformToken: string, tenantId: string): Promise<TenantDatabase> {
  const target = await tenantDatabase(t, platformToken);
  const res = await bindRequest(t, platformToken, tenantId, target.datasourceId);
  if (res.statusCode !== 200) {
    await target.drop();
    throw new Error(`moving ${tenantId} failed: ${res.body}`);
  }
  return target;
}

/** Moves a tenant back to the main database through the real route. */
export async function moveBack(t: TestApp, platformToken: string, tenantId: string): Promise<void> {
  const res = await bindRequest(t, platformToken, tenantId, '');
  if (res.statusCode !== 200) throw new Error(`moving ${tenantId} back failed: ${res.body}`);
}

/** The database that holds a tenant's rows now: its data source's when it is moved, else the app's main one. */
export const dbOfTenant = (t: TestApp, tenantId: string): Db =>
  tenantRoutesOf(t.services.db).databases.get(tenantId) ?? t.services.db;
