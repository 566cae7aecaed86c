import fs from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { CLIENT_STATUS } from '@atrium/contract/resources/customer/clientinfo';
import { createServices } from '../../src/app.ts';
import type { Db } from '../../src/db/client.ts';
import { newId } from '../../src/db/ids.ts';
import { clientInfo } from '../../src/modules/client/table.ts';
import { AppError } from '../../src/platform/errors.ts';
import type { Services } from '../../src/platform/services.ts';
import { withTenant } from '../../src/platform/tenant-db.ts';
import type { AuthContext } from '../../src/platform/tokens.ts';
import { createTestDb, testConfig, type TestDb, type TestDbOptions } from '../harness.ts';

/** The seeded tenant and its administrator, as whom the service tests act. */
export const TENANT = '000000';
export const ADMIN_USER_ID = '1123598821738675201';

/** The administrator's request context, for a rule that takes the caller. */
export const admin: AuthContext = {
  tenantId: TENANT,
  userId: ADMIN_USER_ID,
  account: 'admin',
  roleIds: [],
  deptId: null,
  clientId: 'atrium',
  sid: 'test',
};

/** The administrator as the writer of a record's columns (create user, department, time), now. */
export const by = () => ({ tenantId: TENANT, userId: ADMIN_USER_ID, account: 'admin', deptId: null, now: new Date() });

export type ServiceTest = {
  /** The app's services on the file's database, without the app: no module has registered anything. */
  readonly services: Services;
  /** Runs `fn` in a transaction of the seeded tenant (row-level security applies), as a route's call would. */
  run<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
};

/**
 * The set-up of a test file that calls the modules' rules and SQL without the app (docs/server.md "Module
 * boundaries": services callable from tests): one database for the file (`createTestDb`: PGlite in memory, or a
 * throwaway PostgreSQL database when DATABASE_URL is set), opened before its tests and dropped after, with the app's
 * services on it. Call it once at the top of the file.
 */
export function serviceTest(db: TestDbOptions = {}): ServiceTest {
  let open: { testDb: TestDb; services: Services; dataDir: string } | undefined;
  beforeAll(async () => {
    const testDb = await createTestDb(db);
    const { config, dataDir } = testConfig();
    open = {
      testDb,
      dataDir,
      services: createServices({ config, db: testDb.database.db, signingKey: 'service-test' }),
    };
  });
  afterAll(async () => {
    await open?.testDb.close();
    if (open) fs.rmSync(open.dataDir, { recursive: true, force: true });
    open = undefined;
  });
  const opened = () => {
    if (!open) throw new Error('serviceTest: its database is open only while the tests of the file run');
    return open;
  };
  return {
    get services() {
      return opened().services;
    },
    run: (fn) => withTenant(opened().services.db, TENANT, fn),
  };
}

/** The AppError a refused call throws: the test fails if the call succeeds or throws anything else. */
export async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

let phone = 13900000000;

/** An approved client of the seeded tenant (a phone of its own; `values` override the rest); answers its id. */
export async function addClient(t: ServiceTest, values: Partial<typeof clientInfo.$inferInsert> = {}): Promise<string> {
  const id = newId();
  await t.run((tx) =>
    tx.insert(clientInfo).values({
      id,
      tenantId: TENANT,
      clientName: `c${id.slice(-6)}`,
      clientType: 1,
      creditCode: '91110108MA01ABCD0B',
      contactName: 'Li',
      operatorTel: String(++phone),
      regionCode: '110101',
      status: CLIENT_STATUS.approved,
      ...values,
    }),
  );
  return id;
}
