import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fill, msg, regionApi } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { region as def } from '@atrium/contract/resources/system/region';
import { rawQuery, writeAudit } from '../../../platform/crud.ts';
import { fromContract } from '../../../platform/contract-route.ts';
import { fail, ok } from '../../../platform/envelope.ts';
import { AppError, badRequest, render } from '../../../platform/errors.ts';
import { requireAuth } from '../../../platform/guard.ts';
import type { Services } from '../../../platform/services.ts';
import { withTenant } from '../../../platform/tenant-db.ts';
import { parseRows, readRegionSheet } from '../import.ts';
import { regionTexts as texts } from '../messages.ts';
import { exportFile, exportRows, importRows } from '../transfer.ts';

const tags = [def.code];

/** The workbook of a subtree (or all) and the import of one, under the definition's base (services in transfer.ts). */
export const fileRoutes: FastifyPluginAsync<{ s: Services }> = async (plain, { s }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  app.route({
    ...fromContract(regionApi.exportXlsx, apiSchemas.region.exportXlsx, tags, app.prefix),
    handler: async (req, reply) => {
      const auth = requireAuth(req);
      // Like a list: a parameter it does not know is refused, never ignored.
      const unknown = Object.keys(rawQuery(req)).find((k) => k !== 'code');
      if (unknown) {
        const text = msg('unknownFilter', { name: unknown.slice(0, 64) });
        throw badRequest(text, [{ field: unknown, message: text }]);
      }
      const code = req.query.code;
      const rows = await withTenant(s.db, auth.tenantId, (tx) => exportRows(tx, code));
      const file = await exportFile(rows, req.lang ?? 'zh');
      const name = `${texts.sheetName[req.lang ?? 'zh']}${code ? `-${code}` : ''}.xlsx`;
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header(
          'content-disposition',
          `attachment; filename="regions${code ? `-${code}` : ''}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .header('cache-control', 'no-store')
        .send(file);
    },
  });

  app.route({
    ...fromContract(regionApi.importXlsx, apiSchemas.region.importXlsx, tags, app.prefix),
    handler: async (req, reply) => {
      const auth = requireAuth(req);
      const lang = req.lang ?? 'zh';
      const file = await uploaded(req);
      const { rows, errors } = parseRows(await readRegionSheet(file));
      const result = await withTenant(s.db, auth.tenantId, async (tx) => {
        const done = await importRows(tx, { userId: auth.userId, deptId: auth.deptId, now: s.now() }, rows, errors);
        if ('inserted' in done) {
          const { total, inserted, updated } = done;
          await writeAudit(s, tx, auth, req.id, def.code, 'import', '0', null, { total, inserted, updated });
        }
        return done;
      });
      if (!('inserted' in result)) {
        const shown = result.errors.slice(0, 500).map((e) => ({ row: e.row, code: e.code, message: e.message[lang] }));
        const text = render(fill(texts.importRefused, { count: result.errors.length }), lang);
        return reply
          .status(400)
          .send(fail(400, text, { total: result.total, inserted: 0, updated: 0, unchanged: 0, errors: shown }));
      }
      const { total, inserted, updated } = result;
      return ok(
        { total, inserted, updated, unchanged: total - inserted - updated, errors: [] },
        fill(texts.imported, { inserted, updated }),
      );
    },
  });
};

/** The uploaded workbook (multipart field "file"); anything else is a 400. */
async function uploaded(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw badRequest(texts.noFile);
  const part = await req.file().catch(() => {
    throw badRequest(texts.notXlsx);
  });
  if (!part) throw badRequest(texts.noFile);
  const buf = await part.toBuffer().catch((err: { code?: string }) => {
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(400, msg('fileTooLarge'));
    throw badRequest(texts.notXlsx);
  });
  if (part.file.truncated) throw new AppError(400, msg('fileTooLarge'));
  if (!buf.length) throw badRequest(texts.noFile);
  return buf;
}
