import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { flowApi as api, type ApiRoute, type RouteSchemas } from '@atrium/contract';
import { flowSchemas as schemas } from '@atrium/contract/schemas';
import type { Db } from '../../../db/client.ts';
import { declared } from '../../../platform/declared.ts';
import { rawQuery, writeAudit } from '../../../platform/crud.ts';
import { ok } from '../../../platform/envelope.ts';
import { requireAuth } from '../../../platform/guard.ts';
import type { Services } from '../../../platform/services.ts';
import { readTenant, withTenant } from '../../../platform/tenant-db.ts';
import type { AuthContext } from '../../../platform/tokens.ts';
import { claimTask, completeTask, deleteInstance } from '../engine/service.ts';
import { flowTexts as texts } from '../messages.ts';
import {
  definitionPage,
  diagramOf,
  historyOf,
  instancePage,
  readableInstance,
  taskById,
  taskPage,
  userOptions,
  waitingCount,
} from '../queries.ts';

const tags = ['flow'];

/**
 * 流程跟踪, 我的事务 and an instance's history and diagram (docs/workflow.md "Lists", "My work"): reads in
 * queries.ts, the engine's touches in engine/service.ts.
 */
export const workRoutes: FastifyPluginAsync<{ s: Services }> = async (plain, { s }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const read = <T>(auth: AuthContext, fn: Parameters<typeof readTenant<T>>[2]) => readTenant(s.db, auth.tenantId, fn);
  /** A read of the caller's tenant answered from the query string (the lists, the bell): `answer` in its transaction. */
  const reading = <S extends RouteSchemas>(
    route: ApiRoute<S>,
    schema: S,
    answer: (tx: Db, auth: AuthContext, query: Record<string, unknown>) => Promise<unknown>,
  ) =>
    app.route({
      // Checked against each other at the call; the handler answers whatever page or record the route's schema names.
      ...declared(route as ApiRoute, schema as RouteSchemas, tags),
      handler: async (req) => {
        const auth = requireAuth(req);
        return ok(await read(auth, (tx) => answer(tx, auth, rawQuery(req))));
      },
    });

  reading(api.followList, schemas.followList, (tx, auth, query) => instancePage(tx, auth, 'follow', query));

  app.route({
    ...declared(api.deleteProcessInstance, schemas.deleteProcessInstance, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const { processInstanceId, deleteReason } = req.body;
      const done = await deleteInstance(s, auth, { instanceId: processInstanceId, reason: deleteReason });
      await withTenant(s.db, auth.tenantId, (tx) =>
        writeAudit(s, tx, auth, req.id, 'flow_instance', 'delete', processInstanceId, null, {
          reason: deleteReason,
          ...done,
        }),
      );
      return ok(true, texts.instanceDeleted);
    },
  });

  reading(api.startList, schemas.startList, (tx, auth, query) => definitionPage(tx, auth.tenantId, 'start', query));
  for (const kind of ['todo', 'claim', 'done'] as const)
    reading(api[`${kind}List`], schemas[`${kind}List`], (tx, auth, query) => taskPage(tx, auth, kind, query));
  reading(api.sendList, schemas.sendList, (tx, auth, query) => instancePage(tx, auth, 'send', query));
  reading(api.waitingCount, schemas.waitingCount, (tx, auth) => waitingCount(tx, auth));

  app.route({
    ...declared(api.userOptions, schemas.userOptions, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      return ok(await read(auth, (tx) => userOptions(tx, auth.tenantId, req.query.name)));
    },
  });

  app.route({
    ...declared(api.claimTask, schemas.claimTask, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const done = await claimTask(s, auth, req.query.taskId);
      return ok(await read(auth, (tx) => taskById(tx, auth.tenantId, done.taskId)), texts.claimed);
    },
  });

  app.route({
    ...declared(api.completeTask, schemas.completeTask, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const { taskId, processInstanceId, flag, comment, variables } = req.body;
      await completeTask(s, auth, { taskId, instanceId: processInstanceId, flag, comment, variables });
      return ok(true, flag === 'ok' ? texts.completedPass : texts.completedReject);
    },
  });

  // An instance's history and diagram: its participants, and trackers (holders of 流程跟踪); others get a 404.
  const tracker = async (auth: AuthContext) => (await s.permissionCodes(auth.tenantId, auth.roleIds)).has('follow');

  /** A read of one instance (`processInstanceId`): `answer` runs once the caller may read the instance. */
  const ofInstance = <S extends RouteSchemas>(
    route: ApiRoute<S>,
    schema: S,
    answer: (tx: Db, tenantId: string, inst: Awaited<ReturnType<typeof readableInstance>>) => Promise<unknown>,
  ) =>
    app.route({
      ...declared(route as ApiRoute, schema as RouteSchemas, tags),
      handler: async (req) => {
        const auth = requireAuth(req);
        const follows = await tracker(auth);
        const id = String(rawQuery(req).processInstanceId);
        return ok(
          await read(auth, async (tx) => answer(tx, auth.tenantId, await readableInstance(tx, auth, id, follows))),
        );
      },
    });
  ofInstance(api.historyFlowList, schemas.historyFlowList, (tx, tenantId, inst) => historyOf(tx, tenantId, inst.id));
  ofInstance(api.diagram, schemas.diagram, diagramOf);
};
