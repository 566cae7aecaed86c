import { eq, and } from 'drizzle-orm';
import { datasource as def } from '@atrium/contract/resources/system/datasource';
import { tenant } from '../../db/schema/index.ts';
import { badRequest } from '../../platform/errors.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { seal } from '../../platform/secrets.ts';
import { datasourceTexts as texts } from './messages.ts';
import { checkDatasourceAddress, connectionOf, testConnection } from './service.ts';
import { datasource } from './table.ts';

/**
 * 数据源管理 (docs/tenants.md "Data sources"): CRUD on the definition, platform administrator only; the URL's host
 * is checked against the address rules, the password sealed; `test` connects with the record as stored.
 */
export default defineModule((app, s) => {
  resourceRoutes(
    app,
    s,
    bindResource(def, datasource, {
      async beforeSave({ input }) {
        if (typeof input.url === 'string') await checkDatasourceAddress(input.url, s.config.datasourcePrivateNetworks);
        const password = input.password;
        return typeof password === 'string' && password !== '' ? { passwordSealed: seal(s, password) } : {};
      },
      async beforeRemove({ tx, rows }) {
        for (const r of rows) {
          const [used] = await tx
            .select({ id: tenant.id })
            .from(tenant)
            .where(and(eq(tenant.datasourceId, String(r.id)), eq(tenant.isDeleted, 0)))
            .limit(1);
          if (used) throw badRequest(texts.inUse);
        }
      },
      prepare: {
        // The connection is tried before the action's transaction: no connection of the main database waits on it.
        test: async ({ targets }) => testConnection((await connectionOf(s, s.db, targets[0])).url),
      },
      actions: {
        async test({ prepared }) {
          return { data: String(prepared) };
        },
      },
    }),
  );
});
