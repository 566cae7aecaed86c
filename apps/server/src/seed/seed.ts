import { count } from 'drizzle-orm';
import type { Database, Db } from '../db/client.ts';
import { newId } from '../db/ids.ts';
import * as t from '../db/schema/index.ts';
import { grantProductRoles } from '../modules/role/index.ts';
import { cameraNetwork, seedDeviceDefaults, seedMissingDeviceDefaults } from '../modules/device/index.ts';
import { seedLeaveDefaults, seedMissingLeave } from '../modules/leave/index.ts';
import { demoCameraNetworkSeed } from '../db/seed-data/devices.ts';
import { hashPassword, md5Hex, sha256Hex } from '../platform/password.ts';
import { menuSeed, topMenuSeed, type MenuSeed } from '../db/seed-data/menus.ts';
import { dictBizSeed, dictSeed, type DictSeed } from '../db/seed-data/dicts.ts';
import { paramSeed } from '../db/seed-data/params.ts';
import { deptSeed, postSeed, roleSeed } from '../db/seed-data/roles.ts';
import { platformTenantSeed } from '../db/seed-data/tenant.ts';
import { seedRegionsIfEmpty } from './regions.ts';

export const PLATFORM_TENANT = '000000';

/**
 * Start-up: the migrations, then the seed when the database is empty — one server at a time (docs/server.md
 * "Start-up"): two instances starting at once on an empty PostgreSQL database take turns, and the second finds the
 * migrations applied and the seed present. Returns whether this call seeded.
 */
export async function migrateAndSeed(
  database: Database,
  opts: { adminPassword?: string; onWait?: () => void; demoCameraNetwork?: boolean },
): Promise<boolean> {
  return database.exclusive(async () => {
    await database.migrate();
    const seeded = await seedIfEmpty(database.db, opts);
    // The device defaults of every tenant made before the devices existed (new tenants get them when provisioned).
    if (!seeded) await seedMissingDeviceDefaults(database.db);
    // The role hr, the leave types and the leave process of every tenant made before them (docs/workflow.md).
    if (!seeded) await seedMissingLeave(database.db);
    return seeded;
  }, opts.onWait);
}

/**
 * First start of an empty database: docs/system-api.md "Seed", in one transaction. Returns whether it seeded. The
 * admin password is hashed before the transaction opens.
 */
