import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, inArray } from 'drizzle-orm';
import { grants } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { topmenu as topmenuDef } from '@atrium/contract/resources/system/topmenu';
import { topMenu, topMenuSetting } from '../../db/schema/index.ts';
import { fromContract } from '../../platform/contract-route.ts';
import { writeAudit } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { notFound } from '../../platform/errors.ts';
import { callerHoldings, notCovered, privilegeTexts } from '../../platform/privilege.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bumpEpoch } from '../../platform/live.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { checkMenus, grantableMenus } from '../menu/index.ts';
import { topmenuTexts as texts } from './messages.ts';

/** Top menus: CRUD on the definition, and `grant`, which sets the menus under them. Menus are cached per tenant. */
export default defineModule((root, s) => {
  resourceRoutes(
    root,
    s,
    bindResource(topmenuDef, topMenu, {
      // An update that leaves the sort out resets it, as the body's default always did.
      async beforeSave({ input, existing }) {
        if (existing && (input.sort === undefined || input.sort === null)) return { sort: 0 };
      },
    }),
  );

  const app = root.withTypeProvider<ZodTypeProvider>();
  /** Replaces the menus under the top menus, in one transaction; only menus the caller holds. */
  app.route({
    ...fromContract(grants.topMenuGrant, apiSchemas.grants.topMenuGrant, ['topmenu']),
    handler: async (req) => {
      const auth = requireAuth(req);
      const grantable = (await grantableMenus(s, auth)).filter((m) => m.category === 1);
      await withTenant(s.db, auth.tenantId, async (tx) => {
        const ids = [...new Set(req.body.topMenuIds)];
        // Locked (in id order, so two grants never wait on each other crosswise): a concurrent grant on the same top
        // menus waits for this one's commit, then replaces its rows — never a union of both.
        const found = await tx
          .select({ id: topMenu.id })
          .from(topMenu)
          .where(and(eq(topMenu.tenantId, auth.tenantId), eq(topMenu.isDeleted, 0), inArray(topMenu.id, ids)))
          .orderBy(topMenu.id)
          .for('update');
        if (found.length !== ids.length) throw notFound();
        const menus = await checkMenus(tx, auth, req.body.menuIds, grantable);
        // Replacing what sits under a top menu: only a caller who holds all of it.
        const caller = await callerHoldings(tx, auth);
        if (!caller.admin) {
          const current = await tx
            .select({ menuId: topMenuSetting.menuId })
            .from(topMenuSetting)
            .where(and(eq(topMenuSetting.tenantId, auth.tenantId), inArray(topMenuSetting.topMenuId, ids)));
          if (current.some((c) => !caller.menus.has(c.menuId))) throw notCovered(privilegeTexts.topmenu);
        }
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
        await bumpEpoch(tx, auth.tenantId);
      });
      s.cache.clearTenant(auth.tenantId);
      return ok(true, texts.granted);
    },
  });
});
