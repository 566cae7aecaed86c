import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import {
  dept,
  menu,
  post,
  role,
  roleMenu,
  tenant,
  topMenu,
  topMenuSetting,
  user,
  userRole,
} from '../../db/schema/index.ts';
import { ADMIN_ROLE, PLATFORM_TENANT } from '../../platform/access.ts';
import { badRequest } from '../../platform/errors.ts';
import { hashPassword, md5Hex, randomPassword } from '../../platform/password.ts';
import { subtree } from '../../platform/tree.ts';
import { tenantAdminSeed } from '../../db/seed-data/tenant.ts';
import { roleSeed } from '../../db/seed-data/roles.ts';
import { grantProductRoles } from '../role/index.ts';
import { seedDeviceDefaults } from '../device/index.ts';
import { seedLeaveDefaults } from '../leave/index.ts';
import { tenantTexts } from './messages.ts';

/** Screens only the platform administrator has: a new tenant's package leaves them (and their buttons) out. */
export const PLATFORM_ONLY_MENUS = ['tenant', 'client', 'param', 'menu', 'dict', 'datasource'];

export type OneTimePassword = { password: string; hash: string };

/** The first password of a new tenant's admin, hashed before the transaction opens (no connection waits on scrypt). */
export async function oneTimePassword(): Promise<OneTimePassword> {
  const password = randomPassword(12);
  return { password, hash: await hashPassword(md5Hex(password)) };
}

/**
 * A tenant's package: the menus its administrator role holds — the platform's menus without the platform-only
 * screens, plus the tenant's own menus. The platform tenant's package is every platform menu.
 */
export async function packageMenus(tx: Db, tenantId: string): Promise<string[]> {
  const platformMenus = await tx
    .select({ id: menu.id, parentId: menu.parentId, code: menu.code })
    .from(menu)
    .where(and(eq(menu.tenantId, PLATFORM_TENANT), eq(menu.isDeleted, 0)));
  if (tenantId === PLATFORM_TENANT) return platformMenus.map((m) => m.id);
  const excluded = subtree(
    platformMenus,
    platformMenus.filter((m) => PLATFORM_ONLY_MENUS.includes(m.code)).map((m) => m.id),
  );
  const own = await tx
    .select({ id: menu.id })
    .from(menu)
    .where(and(eq(menu.tenantId, tenantId), eq(menu.isDeleted, 0)));
  return [...platformMenus.filter((m) => !excluded.has(m.id)).map((m) => m.id), ...own.map((m) => m.id)];
}

/** Switches the transaction's tenant context (row-level security): only the platform writes into another tenant. */
export const actAs = (tx: Db, tenantId: string) =>
  tx.execute(sql`select set_config('app.tenant_id', ${tenantId}, true)`);

/** Advisory lock key of tenant creation: "tenant" in ASCII. */
const TENANT_CREATE_LOCK = 0x74656e616e74n;

/**
 * Tenant creations take turns (a transaction-level advisory lock, released at commit or rollback): a generated id is
 * the highest taken + 1, so two creations at once would otherwise both pick the same one.
 */
