// A moved tenant's background work (docs/tenants.md "Background work"), on PostgreSQL: tenant M lives on a database
// of its own, tenant N stays on the main one. A device message of M's camera, the offline sweep, a workflow timer, an
// outbox message and the statistics rollup all do their work in M's database and leave the main one untouched.
import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.ts';
import { cameraDevice } from '../src/modules/device/table.ts';
import { deviceAccessOf } from '../src/modules/device-access/module.ts';
import { signedMessage } from '../src/modules/device-access/signing.ts';
import { flowApi } from '@atrium/contract';
import { TimerWorker, flowTask, startInstance } from '../src/modules/flow/index.ts';
import { outboxWorkerOf } from '../src/modules/outbox/module.ts';
import { backlog, enqueueSms } from '../src/modules/outbox/service.ts';
import { BLACK_TYPE, isBlocked } from '../src/modules/blacklist/enforce.ts';
import { blackInfo } from '../src/modules/blacklist/table.ts';
import { rollupTenants, runRollup } from '../src/modules/statistics/rollup.ts';
import { addDays, dayIn } from '../src/modules/statistics/service.ts';
import { tenantRoutesOf } from '../src/platform/tenant-route.ts';
import { seal } from '../src/platform/secrets.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { client, createTestApp, loginToken, userToken, type TestApp } from './harness.ts';
import { deploy, flowTenant, TIMER_XML, type FlowTenant } from './support/flow-fixture.ts';
import { MOVE_NETWORKS, adminRows, dbOfTenant, mainDbName, moveTenant, type TenantDatabase } from './support/moved.ts';

const PG = process.env.DATABASE_URL;
/** The tenants (the test's database is its own); `run` names this run's MQTT client. */
const run = String(randomInt(1_000_000, 9_999_999));
const M = '710071';
const N = '710072';
/** The embedded broker's port: one of 8440–8459, a range no other test uses (8300–8370: the video and cluster tests). */
const MQTT_PORT = 8440 + randomInt(0, 20);

