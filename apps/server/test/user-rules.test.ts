import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/platform/errors.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import type { AuthContext } from '../src/platform/tokens.ts';
import { userTexts as texts } from '../src/modules/user/messages.ts';
import { checkRegionReach, checkRoles } from '../src/modules/user/rules.ts';
import { createTestDb, type TestDb } from './harness.ts';

/** The user administration's rules called as functions on a database, without the app (modules/user/rules.ts). */

const TENANT = '000000';
let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => t?.close());

const run = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(t.database.db, TENANT, fn);
const admin: AuthContext = {
  tenantId: TENANT,
  userId: '1123598821738675201',
  account: 'admin',
  roleIds: [],
  deptId: null,
  clientId: 'atrium',
  sid: 'test',
};

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('checkRegionReach', () => {
  it('a region no live row has is refused as unknown (400 naming regionCode), before any reach is judged', async () => {
    const err = await refusal(run((tx) => checkRegionReach(tx, admin, '990101')));
    expect(err.status).toBe(400);
    expect(err.text).toEqual(texts.regionUnknown);
    expect(err.fields).toEqual([{ field: 'regionCode', message: texts.regionUnknown }]);
  });
});

describe('checkRoles', () => {
  it("a role id that is not one of the tenant's live roles is a 404, like any foreign id", async () => {
    expect((await refusal(run((tx) => checkRoles(tx, admin, ['4242424242'])))).status).toBe(404);
  });
});
