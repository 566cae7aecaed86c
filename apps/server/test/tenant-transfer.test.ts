import { gzipSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { flowApi, system } from '@atrium/contract';
import { clientinfo } from '@atrium/contract/resources/customer/clientinfo';
import { rowsOf } from '../src/db/rows.ts';
import { tenantTableList } from '../src/db/schema/tables.ts';
import { startInstance } from '../src/modules/flow/index.ts';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  deleteTenantRows,
  exportTenant,
  importTenant,
  tenantTablesOf,
} from '../src/modules/tenant/transfer.ts';
import {
  bearer,
  client,
  createTestApp,
  login,
  loginToken,
  provisionedTenant,
  userToken,
  type TestApp,
} from './harness.ts';
import { LEAVE_XML } from './support/flow-fixture.ts';
import { sampleRecord } from './support/samples.ts';

/**
 * Per-tenant export and import (docs/tenants.md "Export format"): a tenant with data in many modules is exported,
 * its rows deleted, the export imported, and every tenant table holds the same rows again; its users log in and list.
 */
let t: TestApp;
let platform: string;
const A = '710041';
const B = '710042';
let aPassword: string;
let clientId: string;

/** Each tenant table's rows of a tenant, as a digest (count + md5 of the sorted row texts). */
async function digestOf(tenantId: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const { name } of tenantTableList()) {
    const [r] = await rowsOf<{ d: string }>(
      t.services.db,
      sql.raw(
        `select count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as d from "${name}" x where tenant_id = '${tenantId}'`,
      ),
    );
    out[name] = r.d;
  }
  return out;
}
const lines = async function* (text: string) {
  for (const l of text.split('\n')) if (l) yield l;
};
async function exported(tenantId: string): Promise<string> {
  let text = '';
  await exportTenant(t.services.db, tenantId, async (chunk) => void (text += chunk));
  return text;
}

