import { and, eq, inArray } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import { apiscope } from '@atrium/contract/resources/system/apiscope';
import { datascope } from '@atrium/contract/resources/system/datascope';
import type { Db } from '../../db/client.ts';
import { apiScope, dataScope, menu, roleScope } from '../../db/schema/index.ts';
import { customValues, SCOPE_PLACEHOLDERS, SCOPE_TYPES } from '../../platform/access.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { callerHoldings, privilegeTexts } from '../../platform/privilege.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { visibleMenu } from '../menu/index.ts';
import { scopeTexts as texts } from './messages.ts';

/** A scope belongs to a menu of the platform or of the caller's tenant; any other id is a 404, like a foreign id. */
async function checkMenu(tx: Db, auth: AuthContext, menuId: unknown) {
  const [m] = await tx
    .select({ id: menu.id })
    .from(menu)
    .where(and(visibleMenu(auth.tenantId), eq(menu.id, String(menuId))));
  if (!m) throw notFound();
}

/**
 * Editing a scope that roles hold changes what they hold: below the administrator, only scopes no role holds yet
 * (else a holder could widen their own rule; docs/system-api.md "Nobody gains what they were not given").
 */
async function requireUnheld(tx: Db, auth: AuthContext, ids: string[]) {
  if ((await callerHoldings(tx, auth)).admin) return;
  const held = await tx
    .select({ id: roleScope.scopeId })
    .from(roleScope)
    .where(and(eq(roleScope.tenantId, auth.tenantId), inArray(roleScope.scopeId, ids)))
    .limit(1);
  if (held.length) throw new AppError(403, privilegeTexts.scopeHeld);
}

/** Removing a scope also ends its grants (in the same transaction). */
async function dropGrants(tx: Db, ids: string[], auth: AuthContext) {
  await requireUnheld(tx, auth, ids);
  await tx.delete(roleScope).where(and(eq(roleScope.tenantId, auth.tenantId), inArray(roleScope.scopeId, ids)));
}

/**
 * Data scopes and API scopes of a tenant: rules attached to menus, granted to roles. Roles' rules are cached per
 * tenant, so every write moves the tenant's cache epoch (the tables are listed in platform/live.ts).
 */
export default defineModule((app, s) => {
  resourceRoutes(
    app,
    s,
    bindResource(datascope, dataScope, {
      async beforeSave({ tx, auth, input, existing }) {
        await checkMenu(tx, auth, input.menuId);
        if (existing) await requireUnheld(tx, auth, [existing.id]);
        // The resources bound with a data scope, and the filter columns each offers to a custom rule.
        const columns = s.registry.scopeResources.get(String(input.resourceCode));
        if (!columns) {
          const text = fill(texts.unknownResource, { list: [...s.registry.scopeResources.keys()].join(', ') });
          throw badRequest(text, [{ field: 'resourceCode', message: 'unknown resource' }]);
        }
        if (input.scopeType !== SCOPE_TYPES.custom) return { scopeColumn: null, scopeValue: null };
        const names = Object.keys(columns);
        const column = typeof input.scopeColumn === 'string' ? input.scopeColumn : '';
        if (!Object.hasOwn(columns, column)) {
          const text = fill(texts.badColumn, { list: names.join(', ') });
          throw badRequest(text, [{ field: 'scopeColumn', message: names.join(', ') }]);
        }
        // Each value must be one the column can hold, so a list never meets a value its database would refuse.
        const parsed = customValues(columns[column], typeof input.scopeValue === 'string' ? input.scopeValue : '');
        if (parsed.bad !== undefined) {
          const kind = texts.kinds[columns[column]];
          const template = SCOPE_PLACEHOLDERS.includes(parsed.bad) ? texts.placeholderNotId : texts.badValue;
          const text = {
            zh: fill(template, { column, value: parsed.bad, kind: kind.zh }).zh,
            en: fill(template, { column, value: parsed.bad, kind: kind.en }).en,
          };
          throw badRequest(text, [{ field: 'scopeValue', message: text }]);
        }
        if (!parsed.values.length)
          throw badRequest(texts.valueRequired, [{ field: 'scopeValue', message: texts.valueRequired }]);
      },
      beforeRemove: ({ tx, ids, auth }) => dropGrants(tx, ids, auth),
    }),
  );

  resourceRoutes(
    app,
    s,
    bindResource(apiscope, apiScope, {
      async beforeSave({ tx, auth, input, existing }) {
        await checkMenu(tx, auth, input.menuId);
        if (existing) await requireUnheld(tx, auth, [existing.id]);
        // An update that leaves the method out resets it, as the body's default always did.
        if (existing && (input.scopeMethod === undefined || input.scopeMethod === null)) return { scopeMethod: '*' };
      },
      beforeRemove: ({ tx, ids, auth }) => dropGrants(tx, ids, auth),
    }),
  );
});
