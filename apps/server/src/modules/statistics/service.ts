import { sql, type SQL } from 'drizzle-orm';
import { msg } from '@atrium/contract';
import type { Db } from '../../db/client.ts';
import { isTenantAdmin, rulesOf, SCOPE_TYPES, type ScopeShape } from '../../platform/access.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { MAX_PAGE_SIZE } from '../../platform/paging.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { statisticsTexts as texts } from './messages.ts';
import { statDeviceCounter as counter } from './table.ts';

/**
 * Statistics by region (docs/devices.md "Statistics"): who sees what, which child regions a region has, and where
 * their numbers come from — the maintained counters (regions down to districts), the daily rollup (past days), or,
 * below a district and for a client account, a direct aggregate over the index of a small set of devices.
 */

/** What the caller's numbers cover: the tenant, a region and below, one client's devices, or nothing. */
export type StatScope =
  { kind: 'all' } | { kind: 'region'; prefix: string } | { kind: 'client'; clientId: string } | { kind: 'none' };

/** The root of the region tree (its children are the provinces). */
export const ROOT = '00';
/** The counters and rollups are kept per district: the first 6 digits of a region code. */
const DISTRICT = 6;
const CODE_LENGTHS = new Set([2, 4, 6, 9, 12]);

/**
 * The caller's scope on a business resource (`cameradevice` for devices, `nvrchannelinfo` for channels), from the
 * same data-scope rules the resource's lists follow: the tenant administrator and type 1 → the tenant; type 6 → the
 * user's region and below; type 7 → the user's client; anything else (own records, departments) → nothing.
 */
export async function statScopeOf(s: Services, auth: AuthContext, code: string): Promise<StatScope> {
  if (await isTenantAdmin(s, auth)) return { kind: 'all' };
  const types = new Set((await rulesOf(s, auth, code)).map((r) => r.scopeType));
  if (types.has(SCOPE_TYPES.all)) return { kind: 'all' };
  if (types.has(SCOPE_TYPES.ownRegionAndBelow) && auth.regionCode && /^\d{2,12}$/.test(auth.regionCode))
    return { kind: 'region', prefix: auth.regionCode };
  if (types.has(SCOPE_TYPES.ownClient) && auth.clientInfoId) return { kind: 'client', clientId: auth.clientInfoId };
  return { kind: 'none' };
}

/**
 * The number of live devices a device list filtered by its data scope only has, from the counters (the camera list's
 * `total`, docs/devices.md "Camera list"): the tenant's, or a region's down to a district. The counters change in the
 * transactions that change the devices, so the list's snapshot reads them equal to a count of its rows. Below a
 * district (or any other scope) → undefined: the rows are counted.
 */
export function deviceTotalOf(auth: AuthContext, shape: ScopeShape): SQL | undefined {
  const tenant = sql`${counter.tenantId} = ${auth.tenantId}`;
  if (shape.all) return sql`select coalesce(sum(${counter.total}), 0) from ${counter} where ${tenant}`;
  const prefix = shape.regionPrefix;
  if (!prefix || prefix.length > DISTRICT) return undefined;
  return sql`select coalesce(sum(${counter.total}), 0) from ${counter}
    where ${tenant} and starts_with(${counter.district}, ${prefix})`;
}

/** A `regionCode` parameter: empty → undefined (the caller's top region); `00` or a code of 2/4/6/9/12 digits. */
export function regionParam(v: unknown): string | undefined {
  const s = typeof v === 'string' ? v.trim() : '';
  if (!s) return undefined;
  if (s === ROOT || (/^\d{2,12}$/.test(s) && CODE_LENGTHS.has(s.length))) return s;
  throw badRequest(texts.badRegion, [{ field: 'regionCode', message: texts.badRegion }]);
}

/** A `deviceType` parameter: a level-1 code of the device dictionary (docs/devices.md), or none for every type. */
export function deviceTypeParam(v: unknown): string | undefined {
  const s = typeof v === 'string' ? v.trim() : '';
  if (!s) return undefined;
  if (/^[0-9A-Za-z_-]{1,16}$/.test(s)) return s;
  throw badRequest(texts.badDeviceType, [{ field: 'deviceType', message: texts.badDeviceType }]);
}

