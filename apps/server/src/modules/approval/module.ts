import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq } from 'drizzle-orm';
import { business as api } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { approval as def } from '@atrium/contract/resources/customer/approval';
import { newId } from '../../db/ids.ts';
import { writeAudit } from '../../platform/crud.ts';
import { declared } from '../../platform/declared.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { approvalTexts as texts } from './messages.ts';
import { decideApproval, type ApprovalRow } from './service.ts';
import { approvalTable } from './table.ts';

const tags = ['approval'];
const schemas = apiSchemas.business;

/** 客户审批 (docs/clients.md "Approvals"): the records, the pending queue, one object's history, the decision. */
export default defineModule((root, s) => {
  const binding = bindResource(def, approvalTable, {
    // The id of the record applied for (its kind depends on referType), set by the business, answered as text.
    columnTypes: { referId: 'bigint' },
    async beforeRemove({ rows }) {
      if (rows.some((r) => r.status === 0)) throw badRequest(texts.pendingNoRemove);
    },
    // A decided application, as a withdrawn registration leaves one.
    async fixture({ tx, auth }) {
      const id = newId();
      const now = new Date();
      await tx.insert(approvalTable).values({
        id,
        tenantId: auth.tenantId,
        referType: 'client',
        referId: newId(),
        title: 'fixture',
        applicantName: 'fixture',
        applicantPhone: '13800000000',
        regionCode: '110101',
        submitTime: now,
        status: 3,
        createTime: now,
        updateTime: now,
      });
      return id;
    },
  });
  const svc = resourceRoutes(root, s, binding);
  const app = root.withTypeProvider<ZodTypeProvider>();

  const extras = { labels: binding.spec.labels };

  // The applications waiting for a decision that the caller may take: the approve code and their data scope.
  app.route({
    ...declared(api.approvalPage, schemas.approvalPage, tags, extras),
    handler: async (req) => ok(await svc.list(requireAuth(req), req.query, eq(approvalTable.status, 0))),
  });

  // The whole history of one business object, oldest first, within the caller's data scope.
  app.route({
    ...declared(api.approvalDetail, schemas.approvalDetail, tags, extras),
    handler: async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      const rows = await withTenant(s.db, auth.tenantId, (tx) =>
        tx
          .select()
          .from(approvalTable)
          .where(
            and(
              eq(approvalTable.tenantId, auth.tenantId),
              eq(approvalTable.referId, req.query.referId),
              eq(approvalTable.isDeleted, 0),
              scope,
            ),
          )
          .orderBy(asc(approvalTable.id)),
      );
      return ok(rows.map((r) => binding.spec.present!(r)));
    },
  });

  // One decision: 1 approve, 2 reject (an opinion is then required); its effect in the same transaction.
  app.route({
    ...declared(api.businessApproval, schemas.businessApproval, tags, extras),
    handler: async (req) => {
      const auth = requireAuth(req);
      const { id, status, opinion } = req.body;
      const scope = await svc.scopeOf(auth);
      await withTenant(s.db, auth.tenantId, async (tx) => {
        const [row] = await tx
          .select()
          .from(approvalTable)
          .where(
            and(
              eq(approvalTable.tenantId, auth.tenantId),
              eq(approvalTable.id, id),
              eq(approvalTable.isDeleted, 0),
              scope,
            ),
          )
          .for('update');
        if (!row) throw notFound();
        await decideApproval(
          s,
          tx,
          auth,
          row as ApprovalRow,
          { pass: status === 1, opinion: opinion ?? null, requestId: req.id },
          s.now(),
        );
        await writeAudit(
          s,
          tx,
          auth,
          req.id,
          def.code,
          status === 1 ? 'approve' : 'reject',
          id,
          { status: 0 },
          {
            status,
            opinion: opinion ?? null,
          },
        );
      });
      return ok(true, status === 1 ? texts.approved : texts.rejected);
    },
  });
});
