import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { outbox as outboxDef } from '@atrium/contract/resources/resource/outbox';
import { crudService, idParam, rawQuery } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bindings, bindResource, defineModule } from '../../platform/resource.ts';
import { envelopeSchema, fjsCompiler, pageSchema } from '../../platform/response.ts';
import type { Services } from '../../platform/services.ts';
import { outbox } from './table.ts';
import { OutboxWorker } from './worker.ts';

/** The worker of each app (tests reach theirs through `outboxWorkerOf`). */
const workers = new WeakMap<Services, OutboxWorker>();
export const outboxWorkerOf = (s: Services) => workers.get(s);

/**
 * 发件箱 (docs/outbox.md): a read-only list and detail for administrators, and the delivery worker, which starts when
 * the server listens and stops with it (the app's close hooks run on shutdown, docs/server.md "Shutdown").
 */
export default defineModule((app: FastifyInstance, s: Services) => {
  const binding = bindResource(outboxDef, outbox);
  // Read-only: no submit or remove, so the generated round trip of the conformance suite does not apply.
  bindings.delete(outboxDef.code);
  const svc = crudService(s, binding.spec);
  const record = binding.spec.response!;
  const read = { permission: outboxDef.code, labels: binding.spec.labels };
  app.get(
    `${outboxDef.base}/list`,
    {
      config: read,
      schema: { tags: ['outbox'], response: { 200: envelopeSchema(pageSchema(record)) } },
      serializerCompiler: fjsCompiler,
    },
    async (req) => ok(await svc.list(requireAuth(req), rawQuery(req))),
  );
  app.get(
    `${outboxDef.base}/detail`,
    {
      config: read,
      schema: {
        tags: ['outbox'],
        querystring: z.object({ id: idParam }),
        response: { 200: envelopeSchema(record) },
      },
      serializerCompiler: fjsCompiler,
    },
    async (req) => ok(await svc.detail(requireAuth(req), (req.query as { id: string }).id)),
  );

  const worker = new OutboxWorker(s, {}, app.log);
  workers.set(s, worker);
  app.addHook('onListen', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
});
