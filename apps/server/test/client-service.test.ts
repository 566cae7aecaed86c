import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import { clientTexts as texts } from '../src/modules/client/messages.ts';
import { checkClientForm, queueClientEmails, visibleClients } from '../src/modules/client/service.ts';
import { clientTrack } from '../src/modules/client/table.ts';
import { outbox } from '../src/modules/outbox/table.ts';
import { addClient as addClientOf, by, refusal, serviceTest, TENANT } from './support/service-test.ts';

/** The client module's rules called as functions on a database, without the app (modules/client/service.ts). */

const t = serviceTest();
const { run } = t;
const addClient = (clientName: string, email: string | null) => addClientOf(t, { clientName, email });

describe('queueClientEmails', () => {
  it('a client without an email refuses the whole send, naming it: nothing is queued, no follow-up written', async () => {
    const withMail = await addClient('有邮箱客户', 'ops@example.com');
    const without = await addClient('无邮箱客户', null);
    const err = await refusal(
      run(async (tx) =>
        queueClientEmails(t.services, tx, by(), await visibleClients(tx, TENANT, [withMail, without], undefined), {
          subject: 'Hello',
          html: '<p>hi</p>',
          attachIds: [],
        }),
      ),
    );
    expect(err.status).toBe(400);
    expect(err.text).toEqual(fill(texts.noEmail, { name: '无邮箱客户' }));
    const queued = await run((tx) => tx.select().from(outbox).where(eq(outbox.refId, withMail)));
    expect(queued).toEqual([]);
    const tracks = await run((tx) => tx.select().from(clientTrack).where(eq(clientTrack.clientId, withMail)));
    expect(tracks).toEqual([]);
  });

  it('queues one email per client, each with its type-3 follow-up pointing at its outbox row', async () => {
    const a = await addClient('客户甲', 'a@example.com');
    const b = await addClient('客户乙', 'b@example.com');
    const queued = await run(async (tx) =>
      queueClientEmails(t.services, tx, by(), await visibleClients(tx, TENANT, [a, b], undefined), {
        subject: 'Notice',
        html: '<p>x</p>',
        attachIds: [],
      }),
    );
    expect(queued.map((q) => q.clientId).sort()).toEqual([a, b].sort());
    for (const q of queued) {
      const [row] = await run((tx) => tx.select().from(outbox).where(eq(outbox.id, q.outboxId)));
      expect(row.recipient).toBe(q.clientId === a ? 'a@example.com' : 'b@example.com');
      const tracks = await run((tx) =>
        tx
          .select()
          .from(clientTrack)
          .where(and(eq(clientTrack.clientId, q.clientId), eq(clientTrack.outboxId, q.outboxId))),
      );
      expect(tracks).toHaveLength(1);
      expect(tracks[0]).toMatchObject({ trackType: 3, content: 'Notice', trackerName: 'admin' });
    }
  });
});

describe('checkClientForm', () => {
  const form = { creditCode: ' 91110108ma01abcd0b ', regionCode: '110101', contactIdCard: null };

  it('answers the credit code in its stored form', async () => {
    expect(await run((tx) => checkClientForm(tx, form, null))).toEqual({ creditCode: '91110108MA01ABCD0B' });
  });

  it('refuses a bad credit code, a bad ID card and an unknown region, each on its field', async () => {
    for (const [input, field] of [
      [{ ...form, creditCode: '91110108MA01ABCD0C' }, 'creditCode'],
      [{ ...form, contactIdCard: '110105194912310021' }, 'contactIdCard'],
      [{ ...form, regionCode: '999999' }, 'regionCode'],
    ] as const) {
      const err = await refusal(run((tx) => checkClientForm(tx, input, null)));
      expect(err.status).toBe(400);
      expect(err.fields?.[0].field).toBe(field);
    }
    const err = await refusal(run((tx) => checkClientForm(tx, { ...form, regionCode: '999999' }, null)));
    expect(err.text).toEqual(texts.regionUnknown);
  });

  it('takes what an update leaves out from the stored record', async () => {
    const existing = { id: '1', version: 1, creditCode: '91110108MA01ABCD0B', regionCode: '999999' };
    const err = await refusal(run((tx) => checkClientForm(tx, { creditCode: form.creditCode }, existing)));
    expect(err.fields?.[0].field).toBe('regionCode');
    expect(await run((tx) => checkClientForm(tx, { regionCode: '110101' }, existing))).toEqual({
      creditCode: '91110108MA01ABCD0B',
    });
  });
});
