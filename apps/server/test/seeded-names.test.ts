// Every name a new database or tenant starts with has its English name in the contract's catalogue
// (`seededNamesEn`): an English console shows a seeded name in English while it is still the seeded one.
import { describe, expect, it } from 'vitest';
import { seededNamesEn } from '@atrium/contract';
import { platformTenantSeed, tenantAdminSeed } from '../src/db/seed-data/tenant.ts';
import { deptSeed, postSeed, roleSeed } from '../src/db/seed-data/roles.ts';

describe('seeded names', () => {
  it('have an English name each', () => {
    const seeded = [
      platformTenantSeed.tenantName,
      platformTenantSeed.adminRealName,
      ...Object.values(tenantAdminSeed),
      ...roleSeed.map((r) => r.roleName),
      ...deptSeed.flatMap((d) => [d.deptName, d.fullName ?? '']),
      ...postSeed.map((p) => p.postName),
    ].filter((n) => /[\u3400-\u9fff]/.test(n));
    expect(seeded.length).toBeGreaterThan(5);
    expect(seeded.filter((n) => !seededNamesEn[n])).toEqual([]);
  });
});
