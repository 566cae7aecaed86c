import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineResource } from '@atrium/contract';
import { blackInfo } from '../src/modules/blacklist/table.ts';
import { crudService } from '../src/platform/crud.ts';
import { bindResource } from '../src/platform/resource.ts';
import type { AuthContext } from '../src/platform/tokens.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * A definition's `default` is applied by the server on insert to the fields a body leaves out (docs/resources.md
 * "Defaults"), not only the column's default: a definition bound to the blacklist's table whose defaults differ from
 * the columns' (`status`: column 1, definition 0; `reason`: no column default).
 */
const probe = defineResource({
  code: 'defaults_probe',
  group: 'test',
  base: '/api/test/defaults-probe',
  label: { zh: 'defaults', en: 'defaults' },
  scope: 'tenant',
  fields: {
    type: { kind: 'int', label: { zh: 'type', en: 'type' }, required: true },
    value: { kind: 'text', label: { zh: 'value', en: 'value' }, required: true },
    reason: { kind: 'text', label: { zh: 'reason', en: 'reason' }, default: 'from the definition' },
    status: { kind: 'int', label: { zh: 'status', en: 'status' }, default: 0 },
  },
});

let t: TestApp;
const auth: AuthContext = {
  tenantId: '000000',
  userId: '1',
  deptId: null,
  roleIds: [],
  account: 'admin',
  clientId: 'saber',
  sid: 'test',
};
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe("a definition's defaults", () => {
  it('fill the fields an insert leaves out; a value sent, or null, wins; an update keeps what is stored', async () => {
    // Not a route of the app: bound without `resourceRoutes`, so not in the app's registry.
    const binding = bindResource(probe, blackInfo);
    const svc = crudService(t.services, binding.spec);

    const left = await svc.submit(auth, { type: 1, value: 'defaults-1' }, 'r1');
    expect({ reason: left.reason, status: left.status }).toEqual({ reason: 'from the definition', status: 0 });

    const sent = await svc.submit(auth, { type: 1, value: 'defaults-2', reason: 'mine', status: 1 }, 'r2');
    expect({ reason: sent.reason, status: sent.status }).toEqual({ reason: 'mine', status: 1 });

    const cleared = await svc.submit(auth, { type: 1, value: 'defaults-3', reason: null }, 'r3');
    expect(cleared.reason).toBeNull();

    // An update leaving the fields out keeps them (defaults are for inserts).
    const updated = await svc.submit(auth, { id: String(sent.id), type: 2, value: 'defaults-2' }, 'r4');
    expect({ type: updated.type, reason: updated.reason, status: updated.status }).toEqual({
      type: 2,
      reason: 'mine',
      status: 1,
    });
  });
});
