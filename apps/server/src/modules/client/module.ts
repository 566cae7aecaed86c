import { clientinfo as def, CLIENT_STATUS } from '@atrium/contract/resources/customer/clientinfo';
import { regionPrefix } from '../../platform/paging.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import type { Services } from '../../platform/services.ts';
import { openApproval, registerApprovalEffect } from '../approval/index.ts';
import { revokeUserSessions } from '../../platform/sessions.ts';
import { clientTexts as texts } from './messages.ts';
import { publicRoutes } from './routes/public.ts';
import { contactRoutes, staffRoutes } from './routes/staff.ts';
import {
  applicationOf,
  checkClientForm,
  decideClient,
  refuseBlocked,
  removeClients,
  setAccountStatus,
} from './service.ts';
import { clientInfo } from './table.ts';
import { trackBinding } from './track.ts';

export { LICENCE_MAX_BYTES, PUBLIC_PER_MINUTE } from './routes/public.ts';

/** The binding of the definition: the form's rules, the review a new or corrected client opens, its account. */
function clientBinding(s: Services) {
  return bindResource(def, clientInfo, {
    // A client account's "own client" is the record itself.
    scope: { owner: clientInfo.createUser, dept: clientInfo.createDept, client: clientInfo.id },
    // Added or moved only inside the caller's data scope (the same check as devices', platform/crud.ts): a region
    // admin enters clients of its region and below.
    outsideScope: texts.outsideScope,
    listParams: {
      // A region and everything below it.
      regionCode: ({ value }) => regionPrefix(clientInfo.regionCode, value),
    },
    prepareSave: ({ auth, input }) => refuseBlocked(s, auth.tenantId, input as Record<string, unknown>),
    async beforeSave({ tx, input, existing }) {
      const checked = await checkClientForm(tx, input, existing);
      if (!existing) return { ...checked, status: CLIENT_STATUS.pending, source: 2 };
      // A rejected client corrected by staff goes back to review.
      if (existing.status === CLIENT_STATUS.rejected) return { ...checked, status: CLIENT_STATUS.pending };
      return checked;
    },
    async afterSave({ tx, auth, row, existing }) {
      if (existing && existing.status !== CLIENT_STATUS.rejected) return;
      await openApproval(tx, auth.tenantId, applicationOf(row, auth.userId), s.now());
    },
    beforeRemove: ({ tx, auth, rows }) => removeClients(s, tx, auth.tenantId, rows),
    async afterRemove({ ids }) {
      void ids;
    },
    actions: {
      async disable({ tx, auth, rows }) {
        // The factory types an action's rows as Row; they are this table's rows (ClientRow).
        for (const c of rows) await setAccountStatus(tx, auth.tenantId, c as never, 0, s.now());
        const accounts = rows.map((c) => c.accountUserId).filter((x): x is string => !!x);
        return { after: () => revokeUserSessions(s, accounts.map(String)) };
      },
      async enable({ tx, auth, rows }) {
        // The factory types an action's rows as Row; they are this table's rows (ClientRow).
        for (const c of rows) await setAccountStatus(tx, auth.tenantId, c as never, 1, s.now());
      },
    },
  });
}

/**
 * 客户信息 (docs/clients.md): the definition's routes, then the staff screens' own calls and the public registration
 * page, each a plugin under the definition's base (routes/staff.ts, routes/public.ts); rules and SQL in service.ts.
 */
export default defineModule(async (root, s) => {
  const binding = clientBinding(s);
  const svc = resourceRoutes(root, s, binding);
  // 客户跟踪: the follow-ups, read-only, inside the client list's data scope (track.ts).
  resourceRoutes(root, s, trackBinding(svc.scopeOf));
  registerApprovalEffect(s, 'client', (tx, auth, approval, d) =>
    decideClient(s, tx, auth, String(approval.referId), d.pass, d.opinion),
  );
  const staff = { prefix: def.base, s, svc, labels: binding.spec.labels };
  await root.register(staffRoutes, staff);
  await root.register(contactRoutes, staff);
  await root.register(publicRoutes, { prefix: def.base, s, body: binding.spec.body });
});
