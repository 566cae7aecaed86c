import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { dept, loginFailure, role, roleMenu, user, userRole } from '../../db/schema/index.ts';
import { tenantAdminSeed } from '../../db/seed-data/tenant.ts';
import { ADMIN_ROLE, PLATFORM_TENANT } from '../../platform/access.ts';
import { actAs, packageMenus } from './service.ts';

/**
 * Repairs a tenant's administrator (docs/system-api.md "Permissions"): the administrator role exists and holds the
 * package; the account `admin` is live, enabled, unlocked, holds the role and has the given (hashed) one-time
 * password to change at first login. Runs in the platform administrator's transaction; answers the account.
 */
export async function repairAdmin(
  tx: Db,
  tenantId: string,
  by: { userId: string },
  now: Date,
  passwordHash: string,
): Promise<{ userId: string; account: string }> {
  const audit = { updateUser: by.userId, updateTime: now };
  const menus = await packageMenus(tx, tenantId);
  await actAs(tx, tenantId);
  try {
    let [adminRole] = await tx
      .select({ id: role.id })
      .from(role)
      .where(and(eq(role.tenantId, tenantId), eq(role.isDeleted, 0), eq(role.roleAlias, ADMIN_ROLE)));
    if (!adminRole) {
      adminRole = { id: newId() };
      await tx.insert(role).values({
        id: adminRole.id,
        tenantId,
        roleName: tenantAdminSeed.roleName,
        roleAlias: ADMIN_ROLE,
        sort: 1,
        createUser: by.userId,
        createTime: now,
        ...audit,
      });
    }
    await tx.delete(roleMenu).where(and(eq(roleMenu.tenantId, tenantId), eq(roleMenu.roleId, adminRole.id)));
    if (menus.length)
      await tx.insert(roleMenu).values(menus.map((menuId) => ({ roleId: adminRole.id, menuId, tenantId })));

    let [account] = await tx
      .select({ id: user.id })
      .from(user)
      .where(and(eq(user.tenantId, tenantId), eq(user.isDeleted, 0), eq(user.account, 'admin')));
    if (account) {
      await tx
        .update(user)
        .set({ status: 1, password: passwordHash, mustChangePassword: 1, version: sql`${user.version} + 1`, ...audit })
        .where(and(eq(user.tenantId, tenantId), eq(user.id, account.id)));
    } else {
      const [root] = await tx
        .select({ id: dept.id })
        .from(dept)
        .where(and(eq(dept.tenantId, tenantId), eq(dept.isDeleted, 0), eq(dept.parentId, '0')))
        .orderBy(asc(dept.sort), asc(dept.id))
        .limit(1);
      account = { id: newId() };
      await tx.insert(user).values({
        id: account.id,
        tenantId,
        account: 'admin',
        password: passwordHash,
        name: 'admin',
        realName: tenantAdminSeed.realName,
        deptId: root?.id ?? null,
        createDept: root?.id ?? null,
        mustChangePassword: 1,
        status: 1,
        createUser: by.userId,
        createTime: now,
        ...audit,
      });
    }
    await tx.insert(userRole).values({ userId: account.id, roleId: adminRole.id, tenantId }).onConflictDoNothing();
    await tx.delete(loginFailure).where(and(eq(loginFailure.tenantId, tenantId), eq(loginFailure.account, 'admin')));
    return { userId: account.id, account: 'admin' };
  } finally {
    await actAs(tx, PLATFORM_TENANT);
  }
}
