import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { PassThrough, Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { fill, system } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { tenant } from '../../../db/schema/index.ts';
import { fromContract } from '../../../platform/contract-route.ts';
import { ok } from '../../../platform/envelope.ts';
import { AppError, badRequest } from '../../../platform/errors.ts';
import type { Services } from '../../../platform/services.ts';
import { tenantRoutesOf } from '../../../platform/tenant-route.ts';
import { tenantTexts as texts } from '../messages.ts';
import { exportTenant, importTenant } from '../transfer.ts';

const tags = ['tenant'];
/** The largest tenant export an import takes (docs/tenants.md "Export format"). */
export const TENANT_IMPORT_MAX_BYTES = 16 * 1024 ** 3;

/** The database holding a tenant's rows: its data source's, or the main one (docs/tenants.md "Routing"). */
const tenantDb = (s: Services, tenantId: string) => tenantRoutesOf(s.db).databases.get(tenantId) ?? s.db;

/** A live tenant's record by its tenant id, or a 404. */
async function tenantOf(s: Services, tenantId: string) {
  const [row] = await s.db
    .select({ tenantId: tenant.tenantId })
    .from(tenant)
    .where(and(eq(tenant.tenantId, tenantId), eq(tenant.isDeleted, 0)))
    .limit(1);
  if (!row) throw new AppError(404, texts.importUnknownTenant);
  return row;
}

/** The per-tenant export (a download) and import (an upload), platform administrator only (docs/tenants.md). */
export const transferRoutes: FastifyPluginAsync<{ s: Services }> = async (plain, { s }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  app.route({
    ...fromContract(system.tenantExport, apiSchemas.system.tenantExport, tags),
    handler: async (req, reply) => {
      const { tenantId } = await tenantOf(s, req.query.tenantId);
      const gz = createGzip({ level: 4 });
      const out = new PassThrough();
      gz.pipe(out);
      const sink = async (text: string) => {
        if (!gz.write(text)) await once(gz, 'drain');
      };
      // The transaction stays open while the client reads (back-pressure): a broken download ends it.
      exportTenant(tenantDb(s, tenantId), tenantId, sink).then(
        () => gz.end(),
        (err: unknown) => {
          req.log.error({ err }, 'tenant export failed');
          out.destroy(err as Error);
        },
      );
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="tenant-${tenantId}-${stamp}.ndjson.gz"`)
        .header('cache-control', 'no-store')
        .send(out);
    },
  });

  app.route({
    ...fromContract(system.tenantImport, apiSchemas.system.tenantImport, tags),
    handler: async (req) => {
      const { tenantId } = await tenantOf(s, req.query.tenantId);
      const file = await uploadedStream(req);
      const lines = createInterface({ input: file, crlfDelay: Infinity });
      try {
        const done = await importTenant(tenantDb(s, tenantId), tenantId, lines, {
          replace: req.query.replace === 'true',
        });
        return ok(done, fill(texts.imported, { tables: done.tables, rows: done.rows }));
      } finally {
        lines.close();
        file.destroy();
      }
    },
  });
};

/** The uploaded export (multipart field "file"), gunzipped when it is gzip; anything else is a 400. */
async function uploadedStream(req: FastifyRequest): Promise<Readable> {
  if (!req.isMultipart()) throw badRequest(texts.importNoFile);
  const part = await req.file({ limits: { fileSize: TENANT_IMPORT_MAX_BYTES } }).catch(() => {
    throw badRequest(texts.importNotExport);
  });
  if (!part) throw badRequest(texts.importNoFile);
  // Sniff the first bytes: gzip (1f 8b) or plain NDJSON.
  const chunks = (part.file as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const head = await chunks.next();
  if (head.done || !head.value.length) throw badRequest(texts.importNoFile);
  const first = head.value;
  const source = Readable.from(
    (async function* () {
      yield first;
      for (;;) {
        const n = await chunks.next();
        if (n.done) return;
        yield n.value;
      }
    })(),
    { objectMode: false },
  );
  if (first[0] === 0x1f && first[1] === 0x8b) {
    const gunzip = createGunzip();
    const text = new PassThrough();
    source.pipe(gunzip).pipe(text);
    // A damaged gzip stream ends the lines early: the import then finds the file cut short (a 400).
    gunzip.on('error', () => text.end());
    return text;
  }
  return source;
}