let t: TestApp;
let target: TenantDatabase;
let platform: string;
const flows: Record<string, { tenant: FlowTenant; definitionId: string }> = {};
const early = { instance: '', sms: '' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One number read as the superuser on the main database or on M's. */
async function count(text: string, where: 'main' | 'moved'): Promise<number> {
  const [r] = await adminRows(text, where === 'main' ? mainDbName(t) : target.name);
  return Number(r.n);
}

let serial = 0;
async function addCamera(tenantId: string) {
  const id = newId();
  const code = `1101010000132${String(randomInt(0, 99)).padStart(2, '0')}${String(++serial).padStart(5, '0')}`;
  const secret = `s-${newId()}`;
  await withTenant(t.services.db, tenantId, (tx) =>
    tx.insert(cameraDevice).values({
      id,
      tenantId,
      deviceCode: code,
      name: `cam ${code}`,
      deviceType: '132',
      regionCode: '11010100',
      secretSealed: seal(t.services, secret),
      status: 0,
    }),
  );
  return { id, code, secret, tenantId };
}

describe.skipIf(!PG)('a moved tenant’s background work', () => {
  beforeAll(async () => {
    t = await createTestApp({
      datasourcePrivateNetworks: MOVE_NETWORKS,
      mqtt: { port: MQTT_PORT, portExplicit: true, heartbeatSeconds: 60, anonymous: true },
    });
    platform = (await loginToken(t)).access;
    for (const id of [M, N]) {
      const tenant = await flowTenant(t.services.db, id);
      flows[id] = { tenant, definitionId: await deploy(t.services.db, id, 'late', TIMER_XML) };
    }
    // Queued before the move (no worker runs in these tests but the ones called): a timer and a message of M's,
    // which the move carries to M's database.
    const { tenant, definitionId } = flows[M];
    early.instance = (
      await startInstance(t.services, tenant.applicant, {
        definitionId,
        variables: { taskUser: tenant.manager.userId },
      })
    ).instanceId;
    early.sms = await withTenant(t.services.db, M, (tx) =>
      enqueueSms(t.services, tx, { tenantId: M, phone: '13800000002', text: 'queued before the move' }),
    );
    const queued = `(select count(*) from flow_timer where tenant_id = '${M}') + (select count(*) from outbox_job where tenant_id = '${M}')`;
    expect(Number((await adminRows(`select ${queued} as n`, mainDbName(t)))[0].n)).toBe(2);
    target = await moveTenant(t, platform, M);
    expect(Number((await adminRows(`select ${queued} as n`, mainDbName(t)))[0].n)).toBe(0);
    expect(Number((await adminRows(`select ${queued} as n`, target.name))[0].n)).toBe(2);
    expect(dbOfTenant(t, M)).not.toBe(t.services.db);
    expect(dbOfTenant(t, N)).toBe(t.services.db);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await target?.drop();
  });

  it('a device message of a moved camera writes its state and last message in the tenant’s database', async () => {
    const cam = await addCamera(M);
    const access = deviceAccessOf(t.services)!.access;
    const pub = await mqtt.connectAsync(`mqtt://127.0.0.1:${MQTT_PORT}`, { clientId: `mm-${run}` });
    const ts = t.services.now().getTime() - 1000;
    try {
      const m = signedMessage(cam.secret, M, cam.code, { online: true, ts });
      await pub.publishAsync(m.topic, m.payload, { qos: 1 });
      await access.flush();
    } finally {
      await pub.endAsync();
    }
    const [row] = await adminRows(
      `select status, (extract(epoch from last_seen) * 1000)::bigint::text as seen from camera_device where id = ${cam.id}`,
      target.name,
    );
    expect(row).toEqual({ status: 1, seen: String(ts) });
    expect(
      await count(
        `select count(*) as n from device_status_event where device_id = ${cam.id} and to_status = 1`,
        'moved',
      ),
    ).toBe(1);
    // The main database holds nothing of it.
    expect(await count(`select count(*) as n from camera_device where tenant_id = '${M}'`, 'main')).toBe(0);
    expect(await count(`select count(*) as n from device_status_event where tenant_id = '${M}'`, 'main')).toBe(0);

    // Silent for three heartbeat intervals: the sweep marks it offline there, with its event.
    t.clock.offsetMs += 181_000;
    try {
      expect(await access.sweep()).toBeGreaterThanOrEqual(1);
    } finally {
      t.clock.offsetMs -= 181_000;
    }
    expect(await count(`select status as n from camera_device where id = ${cam.id}`, 'moved')).toBe(0);
    expect(
      await count(
        `select count(*) as n from device_status_event where device_id = ${cam.id} and to_status = 0`,
        'moved',
      ),
    ).toBe(1);
  });

  it('the statistics rollup writes the moved tenant’s daily rows in its database', async () => {
    await addCamera(M);
    await addCamera(N);
    const today = dayIn(t.services.config.timeZone, t.services.now());
    expect(await runRollup(t.services, today)).toBeGreaterThanOrEqual(2);
    expect(await count(`select count(*) as n from stat_device_daily where tenant_id = '${M}'`, 'moved')).toBe(4);
    expect(await count(`select count(*) as n from stat_device_daily where tenant_id = '${M}'`, 'main')).toBe(0);
    expect(await count(`select count(*) as n from stat_device_daily where tenant_id = '${N}'`, 'main')).toBe(4);
  });

  it('a workflow timer of the moved tenant fires', async () => {
    const started: Record<string, string> = {};
    for (const id of [M, N]) {
      const { tenant, definitionId } = flows[id];
      started[id] = (
        await startInstance(t.services, tenant.applicant, {
          definitionId,
          variables: { taskUser: tenant.manager.userId },
        })
      ).instanceId;
    }
    await sleep(1100);
    const worker = new TimerWorker(t.services);
    for (let i = 0; i < 5 && (await worker.runOnce()) > 0; i++);
    for (const id of [M, N]) {
      const open = await dbOfTenant(t, id)
        .select({ elementId: flowTask.elementId })
        .from(flowTask)
        .where(and(eq(flowTask.instanceId, started[id]), eq(flowTask.status, 1)));
      expect([id, open.map((x) => x.elementId)]).toEqual([id, ['escalated']]);
    }
    // The timer queued before the move fired on M's database too.
    const before = await dbOfTenant(t, M)
      .select({ elementId: flowTask.elementId })
      .from(flowTask)
      .where(and(eq(flowTask.instanceId, early.instance), eq(flowTask.status, 1)));
    expect(before.map((x) => x.elementId)).toEqual(['escalated']);
    expect(await count(`select count(*) as n from flow_timer where tenant_id = '${M}'`, 'moved')).toBe(0);
    expect(await count(`select count(*) as n from flow_timer where tenant_id = '${M}'`, 'main')).toBe(0);
  });

  it('an outbox message of the moved tenant is delivered', async () => {
    // Queued in a transaction of the tenant (as send-message does), then delivered by the app's worker.
    const id = await withTenant(t.services.db, M, (tx) =>
      enqueueSms(t.services, tx, { tenantId: M, phone: '13800000001', text: 'moved 482913' }),
    );
    // The backlog metric counts both, on M's database.
    expect(await backlog(t.services)).toEqual({ queued: 2, due: 2 });
    const worker = outboxWorkerOf(t.services)!;
    for (let i = 0; i < 5 && (await worker.runOnce()) > 0; i++);
    const [row] = await adminRows(
      `select status, provider, attempts, recipient from outbox where id = ${id}`,
      target.name,
    );
    expect(row).toEqual({ status: 2, provider: 'outbox', attempts: 1, recipient: '13800000001' });
    // The message queued before the move was delivered there too.
    const [first] = await adminRows(`select status, recipient from outbox where id = ${early.sms}`, target.name);
    expect(first).toEqual({ status: 2, recipient: '13800000002' });
    expect(await count(`select count(*) as n from outbox where tenant_id = '${M}'`, 'main')).toBe(0);
    expect(await count(`select count(*) as n from outbox_job where id = ${id}`, 'main')).toBe(0);
    expect(await count(`select count(*) as n from outbox_job where id = ${id}`, 'moved')).toBe(0);
  });

  it('the platform’s blacklist holds inside a moved tenant’s transaction, and its cache is not emptied by it', async () => {
    // The platform's entries live on the main database (its tenant 000000 never moves).
    await withTenant(t.services.db, '000000', (tx) =>
      tx.insert(blackInfo).values({ id: newId(), tenantId: '000000', type: BLACK_TYPE.word, value: 'forbiddenword' }),
    );
    t.services.cache.clearAll();
    // A check from inside M's transaction (as the sub-domain check makes it), on M's database.
    const inside = await withTenant(t.services.db, M, (tx) =>
      isBlocked(t.services, M, BLACK_TYPE.word, 'forbiddenword', { tx }),
    );
    expect(inside).toBe(true);
    // And the cached platform list is the platform's, for a tenant on the main database too.
    expect(await isBlocked(t.services, N, BLACK_TYPE.word, 'forbiddenword')).toBe(true);
  });

  it('the platform administrator repairs a moved tenant’s admin in the tenant’s database', async () => {
    const [row] = await adminRows(`select id::text as id from tenant where tenant_id = '${M}'`, mainDbName(t));
    const res = await client(t, platform).post('/api/blade-system/tenant/repair-admin', { id: row.id });
    expect(res.statusCode, res.body).toBe(200);
    const { account, password } = res.json().data as { account: string; password: string };
    expect(account).toBe('admin');
    // The admin is written where M lives: it logs in and lists M's users; the main database holds none of M's rows.
    const token = await userToken(t, M, account, password);
    const users = await client(t, token).get('/api/blade-user/page?size=50');
    expect(users.statusCode, users.body).toBe(200);
    expect((users.json().data.records as { account: string }[]).map((u) => u.account)).toContain('admin');
    expect(await count(`select count(*) as n from "user" where tenant_id = '${M}'`, 'main')).toBe(0);
    expect(await count(`select count(*) as n from role_menu where tenant_id = '${M}'`, 'main')).toBe(0);
  });

  it('the platform deploys a process for a moved tenant and one on the main database, each in its own', async () => {
    const api = client(t, platform);
    const xml = TIMER_XML.replace('id="late"', 'id="shared"');
    const model = await api.post(flowApi.modelSubmit.path, { modelKey: 'shared', name: 'shared', xml });
    expect(model.statusCode, model.body).toBe(200);
    const res = await api.post(flowApi.modelDeploy.path, { modelId: model.json().data.id, tenantIds: [M, N] });
    expect(res.statusCode, res.body).toBe(200);
    const defs = `select count(*) as n from flow_definition where def_key = 'shared' and tenant_id =`;
    expect(await count(`${defs} '${M}'`, 'moved')).toBe(1);
    expect(await count(`${defs} '${M}'`, 'main')).toBe(0);
    expect(await count(`${defs} '${N}'`, 'main')).toBe(1);
  });

  it('a tenant being moved is skipped by the rollup and the sweep, which go on with the others', async () => {
    const routes = tenantRoutesOf(t.services.db);
    // Run as on the next day (in the server's time zone): today is the day to roll up.
    const today = dayIn(t.services.config.timeZone, t.services.now());
    routes.moving.add(M);
    try {
      const tomorrow = addDays(today, 1);
      const out = await rollupTenants(t.services, tomorrow);
      expect(out.skipped).toBe(1);
      expect(out.written).toBeGreaterThanOrEqual(4);
      expect(await deviceAccessOf(t.services)!.access.sweep()).toBe(0);
    } finally {
      routes.moving.delete(M);
    }
    const day = `select count(*) as n from stat_device_daily where day = '${today}' and tenant_id =`;
    expect(await count(`${day} '${N}'`, 'main')).toBe(4);
    expect(await count(`${day} '${M}'`, 'moved')).toBe(0);
  });
});
