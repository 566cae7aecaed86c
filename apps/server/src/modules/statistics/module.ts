import { sql } from 'drizzle-orm';
import { msg, statistics } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { ok } from '../../platform/envelope.ts';
import { fromContract } from '../../platform/contract-route.ts';
import { badRequest } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { defineModule } from '../../platform/resource.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { RollupJob } from './rollup.ts';
import { statisticsTexts as texts } from './messages.ts';
import {
  addDays,
  channelCounts,
  dayIn,
  deviceCounts,
  deviceTypeParam,
  pageParams,
  pastDayParam,
  rateOf,
  regionParam,
  resolveRegion,
  sortRows,
  statRow,
  statScopeOf,
  summaryOf,
  ROOT,
} from './service.ts';

const tags = ['statistics'];
/** The data-scope resources whose rules decide what a caller's numbers cover. */
const DEVICES = 'cameradevice';
const CHANNELS = 'nvrchannelinfo';

type Query = Record<string, unknown>;
const one = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/** Refuses any query name but `allowed` (a typo is a 400, never a silent ignore). */
function onlyParams(query: Query, allowed: string[]) {
  for (const key of Object.keys(query))
    if (!allowed.includes(key))
      throw badRequest(msg('unknownFilter', { name: key }), [{ field: key, message: 'unknown parameter' }]);
}

/**
 * 设备在线统计 and 接入排名 (docs/devices.md "Statistics"): the three calls of the spec, the 30-day line of the
 * screen, and the daily rollup job. Read-only: every number comes from the counters the triggers keep, the rollup,
 * or a small direct aggregate — never a scan of the tenant's devices.
 */
