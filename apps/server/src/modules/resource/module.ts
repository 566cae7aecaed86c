import { and, eq, ne, sql } from 'drizzle-orm';
import { fill, type Msg } from '@atrium/contract';
import { attach as attachDef } from '@atrium/contract/resources/resource/attach';
import { oss } from '@atrium/contract/resources/resource/oss';
import { attach } from '../../db/schema/index.ts';
import { newId } from '../../db/ids.ts';
import { badRequest, type FieldError } from '../../platform/errors.ts';
import { bindResource, defineModule, resourceRoutes as crudRoutes } from '../../platform/resource.ts';
import { seal } from '../../platform/secrets.ts';
import { resourceTexts as texts } from './messages.ts';
import { resourceRoutes } from './routes.ts';
import { queueRemovals, RemovalWorker } from './removals.ts';
import { endpointRefusal } from './storage.ts';
import { ossConfig } from './table.ts';

const fieldError = (field: string, message: Msg) => badRequest(message, [{ field, message } satisfies FieldError]);

/**
 * Files (docs/system-api.md "Files"): put-file stores an upload through the tenant's enabled storage configuration;
 * 对象存储 (oss) manages those configurations, 附件管理 (attach) the uploads.
 */
export default defineModule((app, s) => {
  resourceRoutes(app, s);
  const removals = new RemovalWorker(s, {}, app.log);

  crudRoutes(
    app,
    s,
    bindResource(oss, ossConfig, {
      // The endpoint may not lead into the server's own networks (resolved now, and again at every connection).
      async prepareSave({ input }) {
        const endpoint = typeof input.endpoint === 'string' ? input.endpoint.trim() : '';
        if (!endpoint) return {};
        const bad = await endpointRefusal(endpoint, s.config.ossPrivateNetworks);
        if (bad) throw fieldError('endpoint', fill(texts.endpointRefused, { host: bad }));
        return {};
      },
      async beforeSave({ input, existing }) {
        const category = Number(input.category ?? existing?.category ?? 1);
        const has = (k: string) =>
          (typeof input[k] === 'string' && (input[k] as string) !== '') ||
          (!(k in input) && !!existing?.[k]) ||
          (k === 'secretKey' && !!existing?.secretKeySealed);
        if (category === 2) {
          const missing = ['endpoint', 'bucketName', 'accessKey', 'secretKey'].find((k) => !has(k));
          if (missing) throw fieldError(missing, texts.needS3);
        }
        const secret = input.secretKey;
        return typeof secret === 'string' && secret !== '' ? { secretKeySealed: seal(s, secret) } : {};
      },
      actions: {
        // The one enabled configuration of the tenant: the others are switched off first (a partial unique index
        // holds at most one). Files stored through them stay where they are, readable.
        async enable({ tx, auth, rows }) {
          await tx
            .update(ossConfig)
            .set({ status: 1, updateUser: auth.userId, updateTime: s.now(), version: sql`${ossConfig.version} + 1` })
            .where(and(eq(ossConfig.tenantId, auth.tenantId), eq(ossConfig.status, 2), ne(ossConfig.id, rows[0].id)));
        },
      },
    }),
  );

  crudRoutes(
    app,
    s,
    bindResource(attachDef, attach, {
      // An upload as put-file records one, for the generated suites (its object is not needed to list or rename).
      fixture: async ({ tx, auth }) => {
        const id = newId();
        const name = `${'0'.repeat(31)}1.txt`;
        await tx.insert(attach).values({
          id,
          tenantId: auth.tenantId,
          link: `/files/${name}`,
          domain: '',
          name,
          originalName: 'fixture.txt',
          extension: 'txt',
          mime: 'text/plain',
          attachSize: 1,
          objectKey: name,
          createUser: auth.userId,
        });
        return id;
      },
      // The stored objects go with their records: queued in the removal's transaction, deleted once it commits, and
      // retried by the removal worker while the store fails (docs/system-api.md "Files").
      async beforeRemove({ tx, rows }) {
        await queueRemovals(s, tx, rows as (typeof attach.$inferSelect)[]);
      },
      async afterRemove({ ids }) {
        await removals
          .runOnce(ids)
          .catch((err: unknown) => app.log.warn({ err }, 'removed attachments’ objects are queued for later'));
      },
    }),
  );

  // The objects whose deletion failed are tried again, on every server (docs/system-api.md "Files").
  app.addHook('onListen', async () => removals.start());
  app.addHook('onClose', async () => removals.stop());
});