export async function seedIfEmpty(
  db: Db,
  opts: { adminPassword?: string; demoCameraNetwork?: boolean },
): Promise<boolean> {
  await seedRegionsIfEmpty(db);
  const [{ n }] = await db.select({ n: count() }).from(t.tenant);
  if (n > 0) return false;
  const adminHash = await hashPassword(md5Hex(opts.adminPassword ?? 'admin'));
  await db.transaction(async (tx) => {
    const now = new Date();
    const tenantId = PLATFORM_TENANT;
    await tx.insert(t.tenant).values({
      id: newId(),
      tenantId,
      tenantName: platformTenantSeed.tenantName,
      linkman: 'admin',
      accountNumber: -1,
      createTime: now,
      updateTime: now,
    });
    await tx.insert(t.oauthClient).values({
      id: newId(),
      clientId: 'saber',
      clientSecretHash: sha256Hex('saber_secret'),
      scope: 'all',
      authorizedGrantTypes: 'password,refresh_token,captcha,social',
      accessTokenValidity: 3600,
      refreshTokenValidity: 604800,
    });

    const deptIds = new Map<string, string>();
    for (const d of deptSeed) {
      const id = newId();
      const parentId = d.parent ? deptIds.get(d.parent)! : '0';
      deptIds.set(d.deptName, id);
      await tx.insert(t.dept).values({
        id,
        tenantId,
        parentId,
        ancestors: parentId === '0' ? '0' : `0,${parentId}`,
        deptName: d.deptName,
        fullName: d.fullName ?? d.deptName,
        sort: d.sort,
        deptCategory: d.deptCategory ?? 1,
      });
    }
    const rootDept = deptIds.values().next().value!;
    const postIds: string[] = [];
    for (const p of postSeed) {
      const id = newId();
      postIds.push(id);
      await tx
        .insert(t.post)
        .values({ id, tenantId, category: p.category, postCode: p.postCode, postName: p.postName, sort: p.sort });
    }
    const roleIds = new Map<string, string>();
    for (const r of roleSeed) {
      const id = newId();
      roleIds.set(r.roleAlias, id);
      await tx.insert(t.role).values({ id, tenantId, roleName: r.roleName, roleAlias: r.roleAlias, sort: r.sort });
    }

    const adminId = newId();
    await tx.insert(t.user).values({
      id: adminId,
      tenantId,
      account: 'admin',
      password: adminHash,
      name: 'admin',
      realName: platformTenantSeed.adminRealName,
      deptId: rootDept,
      postId: postIds[0] ?? null,
      email: 'admin@atrium.local',
      mustChangePassword: 0,
    });
    await tx.insert(t.userRole).values({ userId: adminId, roleId: roleIds.get('administrator')!, tenantId });

    const { menuRows, idByCode } = menuRowsOf(tenantId);
    for (let i = 0; i < menuRows.length; i += 200) await tx.insert(t.menu).values(menuRows.slice(i, i + 200));
    const adminRole = roleIds.get('administrator')!;
    await tx.insert(t.roleMenu).values(menuRows.map((m) => ({ roleId: adminRole, menuId: m.id!, tenantId })));
    await grantProductRoles(
      tx,
      tenantId,
      menuRows.map((m) => m.id!),
      { createTime: now, updateTime: now },
    );
    await seedDeviceDefaults(tx, tenantId, { createTime: now, updateTime: now });
    await seedLeaveDefaults(tx, tenantId, { createTime: now, updateTime: now });
    // The local demo (NODE_ENV=development): loopback is a camera network of the platform tenant, so the test camera
    // of README "Live video" plays (docs/devices.md "Camera addresses"). Never in production or under tests.
    if (opts.demoCameraNetwork)
      await tx.insert(cameraNetwork).values({
        id: newId(),
        tenantId,
        ...demoCameraNetworkSeed,
        createTime: now,
        updateTime: now,
      });

    for (const top of topMenuSeed) {
      const id = newId();
      await tx
        .insert(t.topMenu)
        .values({ id, tenantId, code: top.code, name: top.name, source: top.source ?? null, sort: top.sort });
      const menuIds = top.menuCodes.map((c) => idByCode.get(c)).filter((x): x is string => !!x);
      if (menuIds.length)
        await tx.insert(t.topMenuSetting).values(menuIds.map((menuId) => ({ topMenuId: id, menuId, tenantId })));
    }

    await tx.insert(t.dict).values(dictRows(dictSeed));
    await tx.insert(t.dictBiz).values(dictRows(dictBizSeed).map((r) => ({ ...r, tenantId })));
    await tx.insert(t.param).values(paramSeed.map((p) => ({ id: newId(), ...p, remark: p.remark ?? null })));
  });
  return true;
}

/** The seeded menus of a tenant, parents before children, and the id given to each code. */
function menuRowsOf(tenantId: string) {
  const menuRows: (typeof t.menu.$inferInsert)[] = [];
  const idByCode = new Map<string, string>();
  const walk = (items: MenuSeed[], parentId: string) => {
    for (const m of items) {
      const id = newId();
      idByCode.set(m.code, id);
      menuRows.push({
        id,
        tenantId,
        parentId,
        code: m.code,
        name: m.name,
        alias: m.alias ?? null,
        path: m.path ?? null,
        source: m.source ?? null,
        sort: m.sort,
        category: m.category,
        action: m.action ?? (m.category === 1 ? 0 : 1),
        isOpen: m.isOpen ?? 1,
        remark: m.remark ?? null,
      });
      if (m.children) walk(m.children, id);
    }
  };
  walk(menuSeed, '0');
  return { menuRows, idByCode };
}

/** The rows of seeded dictionaries: each code's parent row (key -1), then its entries. */
function dictRows(seed: DictSeed[]) {
  return seed.flatMap((d, i) => {
    const parentId = newId();
    return [
      {
        id: parentId,
        parentId: '0',
        code: d.code,
        dictKey: '-1',
        dictValue: d.dictValue,
        dictValueEn: d.dictValueEn ?? null,
        sort: i + 1,
        remark: d.remark ?? null,
        isSealed: 0,
      },
      ...d.children.map((c) => ({
        id: newId(),
        parentId,
        code: d.code,
        dictKey: c.dictKey,
        dictValue: c.dictValue,
        dictValueEn: c.dictValueEn ?? null,
        sort: c.sort,
        remark: c.remark ?? null,
        isSealed: 0,
      })),
    ];
  });
}
