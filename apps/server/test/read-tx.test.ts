// Read transactions (docs/server.md "Round trips"): a single-statement read whose commit rides with its statement,
// rows read as arrays, and no tenant context left on a pooled connection, on PGlite and PostgreSQL.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectArrays, SecondStatementError } from '../src/db/client.ts';
import { newId } from '../src/db/ids.ts';
import { tenant } from '../src/db/schema/index.ts';
import { readTenant, withTenant } from '../src/platform/tenant-db.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { rowsOf } from '../src/db/rows.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.services.db.insert(tenant).values({ id: newId(), tenantId: '200001', tenantName: 'B' });
});
afterAll(async () => t?.close());

const contextOf = async (tx: Parameters<Parameters<typeof withTenant>[2]>[0]) => {
  const rows = await rowsOf<{ t: string }>(tx, sql`select current_setting('app.tenant_id', true) as t`);
  return rows[0].t;
};

describe('read transactions', () => {
  it('a single-statement read answers its rows in its tenant context', async () => {
    const seen = await readTenant(t.services.db, '200001', contextOf, undefined, { single: true });
    expect(seen).toBe('200001');
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'a second statement in a single-statement read is refused, not run after the commit; the pool stays sound',
    async () => {
      const ran: string[] = [];
      await expect(
        readTenant(
          t.services.db,
          '200001',
          async (tx) => {
            ran.push(await contextOf(tx));
            ran.push(await contextOf(tx));
          },
          undefined,
          { single: true },
        ),
      ).rejects.toSatisfy((e) => (e as { cause?: unknown }).cause instanceof SecondStatementError);
      expect(ran).toEqual(['200001']);
      // Every connection of the pool (4 in tests) still starts clean and takes its own context.
      const after = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          withTenant(t.services.db, i % 2 ? '200001' : '000000', async (tx) => [await contextOf(tx), i] as const),
        ),
      );
      for (const [seen, i] of after) expect(seen).toBe(i % 2 ? '200001' : '000000');
    },
  );

  it('concurrent reads on a small pool never see another tenant context, single or not', async () => {
    const tenants = ['000000', '200001'];
    const out = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        readTenant(
          t.services.db,
          tenants[i % 2],
          async (tx) => [await contextOf(tx), tenants[i % 2]] as const,
          undefined,
          {
            single: i % 3 === 0,
          },
        ),
      ),
    );
    for (const [seen, wanted] of out) expect(seen).toBe(wanted);
    // Outside any transaction no context is left behind.
    const bare = await rowsOf<{ t: string | null }>(
      t.services.db,
      sql`select current_setting('app.tenant_id', true) as t`,
    );
    expect(bare[0].t ?? '').toBe('');
  });

  it('rows as arrays in select-list order, timestamps as the text drizzle maps', async () => {
    const rows = await readTenant(t.services.db, '000000', (tx) =>
      selectArrays(tx, {
        text: `select account, create_time, 2::int as two from "user" where account = $1`,
        values: ['admin'],
      }),
    );
    expect(rows).toHaveLength(1);
    const [account, created, two] = rows[0];
    expect(account).toBe('admin');
    expect(typeof created).toBe('string');
    expect(Number.isNaN(Date.parse(String(created)))).toBe(false);
    expect(two).toBe(2);
    // The same through a transaction drizzle opens itself (on PostgreSQL a plain pooled connection).
    const plain = await t.services.db.transaction((tx) =>
      selectArrays(tx, { text: `select account, create_time from "user" where account = $1`, values: ['admin'] }),
    );
    expect(plain).toEqual([[account, created]]);
  });

  // On PostgreSQL, once a connection has prepared them, a read's opening statements and its first statement go as one
  // batch with a single Sync (db/client.ts `Batch`): each answer must still reach its own caller, an error must end
  // the transaction cleanly, and no connection may be handed on with anything of it left.
  it('repeated reads answer their own rows; a failing statement rolls back and leaves every connection sound', async () => {
    const read = (tenantId: string, n: number, single: boolean) =>
      readTenant(
        t.services.db,
        tenantId,
        async (tx) => {
          const objects = await rowsOf<{ t: string; n: number }>(
            tx,
            sql`select current_setting('app.tenant_id', true) as t, ${n}::int as n`,
          );
          return objects[0];
        },
        undefined,
        { single },
      );
    // Enough rounds for every pooled connection to have prepared the statements (batched from then on).
    for (let round = 0; round < 3; round++) {
      const out = await Promise.all(
        Array.from({ length: 12 }, (_, i) => read(i % 2 ? '200001' : '000000', i, i % 3 === 0)),
      );
      out.forEach((row, i) => expect(row).toEqual({ t: i % 2 ? '200001' : '000000', n: i }));
    }
    // `late`: the statement comes after the opening statements went out on their own (the end of the event-loop turn).
    const failing = (single: boolean, late: boolean) =>
      readTenant(
        t.services.db,
        '200001',
        async (tx) => {
          if (late) await new Promise((r) => setTimeout(r, 5));
          return tx.execute(sql`select 1 / (${0}::int) as boom`);
        },
        undefined,
        { single },
      );
    for (const late of [false, true])
      for (const single of [true, false, true, false])
        await expect(failing(single, late)).rejects.toSatisfy((e) =>
          /division by zero/.test(String((e as { cause?: Error }).cause?.message ?? (e as Error).message)),
        );
    const after = await Promise.all(
      Array.from({ length: 12 }, (_, i) => read(i % 2 ? '000000' : '200001', 100 + i, i % 2 === 0)),
    );
    after.forEach((row, i) => expect(row).toEqual({ t: i % 2 ? '000000' : '200001', n: 100 + i }));
    // Outside any transaction no context is left behind, and a write transaction still works on every connection.
    const writes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => withTenant(t.services.db, '200001', async (tx) => [await contextOf(tx), i])),
    );
    for (const [seen] of writes) expect(seen).toBe('200001');
  });
});