export async function lockTenantCreation(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${TENANT_CREATE_LOCK.toString()}::bigint)`);
}

/** A 6-digit tenant id not yet taken (call it holding `lockTenantCreation`). */
export async function nextTenantId(tx: Db): Promise<string> {
  const [{ max }] = await tx
    .select({ max: sql<string | null>`max(${tenant.tenantId})` })
    .from(tenant)
    .where(sql`${tenant.tenantId} ~ '^[0-9]{6}$'`);
  const next = Math.max(Number(max ?? 0) + 1, 100001);
  if (next > 999999) throw badRequest(tenantTexts.idsExhausted);
  return String(next).padStart(6, '0');
}

/**
 * Provisions a new tenant inside the caller's transaction: a root department, a post, its administrator role
 * granted the platform's menus minus the platform-only screens, the product roles (`hr` among them), the device
 * defaults, the leave types and the leave process (docs/workflow.md "The leave process"), its top menus, and an `admin` user whose random
 * first password is returned once and must be changed at first login.
 */
export async function provisionTenant(
  tx: Db,
  t: { tenantId: string; tenantName: string },
  by: { userId: string },
  now: Date,
  admin: OneTimePassword,
) {
  const menuIds = await packageMenus(tx, t.tenantId);
  const platformTops = await tx
    .select()
    .from(topMenu)
    .where(and(eq(topMenu.tenantId, PLATFORM_TENANT), eq(topMenu.isDeleted, 0)));
  const topSettings = platformTops.length
    ? await tx
        .select()
        .from(topMenuSetting)
        .where(
          and(
            eq(topMenuSetting.tenantId, PLATFORM_TENANT),
            inArray(
              topMenuSetting.topMenuId,
              platformTops.map((x) => x.id),
            ),
          ),
        )
    : [];

  const { password, hash } = admin;
  const audit = { createUser: by.userId, updateUser: by.userId, createTime: now, updateTime: now };
  await actAs(tx, t.tenantId);
  try {
    const deptId = newId();
    await tx.insert(dept).values({
      id: deptId,
      tenantId: t.tenantId,
      parentId: '0',
      ancestors: '0',
      deptName: t.tenantName.slice(0, 45),
      fullName: t.tenantName.slice(0, 45),
      ...audit,
    });
    const postId = newId();
    await tx.insert(post).values({
      id: postId,
      tenantId: t.tenantId,
      category: 1,
      postCode: 'admin',
      postName: tenantAdminSeed.postName,
      ...audit,
    });
    const roleId = newId();
    await tx.insert(role).values({
      id: roleId,
      tenantId: t.tenantId,
      roleName: tenantAdminSeed.roleName,
      roleAlias: ADMIN_ROLE,
      sort: 1,
      ...audit,
    });
    if (menuIds.length)
      await tx.insert(roleMenu).values(menuIds.map((menuId) => ({ roleId, menuId, tenantId: t.tenantId })));
    // The product roles (docs/product.md "Product roles"), each granted its part of the package.
    for (const r of roleSeed.filter((x) => x.roleAlias !== ADMIN_ROLE))
      await tx.insert(role).values({
        id: newId(),
        tenantId: t.tenantId,
        roleName: r.roleName,
        roleAlias: r.roleAlias,
        sort: r.sort,
        ...audit,
      });
    await grantProductRoles(tx, t.tenantId, menuIds, audit);
    await seedDeviceDefaults(tx, t.tenantId, audit);
    await seedLeaveDefaults(tx, t.tenantId, audit);
    const userId = newId();
    await tx.insert(user).values({
      id: userId,
      tenantId: t.tenantId,
      account: 'admin',
      password: hash,
      name: 'admin',
      realName: tenantAdminSeed.realName,
      deptId,
      postId,
      mustChangePassword: 1,
      createDept: deptId,
      ...audit,
    });
    await tx.insert(userRole).values({ userId, roleId, tenantId: t.tenantId });
    const keep = new Set(menuIds);
    for (const top of platformTops) {
      const id = newId();
      await tx.insert(topMenu).values({
        id,
        tenantId: t.tenantId,
        code: top.code,
        name: top.name,
        source: top.source,
        sort: top.sort,
        ...audit,
      });
      const ids = topSettings.filter((x) => x.topMenuId === top.id && keep.has(x.menuId)).map((x) => x.menuId);
      if (ids.length)
        await tx.insert(topMenuSetting).values(ids.map((menuId) => ({ topMenuId: id, menuId, tenantId: t.tenantId })));
    }
  } finally {
    await actAs(tx, PLATFORM_TENANT);
  }
  return { adminAccount: 'admin', adminPassword: password };
}

/** Account quota (tenant setting): adding `adding` more users must stay within it. Runs in the tenant's transaction. */
export async function checkQuota(tx: Db, tenantId: string, adding: number, now: Date) {
  const [t] = await tx
    .select({ accountNumber: tenant.accountNumber, expireTime: tenant.expireTime })
    .from(tenant)
    .where(and(eq(tenant.tenantId, tenantId), eq(tenant.isDeleted, 0)));
  if (!t) return;
  if (t.expireTime && t.expireTime.getTime() < now.getTime()) throw badRequest(tenantTexts.expired);
  if (t.accountNumber < 0) return;
  const [{ n }] = await tx
    .select({ n: count() })
    .from(user)
    .where(and(eq(user.tenantId, tenantId), eq(user.isDeleted, 0), eq(user.status, 1)));
  if (n + adding > t.accountNumber) throw badRequest(fill(tenantTexts.quota, { n: t.accountNumber }));
}
