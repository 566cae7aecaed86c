import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import { SUBDOMAIN_STATUS } from '@atrium/contract/resources/subdomain/subdomain_list';
import { newId } from '../src/db/ids.ts';
import { checkCameraConfig, moveSubDomain, type CameraRow } from '../src/modules/device/cameras.ts';
import { deviceTexts as texts } from '../src/modules/device/messages.ts';
import { configTemplate } from '../src/modules/device/table.ts';
import { subDomain } from '../src/modules/subdomain/table.ts';
import { addClient as addClientOf, refusal, serviceTest, TENANT } from './support/service-test.ts';

/** The camera save's rules called as functions on a database, without the app (modules/device/cameras.ts). */

const CAMERA = '131';
const t = serviceTest();
const { run } = t;

async function addTemplate(deviceType: string, status: number): Promise<string> {
  const id = newId();
  await run((tx) =>
    tx.insert(configTemplate).values({ id, tenantId: TENANT, name: `t${id.slice(-6)}`, deviceType, status }),
  );
  return id;
}

describe('checkCameraConfig', () => {
  const choose = (templateId: string, existing: Partial<CameraRow> | null = null) =>
    run((tx) =>
      checkCameraConfig(tx, TENANT, {
        input: { configTemplateId: templateId },
        existing: existing as CameraRow | null,
        deviceType: CAMERA,
        templateId,
      }),
    );

  it('a disabled template is refused for a new choice, and kept by a device that already has it', async () => {
    const disabled = await addTemplate(CAMERA, 0);
    const err = await refusal(choose(disabled));
    expect(err.status).toBe(400);
    expect(err.text).toEqual(texts.templateDisabled);
    expect(err.fields?.[0].field).toBe('configTemplateId');
    const other = await addTemplate(CAMERA, 1);
    await expect(choose(disabled, { configTemplateId: other, configValues: null })).rejects.toMatchObject({
      text: texts.templateDisabled,
    });
    await expect(choose(disabled, { configTemplateId: disabled, configValues: null })).resolves.toEqual({});
  });

  it('an enabled template of the device type passes; one of another type names its type', async () => {
    await expect(choose(await addTemplate(CAMERA, 1))).resolves.toEqual({});
    const err = await refusal(choose(await addTemplate('118', 1)));
    expect(err.text).toEqual(fill(texts.templateType, { type: '118' }));
  });
});

describe('moveSubDomain', () => {
  const addClient = () => addClientOf(t);
  async function addSubDomain(clientId: string): Promise<string> {
    const id = newId();
    const label = `s${id.slice(-8)}`;
    await run((tx) =>
      tx.insert(subDomain).values({
        id,
        tenantId: TENANT,
        clientId,
        subDomain: label,
        fullDomain: `${label}.example.com`,
        status: SUBDOMAIN_STATUS.running,
      }),
    );
    return id;
  }
  const bindCount = async (id: string) =>
    (await run((tx) => tx.select({ n: subDomain.bindCount }).from(subDomain).where(eq(subDomain.id, id))))[0].n;

  it("another client's sub-domain is refused and its count stays; the device's own client's is counted", async () => {
    const mine = await addClient();
    const theirs = await addClient();
    const theirSub = await addSubDomain(theirs);
    const err = await refusal(
      run((tx) => moveSubDomain(tx, TENANT, { subDomainId: theirSub, before: null, clientId: mine })),
    );
    expect(err.status).toBe(400);
    expect(err.text).toEqual(texts.subDomainOtherClient);
    expect(err.fields?.[0].field).toBe('subDomainId');
    expect(await bindCount(theirSub)).toBe(0);

    const mySub = await addSubDomain(mine);
    await run((tx) => moveSubDomain(tx, TENANT, { subDomainId: mySub, before: null, clientId: mine }));
    expect(await bindCount(mySub)).toBe(1);
  });

  it('a move counts one more on the new sub-domain and one fewer on the one before; no change, no count', async () => {
    const client = await addClient();
    const first = await addSubDomain(client);
    const second = await addSubDomain(client);
    await run((tx) => moveSubDomain(tx, TENANT, { subDomainId: first, before: null, clientId: client }));
    await run((tx) => moveSubDomain(tx, TENANT, { subDomainId: first, before: first, clientId: client }));
    expect(await bindCount(first)).toBe(1);
    await run((tx) => moveSubDomain(tx, TENANT, { subDomainId: second, before: first, clientId: client }));
    expect([await bindCount(first), await bindCount(second)]).toEqual([0, 1]);
    await run((tx) => moveSubDomain(tx, TENANT, { subDomainId: null, before: second, clientId: client }));
    expect(await bindCount(second)).toBe(0);
  });
});
