import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { msg, reportApi } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { report_list as def } from '@atrium/contract/resources/report/report_list';
import { rawQuery } from '../../platform/crud.ts';
import { fromContract } from '../../platform/contract-route.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { writeXlsx } from '../../platform/xlsx.ts';
import { writeCsv } from './export.ts';
import { reportTexts as texts } from './messages.ts';
import { columnHeads, columnsOf, countRows, definitionOf, exportBatches, runPage } from './service.ts';

const tags = [def.code];

/** Like a list: a parameter the call does not know is refused, never ignored. */
function onlyKnown(query: Record<string, unknown>, known: string[]) {
  const unknown = Object.keys(query).find((k) => !known.includes(k));
  if (unknown) {
    const text = msg('unknownFilter', { name: unknown.slice(0, 64) });
    throw badRequest(text, [{ field: unknown, message: text }]);
  }
}

/** `run` (a page of rows) and `export` (every row, streamed) of a saved report (docs/reports.md). */
export function reportRoutes(root: FastifyInstance, s: Services) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.route({
    ...fromContract(reportApi.run, apiSchemas.report.run, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      onlyKnown(rawQuery(req), ['id', 'current', 'size']);
      const lang = req.lang ?? 'zh';
      const d = await definitionOf(s, auth, req.query.id);
      const current = req.query.current ?? 1;
      const size = req.query.size ?? 20;
      const page = await runPage(s, auth, d, { current, size }, lang);
      return ok({ name: d.name, dataset: d.dataset, chart: d.chart, ...page, current, size });
    },
  });

  app.route({
    ...fromContract(reportApi.exportFile, apiSchemas.report.exportFile, tags),
    handler: async (req, reply) => {
      const auth = requireAuth(req);
      onlyKnown(rawQuery(req), ['id', 'format']);
      const lang = req.lang ?? 'zh';
      const d = await definitionOf(s, auth, req.query.id);
      const format = req.query.format;
      // Counted first (the browser's progress), which also checks the definition before any byte is sent.
      const total = await countRows(s, auth, d);
      const heads = columnHeads(columnsOf(d), lang).map((c) => c.label);
      // The client going away (a cancel) aborts the reads: the next batch is not read.
      const stop = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) stop.abort();
      });
      const out = new PassThrough({ highWaterMark: 1 << 20 });
      const batches = exportBatches(s, auth, d, lang, { signal: stop.signal });
      const written =
        format === 'csv'
          ? writeCsv(out, heads, batches, stop.signal)
          : writeXlsx(out, { name: texts.sheetName[lang], heads }, batches, stop.signal);
      written.then(
        () => out.end(),
        (err: unknown) => {
          if (!stop.signal.aborted) req.log.error({ err }, 'report export failed');
          out.destroy();
        },
      );
      const base = `report-${d.id}.${format}`;
      const named = `${d.name}.${format}`;
      return reply
        .header(
          'content-type',
          format === 'csv'
            ? 'text/csv; charset=utf-8'
            : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        )
        .header('content-disposition', `attachment; filename="${base}"; filename*=UTF-8''${encodeURIComponent(named)}`)
        .header('cache-control', 'no-store')
        .header('x-report-rows', String(total))
        .send(out);
    },
  });
}
