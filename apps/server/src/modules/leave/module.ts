import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { flowApi } from '@atrium/contract';
import { flowSchemas } from '@atrium/contract/schemas';
import { declared } from '../../platform/declared.ts';
import { ok } from '../../platform/envelope.ts';
import { requireAuth } from '../../platform/guard.ts';
import { defineModule } from '../../platform/resource.ts';
import { registerFlowEffect } from '../flow/index.ts';
import { leaveProcessSeed } from '../../db/seed-data/leave.ts';
import { leaveDetail, leaveEffect, startLeave } from './service.ts';

const tags = ['leave'];

/**
 * 请假流程 (docs/workflow.md "The leave process"): the two calls of the leave screens, and the effect that keeps a
 * request in step with its instance (registered with the flow module for the key `leave`).
 */
export default defineModule((root, s) => {
  registerFlowEffect(s, leaveProcessSeed.key, leaveEffect);
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.route({
    ...declared(flowApi.leaveStart, flowSchemas.leaveStart, tags),
    handler: async (req) => ok(await startLeave(s, requireAuth(req), req.body)),
  });
  app.route({
    ...declared(flowApi.leaveDetail, flowSchemas.leaveDetail, tags),
    handler: async (req) => ok(await leaveDetail(s, requireAuth(req), req.query.businessId)),
  });
});