export default defineModule((app, s) => {
  const today = () => dayIn(s.config.timeZone, s.now());

  // One row per child region of regionCode: total, online, offline, onlineRate — now, or at the end of a past day.
  app.route({
    ...fromContract(statistics.onlinePage, apiSchemas.statistics.onlinePage, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const query = req.query as Query;
      const paging = pageParams(query, ['regionCode', 'date', 'deviceType']);
      const given = regionParam(one(query.regionCode));
      const day = pastDayParam(one(query.date), today());
      const deviceType = deviceTypeParam(one(query.deviceType));
      const scope = await statScopeOf(s, auth, DEVICES);
      const answer = await withTenant(s.db, auth.tenantId, async (tx) => {
        const { region, children } = await resolveRegion(tx, auth.tenantId, scope, given);
        const len = children[0]?.code.length ?? 2;
        const counts = children.length
          ? await deviceCounts(tx, auth.tenantId, scope, region.code, len, deviceType, day)
          : new Map();
        return { region, rows: children.map((c) => statRow(c, counts.get(c.code))) };
      });
      const rows = sortRows(answer.rows, paging.sorts);
      const from = (paging.current - 1) * paging.size;
      return ok({
        records: rows.slice(from, from + paging.size),
        total: rows.length,
        size: paging.size,
        current: paging.current,
        pages: Math.ceil(rows.length / paging.size),
        regionCode: answer.region.code,
        regionName: answer.region.name,
        // The names from the province down ("北京市 市辖区"): the title of a view that opens below the provinces.
        regionPath: answer.region.path ?? answer.region.name,
        date: day ?? null,
        summary: summaryOf(answer.rows),
      });
    },
  });

  // The online rate of a region, day by day: the rollups of the past `days - 1` days and today's counters.
  app.route({
    ...fromContract(statistics.onlineTrend, apiSchemas.statistics.onlineTrend, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const query = req.query as Query;
      onlyParams(query, ['regionCode', 'deviceType', 'days']);
      const given = regionParam(one(query.regionCode));
      const deviceType = deviceTypeParam(one(query.deviceType));
      const rawDays = String(one(query.days) ?? '').trim();
      if (rawDays && (!/^\d{1,2}$/.test(rawDays) || Number(rawDays) < 1 || Number(rawDays) > 90))
        throw badRequest(texts.badDays, [{ field: 'days', message: texts.badDays }]);
      const days = rawDays ? Number(rawDays) : 30;
      const scope = await statScopeOf(s, auth, DEVICES);
      const now = today();
      const first = addDays(now, -(days - 1));
      const data = await withTenant(s.db, auth.tenantId, async (tx) => {
        const { region } = await resolveRegion(tx, auth.tenantId, scope, given);
        const len = region.code === ROOT ? 2 : region.code.length;
        const current = await deviceCounts(tx, auth.tenantId, scope, region.code, len, deviceType);
        const live = [...current.values()].reduce(
          (a, c) => ({ total: a.total + c.total, online: a.online + c.online }),
          { total: 0, online: 0 },
        );
        // The rollups are per district: a region below a district, and a client account, have today's point only.
        const past = new Map<string, { total: number; online: number }>();
        if ((scope.kind === 'all' || scope.kind === 'region') && len <= 6) {
          const prefix = region.code === ROOT ? '' : region.code;
          // The rollup keeps a row per region prefix (docs/devices.md "Statistics"): the region's own rows.
          const res = await tx.execute(sql`select day::text as day, sum(total) as total, sum(online) as online
            from stat_device_daily where tenant_id = ${auth.tenantId} and district = ${prefix}
              and day >= ${first} and day < ${now}${deviceType ? sql` and device_type = ${deviceType}` : sql``}
            group by day`);
          const rows = ((res as { rows?: Record<string, unknown>[] }).rows ?? []) as Record<string, unknown>[];
          for (const r of rows) past.set(String(r.day), { total: Number(r.total), online: Number(r.online) });
        }
        const points = [];
        for (let i = days - 1; i >= 0; i--) {
          const day = addDays(now, -i);
          const c = i === 0 ? live : past.get(day);
          points.push({
            day,
            total: c?.total ?? null,
            online: c?.online ?? null,
            onlineRate: c ? rateOf(c.online, c.total) : null,
          });
        }
        return { regionCode: region.code, regionName: region.name, days: points };
      });
      return ok(data);
    },
  });

  // Regions (children of regionCode, default the caller's top region) ranked by devices of a type.
  app.route({
    ...fromContract(statistics.deviceRanking, apiSchemas.statistics.deviceRanking, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const query = req.query as Query;
      onlyParams(query, ['deviceType', 'regionCode']);
      const deviceType = deviceTypeParam(one(query.deviceType));
      const given = regionParam(one(query.regionCode));
      const scope = await statScopeOf(s, auth, DEVICES);
      const rows = await withTenant(s.db, auth.tenantId, async (tx) => {
        const { region, children } = await resolveRegion(tx, auth.tenantId, scope, given);
        const len = children[0]?.code.length ?? 2;
        const counts = children.length
          ? await deviceCounts(tx, auth.tenantId, scope, region.code, len, deviceType)
          : new Map();
        return children.map((c) => statRow(c, counts.get(c.code)));
      });
      return ok(ranked(rows));
    },
  });

  // Regions ranked by the NVR channels joined.
  app.route({
    ...fromContract(statistics.channelRanking, apiSchemas.statistics.channelRanking, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const query = req.query as Query;
      onlyParams(query, ['regionCode']);
      const given = regionParam(one(query.regionCode));
      const scope = await statScopeOf(s, auth, CHANNELS);
      const rows = await withTenant(s.db, auth.tenantId, async (tx) => {
        const { region, children } = await resolveRegion(tx, auth.tenantId, scope, given);
        const len = children[0]?.code.length ?? 2;
        const counts = children.length ? await channelCounts(tx, auth.tenantId, scope, region.code, len) : new Map();
        return children.map((c) => ({ regionCode: c.code, regionName: c.name, total: counts.get(c.code)?.total ?? 0 }));
      });
      return ok(ranked(rows));
    },
  });

  const job = new RollupJob(s, app.log);
  app.addHook('onListen', async () => job.start());
  app.addHook('onClose', async () => job.stop());
});

/** Most first (ties by region order), each with its rank. */
function ranked<T extends { total: number }>(rows: T[]) {
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.total - a.r.total || a.i - b.i)
    .map(({ r }, i) => ({ rank: i + 1, ...r }));
}
