import { newId } from '../src/db/ids.ts';
import { cameraNetwork } from '../src/modules/device/table.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import type { TestApp } from './harness.ts';

/**
 * A tenant's camera networks for a test (docs/devices.md "Camera addresses"): cameras in private ranges — the test
 * camera and the ONVIF fake on 127.0.0.1 included — play only inside them. Answers the rows' ids.
 */
export async function listCameraNetworks(t: TestApp, tenantId: string, cidrs: string[]): Promise<string[]> {
  const ids = cidrs.map(() => newId());
  await withTenant(t.services.db, tenantId, (tx) =>
    tx.insert(cameraNetwork).values(cidrs.map((cidr, i) => ({ id: ids[i], tenantId, name: `test ${cidr}`, cidr }))),
  );
  return ids;
}
