import { and, eq, sql } from 'drizzle-orm';
import { subdomain_list as def, SUBDOMAIN_STATUS } from '@atrium/contract/resources/subdomain/subdomain_list';
import type { Row } from '../../platform/crud.ts';
import { badRequest } from '../../platform/errors.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import type { Services } from '../../platform/services.ts';
import { registerApprovalEffect, withdrawPending } from '../approval/index.ts';
import { registerClientUsage, withClientNames } from '../client/index.ts';
import { fixtureSubDomain, notifyClient, REFER, startSubDomains, stopSubDomains } from './application.ts';
import { subdomainTexts as texts } from './messages.ts';
import { consoleRoutes } from './routes/console.ts';
import { askRoutes } from './routes/public.ts';
import { releaseHost, sweepHosts, syncHosts } from './hosts.ts';
import { hasRunningSubDomain, runningHostTenant, unbindDevice } from './service.ts';
import { subDomain } from './table.ts';

export { ASK_LIMIT } from './routes/public.ts';

/** The binding of the definition: client names on the rows, removal rules, start / stop / unbind, the fixture. */
function subdomainBinding(s: Services) {
  return bindResource(def, subDomain, {
    decorate: ({ tx, auth, rows }) => withClientNames(tx, auth.tenantId, rows),
    async beforeRemove({ tx, ids, auth, rows }) {
      if (rows.some((r) => r.status === SUBDOMAIN_STATUS.running)) throw badRequest(texts.runningNoRemove);
      for (const id of ids) {
        await releaseHost(s, tx, auth.tenantId, id);
        await withdrawPending(tx, auth.tenantId, REFER, id, s.now());
      }
    },
    actions: {
      start: ({ tx, auth, rows }) => startSubDomains(s, tx, auth.tenantId, rows, s.now()),
      stop: ({ tx, auth, rows }) => stopSubDomains(s, tx, auth.tenantId, rows, s.now()),
      async unbind({ tx, auth, rows }) {
        for (const r of rows) await unbindDevice(tx, auth.tenantId, r.id);
        return { changed: true };
      },
    },
    // An approved application of a client made for the purpose (the generated suites run on it).
    fixture: ({ tx, auth }) => fixtureSubDomain(s, tx, auth),
  });
}

/**
 * 子域名 (docs/subdomains.md): the records from the definition (pagelist, detail, submit of remark and bind limit,
 * remove, start, stop, decreseBindSubDomain), then the console's own calls and the public `ask` of the edge proxy, each
 * a plugin under the definition's base (routes/console.ts, routes/public.ts); the application's rules and SQL in
 * application.ts, the legality check and the host namespace in service.ts.
 */
export default defineModule(async (root, s) => {
  const binding = subdomainBinding(s);
  const svc = resourceRoutes(root, s, binding);

  // The client module's public pages find their tenant by a running sub-domain's host.
  s.registry.hostTenant = (host) => runningHostTenant(s.db, host);
  // The hosts of a tenant on a data source live on the main database (hosts.ts): brought in step after its move, and
  // swept every few seconds.
  s.registry.tenantMoved = async (tenantId) => void (await syncHosts(s, tenantId));
  const stopSweep = sweepHosts(s, root.log);
  root.addHook('onClose', async () => stopSweep());

  // A client with a running sub-domain cannot be removed (the client module asks every registered usage).
  registerClientUsage(s, async (tx, tenantId, clientId) =>
    (await hasRunningSubDomain(tx, tenantId, clientId)) ? texts.clientHasRunning : null,
  );

  // The decision on an application: 0 → 1 approved, or 0 → 4 rejected (its full domain is free again).
  registerApprovalEffect(s, REFER, async (tx, auth, approval, d) => {
    const [row] = await tx
      .select()
      .from(subDomain)
      .where(and(eq(subDomain.tenantId, auth.tenantId), eq(subDomain.id, String(approval.referId))))
      .for('update');
    if (!row || row.isDeleted !== 0 || row.status !== SUBDOMAIN_STATUS.applied) return;
    const to = d.pass ? SUBDOMAIN_STATUS.approved : SUBDOMAIN_STATUS.rejected;
    await tx
      .update(subDomain)
      .set({ status: to, updateUser: auth.userId, updateTime: s.now(), version: sql`${subDomain.version} + 1` })
      .where(eq(subDomain.id, row.id));
    if (!d.pass) await releaseHost(s, tx, auth.tenantId, row.id);
    await notifyClient(s, tx, auth, row, d.pass, d.opinion);
  });

  const present = (r: Row) => binding.spec.present!(r);
  const staff = { prefix: def.base, s, svc, labels: binding.spec.labels, present };
  await root.register(consoleRoutes, staff);
  await root.register(askRoutes, { prefix: def.base, s });
});
