import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { topMenu, topMenuSetting } from '../../db/schema/index.ts';
import { crudRoutes, idArray, writeAudit } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { notFound } from '../../platform/errors.ts';
import { optionalText, requiredText } from '../../platform/fields.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { checkMenus, grantableMenus } from '../menu/grants.ts';

const body = z.object({
  code: requiredText('请输入顶部菜单编号', 'Enter the top menu code', 255).regex(
    /^[A-Za-z0-9_-]+$/,
    '编号只能包含字母、数字、_ 和 -',
  ),
  name: requiredText('请输入顶部菜单名称', 'Enter the top menu name', 255),
  source: optionalText(255),
  sort: z.coerce.number().int().min(0).max(999999).default(0),
});

const grantBody = z.object({
  topMenuIds: idArray.pipe(z.array(z.string()).min(1, '请选择顶部菜单')),
  menuIds: idArray.default([]),
});

export function topMenuRoutes(root: FastifyInstance, s: Services) {
  crudRoutes(root, s, {
    entity: 'topmenu',
    table: topMenu,
    base: '/api/blade-system/topmenu',
    codes: { view: 'topmenu', add: 'topmenu_add', edit: 'topmenu_edit', remove: 'topmenu_delete' },
    body,
    list: {
      filters: { code: { column: topMenu.code, op: 'like' }, name: { column: topMenu.name, op: 'like' } },
      sorts: { sort: topMenu.sort, code: topMenu.code, createTime: topMenu.createTime },
      defaultSort: [asc(topMenu.sort), asc(topMenu.id)],
      createTime: topMenu.createTime,
    },
    unique: {
      top_menu_code_uq: { field: 'code', text: { zh: '顶部菜单编号已存在', en: 'The top menu code already exists' } },
    },
    afterWrite: (auth) => s.cache.clearTenant(auth.tenantId),
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  /** Replaces the menus under the top menus, in one transaction; only menus the caller holds. */
  app.post(
    '/api/blade-system/topmenu/grant',
    { config: { permission: 'topmenu_setting' }, schema: { tags: ['topmenu'], body: grantBody } },
    async (req) => {
      const auth = requireAuth(req);
      const grantable = (await grantableMenus(s, auth)).filter((m) => m.category === 1);
      await withTenant(s.db, auth.tenantId, async (tx) => {
        const ids = [...new Set(req.body.topMenuIds)];
        const found = await tx
          .select({ id: topMenu.id })
          .from(topMenu)
          .where(and(eq(topMenu.tenantId, auth.tenantId), eq(topMenu.isDeleted, 0), inArray(topMenu.id, ids)));
        if (found.length !== ids.length) throw notFound();
        const menus = await checkMenus(tx, auth, req.body.menuIds, grantable);
        await tx
          .delete(topMenuSetting)
          .where(and(eq(topMenuSetting.tenantId, auth.tenantId), inArray(topMenuSetting.topMenuId, ids)));
        for (const topMenuId of ids) {
          if (menus.length)
            await tx
              .insert(topMenuSetting)
              .values(menus.map((menuId) => ({ topMenuId, menuId, tenantId: auth.tenantId })));
          await writeAudit(s, tx, auth, req.id, 'topmenu', 'grant', topMenuId, null, { menuIds: menus });
        }
      });
      s.cache.clearTenant(auth.tenantId);
      return ok(true, '配置成功');
    },
  );
}