beforeAll(async () => {
  t = await createTestApp();
  platform = (await loginToken(t)).access;
  const a = await provisionedTenant(t, platform, A);
  aPassword = a.password;
  await provisionedTenant(t, platform, B);
  const api = client(t, a.token);
  const data = async (url: string, body: object) => {
    const res = await api.post(url, body);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.body}`);
    return res.json().data as { id: string };
  };
  // Workflow: a model deployed and an instance waiting (docs/workflow.md).
  const model = await data(flowApi.modelSubmit.path, { modelKey: 'a_leave', name: '流程', xml: LEAVE_XML });
  const deployed = (await api.post(flowApi.modelDeploy.path, { modelId: model.id })).json().data as {
    definitions: { id: string }[];
  };
  const [adminRow] = await rowsOf<{ id: string }>(
    t.services.db,
    sql`select id::text as id from "user" where tenant_id = ${A} and account = 'admin'`,
  );
  await startInstance(
    t.services,
    { tenantId: A, userId: adminRow.id, roleIds: [] },
    {
      definitionId: deployed.definitions[0].id,
      variables: { taskUser: adminRow.id },
    },
  );
  // One record of every bound tenant resource (clients, devices, users, roles, …), made from the definitions.
  for (const b of t.services.registry.bindings.values())
    if (b.def.scope === 'tenant' && !b.def.platformOnly) {
      const id = await sampleRecord(t, b, a.token, A);
      if (b.def.code === clientinfo.code) clientId = id;
    }
});
afterAll(async () => t?.close());

describe('the tables an export covers', () => {
  it('are every table of the schema registry that carries tenant_id, and the database has no other', async () => {
    const tables = await tenantTablesOf((text) => rowsOf(t.services.db, sql.raw(text)));
    const inDb = await rowsOf<{ name: string }>(
      t.services.db,
      sql`select distinct c.table_name as name from information_schema.columns c
          join pg_class k on k.relname = c.table_name and k.relkind = 'r' and k.relrowsecurity
          where c.table_schema = 'public' and c.column_name = 'tenant_id'`,
    );
    const names = tables.map((x) => x.name).sort();
    // Row-level security marks a tenant table (schema.test.ts): each one is exported.
    expect(names).toEqual(expect.arrayContaining(inDb.map((r) => r.name)));
    expect(names).toEqual(expect.arrayContaining(['client_info', 'camera_device', 'user', 'role', 'flow_instance']));
    // Parents before children: a device after its client, a role's menus after the role.
    expect(names.indexOf('client_info')).toBeGreaterThanOrEqual(0);
    const order = tables.map((x) => x.name);
    expect(order.indexOf('camera_device')).toBeGreaterThan(order.indexOf('client_info'));
    expect(order.indexOf('role_menu')).toBeGreaterThan(order.indexOf('role'));
    // Generated columns are left out (the database computes them again).
    expect(tables.find((x) => x.name === 'client_info')!.columns).not.toContain('region_p2');
  });
});

describe('export, delete, import', () => {
  it('brings back every row of every tenant table, and the tenant works as before', async () => {
    const before = await digestOf(A);
    const others = await digestOf(B);
    expect(Number(before.client_info.split(':')[0])).toBeGreaterThan(0);
    expect(Number(before.camera_device.split(':')[0])).toBeGreaterThan(0);
    expect(Number(before.flow_instance.split(':')[0])).toBe(1);
    const text = await exported(A);
    const header = JSON.parse(text.slice(0, text.indexOf('\n')));
    expect(header).toMatchObject({ format: EXPORT_FORMAT, version: EXPORT_VERSION, tenantId: A });
    expect(header.tables).toEqual(expect.arrayContaining(['client_info', 'user']));

    const deleted = await deleteTenantRows(t.services.db, A);
    expect(deleted).toBeGreaterThan(50);
    const empty = await digestOf(A);
    expect(Object.values(empty).filter((d) => !d.startsWith('0:'))).toEqual([]);
    // A's admin cannot log in while its rows are gone.
    const refused = await login(t, { tenantId: A, username: 'admin', password: aPassword });
    expect(refused.json().error_description).toBe('用户名或密码错误');

    const done = await importTenant(t.services.db, A, lines(text));
    expect(done.rows).toBe(deleted);
    expect(await digestOf(A)).toEqual(before);
    expect(await digestOf(B)).toEqual(others);

    const token = await userToken(t, A, 'admin', aPassword);
    const list = await client(t, token).get(`${clientinfo.base}/${clientinfo.listPath}?current=1&size=10`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.records.map((r: { id: string }) => r.id)).toContain(clientId);
  });

  it('refuses a tenant that holds rows, unless told to replace them', async () => {
    const text = await exported(A);
    const before = await digestOf(A);
    await expect(importTenant(t.services.db, A, lines(text))).rejects.toMatchObject({
      status: 400,
      text: {
        en: 'The tenant already holds data: an import fills an empty tenant only; choose "replace" to overwrite it',
      },
    });
    const done = await importTenant(t.services.db, A, lines(text), { replace: true });
    expect(done.rows).toBe(Number(Object.values(before).reduce((n, d) => n + Number(d.split(':')[0]), 0)));
    expect(await digestOf(A)).toEqual(before);
  });

  it('refuses another version, another migration, another tenant and a cut file, and writes nothing', async () => {
    const text = await exported(A);
    const [head, ...rest] = text.split('\n');
    const h = JSON.parse(head);
    const withHeader = (x: object) => [JSON.stringify({ ...h, ...x }), ...rest].join('\n');
    await deleteTenantRows(t.services.db, A);
    const msgOf = async (p: Promise<unknown>) => ((await p.catch((e) => e)) as { text: { en: string } }).text.en;
    expect(await msgOf(importTenant(t.services.db, A, lines(withHeader({ version: 2 }))))).toBe(
      'Export format version 2 is not supported (this server reads version 1)',
    );
    expect(await msgOf(importTenant(t.services.db, A, lines(withHeader({ migration: '1' }))))).toMatch(
      /^The export was made at schema migration 1 and this database is at \d+/,
    );
    expect(await msgOf(importTenant(t.services.db, B, lines(text)))).toBe(
      `The export belongs to tenant ${A} and cannot be imported into another tenant`,
    );
    expect(await msgOf(importTenant(t.services.db, A, lines('{"hello":1}')))).toBe(
      'The file is not a tenant export (its first line must be an atrium-tenant-export header)',
    );
    const cut = text.split('\n').slice(0, -20).join('\n');
    expect(await msgOf(importTenant(t.services.db, A, lines(cut)))).toMatch(/^Line \d+ of the export is damaged/);
    // A row of another tenant smuggled into the file.
    const forged = [head, rest.join('\n').replace(`"${A}"`, `"${B}"`)].join('\n');
    expect(await msgOf(importTenant(t.services.db, A, lines(forged)))).toBe(
      `The export belongs to tenant ${B} and cannot be imported into another tenant`,
    );
    const empty = await digestOf(A);
    expect(Object.values(empty).filter((d) => !d.startsWith('0:'))).toEqual([]);
    await importTenant(t.services.db, A, lines(text));
  });
});

describe('the routes', () => {
  it('download and upload a tenant, platform administrator only', async () => {
    const before = await digestOf(A);
    const api = client(t, platform);
    const res = await api.get(`${system.tenantExport.path}?tenantId=${A}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    const text = gunzipSync(res.rawPayload).toString('utf8');
    expect(JSON.parse(text.slice(0, text.indexOf('\n'))).tenantId).toBe(A);

    const upload = (body: Buffer, query: string) => {
      const boundary = 'xTenantBoundary';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.ndjson.gz"\r\nContent-Type: application/gzip\r\n\r\n`,
        ),
        body,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return t.app.inject({
        method: 'POST',
        url: `${system.tenantImport.path}?${query}`,
        headers: {
          ...bearer(platform),
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'accept-language': 'en',
        },
        payload,
      });
    };
    const refused = await upload(gzipSync(text), `tenantId=${A}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toMatch(/^The tenant already holds data/);
    const replaced = await upload(gzipSync(text), `tenantId=${A}&replace=true`);
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().data.rows).toBeGreaterThan(50);
    expect(await digestOf(A)).toEqual(before);
    const plainText = await upload(Buffer.from(text), `tenantId=${A}&replace=true`);
    expect(plainText.statusCode).toBe(200);

    // A tenant administrator (not the platform's) is refused both.
    const b = await userToken(t, A, 'admin', aPassword);
    expect((await client(t, b).get(`${system.tenantExport.path}?tenantId=${A}`)).statusCode).toBe(403);
    expect((await api.get(`${system.tenantExport.path}?tenantId=799999`)).statusCode).toBe(404);
  });
});
