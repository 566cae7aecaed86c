import { and, eq, inArray } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import { apiscope } from '@atrium/contract/resources/system/apiscope';
import { datascope } from '@atrium/contract/resources/system/datascope';
import type { Db } from '../../db/client.ts';
import { apiScope, dataScope, menu, roleScope } from '../../db/schema/index.ts';
import { scopeResources, SCOPE_TYPES } from '../../platform/access.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { visibleMenu } from '../menu/grants.ts';
import { scopeTexts as texts } from './messages.ts';

/** A scope belongs to a menu of the platform or of the caller's tenant; any other id is a 404, like a foreign id. */
async function checkMenu(tx: Db, auth: AuthContext, menuId: unknown) {
  const [m] = await tx
    .select({ id: menu.id })
    .from(menu)
    .where(and(visibleMenu(auth.tenantId), eq(menu.id, String(menuId))));
  if (!m) throw notFound();
}

/** Removing a scope also ends its grants (in the same transaction). */
async function dropGrants(tx: Db, ids: string[], auth: AuthContext) {
  await tx.delete(roleScope).where(and(eq(roleScope.tenantId, auth.tenantId), inArray(roleScope.scopeId, ids)));
}

/**
 * Data scopes and API scopes of a tenant: rules attached to menus, granted to roles. Roles' rules are cached per
 * tenant, so every write drops the tenant's cache.
 */
export default defineModule((app, s) => {
  const afterWrite = (auth: AuthContext) => s.cache.clearTenant(auth.tenantId);

  resourceRoutes(
    app,
    s,
    bindResource(datascope, dataScope, {
      async beforeSave({ tx, auth, input }) {
        await checkMenu(tx, auth, input.menuId);
        // The resources bound with a data scope, and the filter columns each offers to a custom rule.
        const columns = scopeResources.get(String(input.resourceCode));
        if (!columns) {
          const text = fill(texts.unknownResource, { list: [...scopeResources.keys()].join(', ') });
          throw badRequest(text, [{ field: 'resourceCode', message: 'unknown resource' }]);
        }
        if (input.scopeType !== SCOPE_TYPES.custom) return { scopeColumn: null, scopeValue: null };
        if (typeof input.scopeColumn !== 'string' || !columns.includes(input.scopeColumn)) {
          const text = fill(texts.badColumn, { list: columns.join(', ') });
          throw badRequest(text, [{ field: 'scopeColumn', message: columns.join(', ') }]);
        }
        if (!input.scopeValue)
          throw badRequest(texts.valueRequired, [{ field: 'scopeValue', message: texts.valueRequired }]);
      },
      beforeRemove: dropGrants,
      afterWrite,
    }),
  );

  resourceRoutes(
    app,
    s,
    bindResource(apiscope, apiScope, {
      async beforeSave({ tx, auth, input, existing }) {
        await checkMenu(tx, auth, input.menuId);
        // An update that leaves the method out resets it, as the body's default always did.
        if (existing && (input.scopeMethod === undefined || input.scopeMethod === null)) return { scopeMethod: '*' };
      },
      beforeRemove: dropGrants,
      afterWrite,
    }),
  );
});
