import type { FastifyInstance } from 'fastify';
import { outbox as outboxDef } from '@atrium/contract/resources/resource/outbox';
import { Gauge } from 'prom-client';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import type { Services } from '../../platform/services.ts';
import { backlog, enqueueSms } from './service.ts';
import { outbox } from './table.ts';
import { OutboxWorker } from './worker.ts';

/** The worker of each app (tests reach theirs through `outboxWorkerOf`). */
const workers = new WeakMap<Services, OutboxWorker>();
export const outboxWorkerOf = (s: Services) => workers.get(s);

/**
 * 发件箱 (docs/outbox.md): a read-only resource (list and detail, docs/resources.md "Read-only resources") for
 * administrators, and the delivery worker, which starts when the server listens and stops with it (the app's close
 * hooks run on shutdown, docs/server.md "Shutdown").
 */
export default defineModule((app: FastifyInstance, s: Services) => {
  resourceRoutes(
    app,
    s,
    bindResource(outboxDef, outbox, {
      // A message as the modules queue one, for the generated suites.
      fixture: ({ tx, auth }) =>
        enqueueSms(s, tx, {
          tenantId: auth.tenantId,
          phone: '13800000000',
          text: 'Atrium fixture',
          templateCode: 'fixture',
        }),
    }),
  );

  // The backlog, counted when scraped (docs/deploy.md "Metrics"); NaN when the database cannot say.
  const jobs = new Gauge({
    name: 'atrium_outbox_backlog',
    help: 'Messages (SMS, email) still to deliver, across tenants; due: their time has come',
    labelNames: ['state'] as const,
    registers: [s.metrics],
    async collect() {
      const b = await backlog(s);
      jobs.set({ state: 'queued' }, b?.queued ?? NaN);
      jobs.set({ state: 'due' }, b?.due ?? NaN);
    },
  });

  const worker = new OutboxWorker(s, {}, app.log);
  workers.set(s, worker);
  app.addHook('onListen', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
});
