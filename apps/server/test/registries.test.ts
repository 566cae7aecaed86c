import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineResource } from '@atrium/contract';
import { decideApproval, registerApprovalEffect, type ApprovalRow } from '../src/modules/approval/service.ts';
import { blackInfo } from '../src/modules/blacklist/table.ts';
import { clientInUse, registerClientUsage } from '../src/modules/client/service.ts';
import { outboxWorkerOf } from '../src/modules/outbox/module.ts';
import { enqueueSms } from '../src/modules/outbox/service.ts';
import { regionInUse, registerRegionUsage } from '../src/modules/region/service.ts';
import { bindResource, resourceRoutes } from '../src/platform/resource.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import type { AuthContext } from '../src/platform/tokens.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * Per-app registries (docs/server.md "Registries"): what modules register for one another — bound resources, data
 * scope resources, client and region usages, approval effects, running outbox workers — belongs to the app that
 * registered it. Two apps built in one process (as the tests build them) share none of it.
 */
const probe = defineResource({
  code: 'registry_probe',
  group: 'test',
  base: '/api/test/registry-probe',
  label: { zh: 'registry', en: 'registry' },
  scope: 'tenant',
  dataScope: true,
  fields: {
    type: { kind: 'int', label: { zh: 'type', en: 'type' }, required: true, search: 'eq' },
    value: { kind: 'text', label: { zh: 'value', en: 'value' }, required: true },
  },
});

const TENANT = '000000';
const auth: AuthContext = {
  tenantId: TENANT,
  userId: '1',
  deptId: null,
  roleIds: [],
  account: 'admin',
  clientId: 'saber',
  sid: 'test',
};
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  // App A binds one more resource than B, and registers usages and an effect B never hears of.
  a = await createTestApp({}, (app, s) => {
    resourceRoutes(app, s, bindResource(probe, blackInfo));
    registerRegionUsage(s, async (_tx, codes) => (codes.includes('9901') ? '9901' : null));
    registerClientUsage(s, async (_tx, _tenantId, clientId) =>
      clientId === '424242' ? { zh: '探针', en: 'the probe' } : null,
    );
    registerApprovalEffect(s, 'registry_probe', async () => {});
  });
  b = await createTestApp();
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('per-app registries', () => {
  it('a resource bound in one app is not among the bindings or data-scope resources of another', () => {
    expect(a.services.registry.bindings.has(probe.code)).toBe(true);
    expect(b.services.registry.bindings.has(probe.code)).toBe(false);
    expect(a.services.registry.scopeResources.has(probe.code)).toBe(true);
    expect(b.services.registry.scopeResources.has(probe.code)).toBe(false);
    // Both apps hold every module's bindings of their own.
    expect([...b.services.registry.bindings.keys()]).toEqual(expect.arrayContaining(['post', 'blackinfo', 'client']));
    expect(b.services.registry.bindings.get('post')).not.toBe(a.services.registry.bindings.get('post'));
  });

  it("a region or client usage registered in one app is not asked by another's removal", async () => {
    const inA = await withTenant(a.services.db, TENANT, (tx) => regionInUse(a.services, tx, ['9901']));
    const inB = await withTenant(b.services.db, TENANT, (tx) => regionInUse(b.services, tx, ['9901']));
    expect([inA, inB]).toEqual(['9901', null]);
    const clientA = await withTenant(a.services.db, TENANT, (tx) => clientInUse(a.services, tx, TENANT, '424242'));
    const clientB = await withTenant(b.services.db, TENANT, (tx) => clientInUse(b.services, tx, TENANT, '424242'));
    expect([clientA?.en, clientB]).toEqual(['the probe', null]);
  });

  it("an approval effect registered in one app is unknown to another's decisions", async () => {
    // A stand-in with the fields decideApproval reads before it looks up the effect.
    const row = { id: '1', status: 0, referType: 'registry_probe', createUser: null } as unknown as ApprovalRow;
    const decided = withTenant(b.services.db, TENANT, (tx) =>
      decideApproval(b.services, tx, auth, row, { pass: true, opinion: null, requestId: 'r' }, new Date()),
    );
    await expect(decided).rejects.toMatchObject({ status: 400, message: expect.stringContaining('未知的业务类型') });
  });

  it("a message queued in one app wakes that app's outbox worker, never another app's", async () => {
    const workerA = outboxWorkerOf(a.services)!;
    const workerB = outboxWorkerOf(b.services)!;
    workerA.start();
    workerB.start();
    const kickedA = vi.spyOn(workerA, 'kick');
    const kickedB = vi.spyOn(workerB, 'kick');
    try {
      expect([...(a.services.registry.outboxWorkers ?? [])]).toEqual([workerA]);
      expect([...(b.services.registry.outboxWorkers ?? [])]).toEqual([workerB]);
      await withTenant(a.services.db, TENANT, (tx) =>
        enqueueSms(a.services, tx, { tenantId: TENANT, phone: '13800000000', text: 'registry probe' }),
      );
      expect(kickedA).toHaveBeenCalledTimes(1);
      expect(kickedB).not.toHaveBeenCalled();
    } finally {
      await workerA.stop();
      await workerB.stop();
    }
    expect(a.services.registry.outboxWorkers?.size).toBe(0);
  });
});