/** The calendar day of `at` in `timeZone`, as YYYY-MM-DD. */
export function dayIn(timeZone: string, at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** `days` days before (negative: after) a YYYY-MM-DD day. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A `date` parameter: a real calendar day before today (in the server's time zone). */
export function pastDayParam(v: unknown, today: string): string | undefined {
  const s = typeof v === 'string' ? v.trim() : '';
  if (!s) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  const at = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  const valid = at && !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === s && Number(m![1]) >= 2000;
  if (!valid) throw badRequest(texts.badDate, [{ field: 'date', message: texts.badDate }]);
  if (s >= today) throw badRequest(texts.pastDay, [{ field: 'date', message: texts.pastDay }]);
  return s;
}

type Row = Record<string, unknown>;
const rowsOf = (r: unknown): Row[] => ((r as { rows?: Row[] }).rows ?? (r as Row[])) as Row[];
const num = (v: unknown) => Number(v ?? 0);

export type Region = {
  code: string;
  name: string;
  /** Names from the province down to it (the region itself only). */ path?: string;
};

/**
 * A live region of the region table and its children in the table's order, in one query (the root is always there;
 * its children are the provinces); a region without children has itself as its only child. Undefined when the
 * region does not exist.
 */
export async function regionWithChildren(
  tx: Db,
  code: string,
): Promise<{ region: Region; children: Region[] } | undefined> {
  const rows = rowsOf(
    await tx.execute(sql`select code, name,
        concat_ws(' ', province_name, city_name, district_name, town_name, village_name) as path
      from region where is_deleted = 0 and (code = ${code} or parent_code = ${code})
      order by (code = ${code}) desc, sort, code`),
  );
  const plain = (r: Row): Region => ({ code: String(r.code), name: String(r.name) });
  if (code === ROOT) return { region: { code: ROOT, name: '', path: '' }, children: rows.map(plain) };
  if (rows[0]?.code !== code) return undefined;
  const [first, ...rest] = rows;
  const region = { ...plain(first), path: String(first.path || first.name) };
  return { region, children: rest.length ? rest.map(plain) : [plain(first)] };
}

/**
 * The region the caller's view opens on. A region admin: their region. The tenant (and a client account): the
 * deepest province or city holding every district where it has devices (the root when they span provinces or there
 * are none) — so a city's operator opens on its districts.
 */
export async function topRegionOf(tx: Db, tenantId: string, scope: StatScope): Promise<string> {
  if (scope.kind === 'region') return scope.prefix;
  if (scope.kind === 'none') return ROOT;
  // The common prefix of every district is the common prefix of the smallest and the largest (one row back).
  const [r] = rowsOf(
    scope.kind === 'all'
      ? await tx.execute(sql`select min(district) as lo, max(district) as hi from stat_device_counter
          where tenant_id = ${tenantId} and total > 0 and district <> ''`)
      : await tx.execute(sql`select min(left(region_code, 6)) as lo, max(left(region_code, 6)) as hi
          from camera_device where tenant_id = ${tenantId} and client_id = ${scope.clientId} and is_deleted = 0`),
  );
  if (!r?.lo || !r?.hi) return ROOT;
  const lo = String(r.lo);
  const hi = String(r.hi);
  let common = '';
  while (common.length < lo.length && lo[common.length] === hi[common.length]) common += lo[common.length];
  const depth = common.length >= 4 ? 4 : common.length >= 2 ? 2 : 0;
  return common.slice(0, depth) || ROOT;
}

/**
 * The region the call is about and its children: the one named (it must exist and lie in the caller's region: else
 * 404, as a record outside one's data scope is), or the caller's top region (the root if that one is gone).
 */
export async function resolveRegion(tx: Db, tenantId: string, scope: StatScope, given: string | undefined) {
  const code = given ?? (await topRegionOf(tx, tenantId, scope));
  const found = (await regionWithChildren(tx, code)) ?? (given ? undefined : await regionWithChildren(tx, ROOT));
  const at = found?.region.code ?? code;
  const inScope = scope.kind !== 'region' || (at !== ROOT && at.startsWith(scope.prefix));
  if (!found || !inScope) throw new AppError(404, texts.regionNotFound);
  return found;
}

type Counts = Map<string, { total: number; online: number }>;
const toCounts = (rows: Row[]): Counts =>
  new Map(rows.map((r) => [String(r.k), { total: num(r.total), online: num(r.online) }]));

/**
 * Devices per child region (children codes all `len` long) under `region`, within the scope: from the counters (or
 * the rollup of `day`) down to districts; below a district, and for a client account, a direct aggregate over the
 * region / client index (docs/devices.md "Statistics").
 */
export async function deviceCounts(
  tx: Db,
  tenantId: string,
  scope: StatScope,
  region: string,
  len: number,
  deviceType: string | undefined,
  day?: string,
): Promise<Counts> {
  if (scope.kind === 'none') return new Map();
  const prefix = region === ROOT ? '' : region;
  const type = deviceType ? sql` and device_type = ${deviceType}` : sql``;
  if (day) {
    if (scope.kind === 'client')
      throw badRequest(texts.clientNoHistory, [{ field: 'date', message: texts.clientNoHistory }]);
    if (len > DISTRICT) throw badRequest(texts.dayTooDeep, [{ field: 'date', message: texts.dayTooDeep }]);
    return toCounts(
      rowsOf(
        await tx.execute(sql`select district as k, sum(total) as total, sum(online) as online
          from stat_device_daily where tenant_id = ${tenantId} and day = ${day} and length(district) = ${len}
            and starts_with(district, ${prefix})${type}
          group by 1`),
      ),
    );
  }
  if (scope.kind === 'client')
    return toCounts(
      rowsOf(
        await tx.execute(sql`select left(region_code, ${len}) as k, count(*) as total,
          count(*) filter (where status = 1) as online
          from camera_device where tenant_id = ${tenantId} and client_id = ${scope.clientId} and is_deleted = 0
            and starts_with(region_code, ${prefix})${type}
          group by 1`),
      ),
    );
  if (len <= DISTRICT)
    return toCounts(
      rowsOf(
        await tx.execute(sql`select left(district, ${len}) as k, sum(total) as total, sum(online) as online
          from stat_device_counter where tenant_id = ${tenantId} and starts_with(district, ${prefix})${type}
          group by 1`),
      ),
    );
  return toCounts(
    rowsOf(
      await tx.execute(sql`select left(region_code, ${len}) as k, count(*) as total,
        count(*) filter (where status = 1) as online
        from camera_device where tenant_id = ${tenantId} and is_deleted = 0 and starts_with(region_code, ${prefix})${type}
        group by 1`),
    ),
  );
}

/** NVR channels per child region, like `deviceCounts` (counters down to districts, else a direct aggregate). */
export async function channelCounts(
  tx: Db,
  tenantId: string,
  scope: StatScope,
  region: string,
  len: number,
): Promise<Counts> {
  if (scope.kind === 'none') return new Map();
  const prefix = region === ROOT ? '' : region;
  if (scope.kind === 'client')
    return toCounts(
      rowsOf(
        await tx.execute(sql`select left(region_code, ${len}) as k, count(*) as total, 0 as online
          from nvr_channel where tenant_id = ${tenantId} and client_id = ${scope.clientId} and is_deleted = 0
            and starts_with(region_code, ${prefix})
          group by 1`),
      ),
    );
  if (len <= DISTRICT)
    return toCounts(
      rowsOf(
        await tx.execute(sql`select left(district, ${len}) as k, sum(total) as total, 0 as online
          from stat_channel_counter where tenant_id = ${tenantId} and district <> '' and starts_with(district, ${prefix})
          group by 1`),
      ),
    );
  return toCounts(
    rowsOf(
      await tx.execute(sql`select left(region_code, ${len}) as k, count(*) as total, 0 as online
        from nvr_channel where tenant_id = ${tenantId} and is_deleted = 0 and starts_with(region_code, ${prefix})
        group by 1`),
    ),
  );
}

export type StatRow = {
  regionCode: string;
  regionName: string;
  total: number;
  online: number;
  offline: number;
  /** Percent online, two decimals (0 when the region has no device). */
  onlineRate: number;
};

export const rateOf = (online: number, total: number) => (total ? Math.round((online / total) * 10000) / 100 : 0);

export function statRow(region: Region, c: { total: number; online: number } | undefined): StatRow {
  const total = c?.total ?? 0;
  const online = c?.online ?? 0;
  return {
    regionCode: region.code,
    regionName: region.name,
    total,
    online,
    offline: total - online,
    onlineRate: rateOf(online, total),
  };
}

/** The sums of rows (the pie of the screen, the dashboard's totals). */
export function summaryOf(rows: StatRow[]) {
  const total = rows.reduce((a, r) => a + r.total, 0);
  const online = rows.reduce((a, r) => a + r.online, 0);
  return { total, online, offline: total - online, onlineRate: rateOf(online, total) };
}

const SORTS = ['regionCode', 'regionName', 'total', 'online', 'offline', 'onlineRate'] as const;
type SortKey = (typeof SORTS)[number];

/** `current`, `size`, `ascs`, `descs` of a statistics page; any other name than `allowed` is a 400. */
export function pageParams(query: Record<string, unknown>, allowed: string[]) {
  const str = (v: unknown) => (Array.isArray(v) ? String(v[0] ?? '') : v == null ? '' : String(v));
  for (const key of Object.keys(query))
    if (!['current', 'size', 'ascs', 'descs', ...allowed].includes(key))
      throw badRequest(msg('unknownFilter', { name: key }), [{ field: key, message: 'unknown filter' }]);
  const int = (name: string, dflt: number) => {
    const s = str(query[name]).trim();
    if (s === '') return dflt;
    if (!/^\d{1,9}$/.test(s) || Number(s) < 1)
      throw badRequest(msg('positiveInt', { name }), [{ field: name, message: 'positive integer' }]);
    return Number(s);
  };
  const sorts: { key: SortKey; dir: 1 | -1 }[] = [];
  for (const [param, dir] of [
    ['ascs', 1],
    ['descs', -1],
  ] as const)
    for (const name of str(query[param])
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)) {
      if (!(SORTS as readonly string[]).includes(name))
        throw badRequest(msg('unknownSort', { name }), [{ field: param, message: 'unknown sort' }]);
      sorts.push({ key: name as SortKey, dir });
    }
  return { current: int('current', 1), size: Math.min(int('size', 10), MAX_PAGE_SIZE), sorts };
}

/** Sorts rows by the named keys (stable: the region table's order breaks ties). */
export function sortRows(rows: StatRow[], sorts: { key: SortKey; dir: 1 | -1 }[]): StatRow[] {
  if (!sorts.length) return rows;
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => {
      for (const { key, dir } of sorts) {
        const x = a.r[key];
        const y = b.r[key];
        if (x < y) return -dir;
        if (x > y) return dir;
      }
      return a.i - b.i;
    })
    .map((x) => x.r);
}
