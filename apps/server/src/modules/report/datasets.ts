import { sql, type SQL } from 'drizzle-orm';
import type { Msg } from '@atrium/contract';
import { approval } from '@atrium/contract/resources/customer/approval';
import { clientinfo } from '@atrium/contract/resources/customer/clientinfo';
import { cameradevice } from '@atrium/contract/resources/device/cameradevice';
import { nvrchannelinfo } from '@atrium/contract/resources/device/nvrchannelinfo';
import type { ReportDataset } from '@atrium/contract/resources/report/report_list';
import { approvalTable } from '../approval/index.ts';
import { clientInfo } from '../client/index.ts';
import { cameraDevice, nvrChannel } from '../device/index.ts';
import { statDeviceDaily, type StatScope } from '../statistics/index.ts';

/**
 * The dataset catalogue's queries (docs/reports.md "Datasets"). Each dataset is one grouped (or plain) SELECT over
 * its module's table, written as parts so that a page (`order by … limit … offset`), a count, and the export's
 * batches (keyset: `(keys) > (last row's keys)` in the WHERE, before grouping) are built from the same parts. The
 * keys are group columns (or the rollup's primary key), so every batch of the 1,000,000-row export is an index range.
 */

/** What a run reads with: the tenant, the caller's data scope (as the dataset's table applies it) and parameters. */
export type DatasetInput = {
  tenantId: string;
  /** The caller's scope on the source resource's rows (a condition on its table; undefined = every row). */
  scope: SQL | undefined;
  /** The statistics scope (online rate by day reads the rollup, kept by region prefix). */
  statScope: StatScope;
  region: string | null;
  dateFrom: string | null;
  dateTo: string | null;
  deviceType: string | null;
  timeZone: string;
};

/**
 * A key column: its expression, and the type its text is cast back to in the keyset predicate. `as`: a selected
 * column whose text is already the key's (the export reads it there instead of selecting the key a second time).
 */
type Key = { expr: SQL; cast: 'text' | 'date' | 'int'; as?: string };

export type DatasetQuery = {
  /** The SELECT list: the dataset's raw values by name. */
  select: SQL;
  /** `from … where …` (the tenant, the live rows, the scope and the parameters). */
  from: SQL;
  where: SQL;
  groupBy?: SQL;
  keys: Key[];
};

/** A raw row → its values by column key, in the caller's language. */
export type Present = (row: Record<string, unknown>, lang: 'zh' | 'en') => Record<string, string | number | null>;

const rate = (online: number, total: number) => (total ? Math.round((online / total) * 10000) / 100 : 0);
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const labelOf = (options: readonly { value: string | number; label: Msg }[], v: unknown, lang: 'zh' | 'en') =>
  options.find((o) => String(o.value) === String(v))?.label[lang] ?? String(v ?? '');

/** `starts_with` on a region column when a region is named (index-friendly for varchar_pattern_ops). */
const regionIn = (column: SQL, region: string | null) => (region ? sql` and starts_with(${column}, ${region})` : sql``);
const scoped = (scope: SQL | undefined) => (scope ? sql` and (${scope})` : sql``);
/** An instant range covering the days [from, to] in the server's zone. */
const within = (column: SQL, i: DatasetInput) =>
  sql` and ${column} >= (${i.dateFrom}::date)::timestamp at time zone ${i.timeZone}
    and ${column} < (${i.dateTo}::date + 1)::timestamp at time zone ${i.timeZone}`;

function deviceRegion(i: DatasetInput): DatasetQuery {
  const d = cameraDevice;
  return {
    select: sql`${d.regionCode} as "regionCode", ${d.deviceType} as "deviceType", count(*)::int as total,
      (count(*) filter (where ${d.status} = 1))::int as online`,
    from: sql`${d}`,
    where: sql`${d.tenantId} = ${i.tenantId} and ${d.isDeleted} = 0${scoped(i.scope)}${regionIn(sql`${d.regionCode}`, i.region)}${
      i.deviceType ? sql` and ${d.deviceType} = ${i.deviceType}` : sql``
    }`,
    groupBy: sql`${d.regionCode}, ${d.deviceType}`,
    keys: [
      { expr: sql`${d.regionCode}`, cast: 'text' },
      { expr: sql`${d.deviceType}`, cast: 'text' },
    ],
  };
}

/**
 * The daily rollup's district rows (6 digits) of the days asked. It is kept by region prefix down to districts, so
 * a caller seeing a region below a district (or one client's devices) has no rows here: docs/reports.md.
 */
function onlineDay(i: DatasetInput): DatasetQuery {
  const t = statDeviceDaily;
  const sc = i.statScope;
  const visible =
    sc.kind === 'all'
      ? sql``
      : sc.kind === 'region' && sc.prefix.length <= 6
        ? sql` and starts_with(${t.district}, ${sc.prefix})`
        : sql` and false`;
  const region = i.region ? (i.region.length <= 6 ? regionIn(sql`${t.district}`, i.region) : sql` and false`) : sql``;
  return {
    select: sql`to_char(${t.day}, 'YYYY-MM-DD') as day, ${t.district} as "regionCode", ${t.deviceType} as "deviceType",
      ${t.total} as total, ${t.online} as online`,
    from: sql`${t}`,
    where: sql`${t.tenantId} = ${i.tenantId} and ${t.day} between ${i.dateFrom}::date and ${i.dateTo}::date
      and length(${t.district}) = 6${visible}${region}${i.deviceType ? sql` and ${t.deviceType} = ${i.deviceType}` : sql``}`,
    // to_char(day, 'YYYY-MM-DD') is the date's text: the keys are read from the selected columns.
    keys: [
      { expr: sql`${t.day}`, cast: 'date', as: 'day' },
      { expr: sql`${t.district}`, cast: 'text', as: 'regionCode' },
      { expr: sql`${t.deviceType}`, cast: 'text', as: 'deviceType' },
    ],
  };
}

function clientStatusMonth(i: DatasetInput): DatasetQuery {
  const c = clientInfo;
  // The zone as a literal (it is the server's setting, quoted): a parameter would differ between the SELECT list and
  // the GROUP BY ($1 vs $5), and PostgreSQL would not see them as one expression.
  const zone = sql.raw(`'${i.timeZone.replace(/'/g, "''")}'`);
  const month = sql`to_char(${c.createTime} at time zone ${zone}, 'YYYY-MM')`;
  return {
    select: sql`${month} as month, ${c.status} as status, count(*)::int as count`,
    from: sql`${c}`,
    where: sql`${c.tenantId} = ${i.tenantId} and ${c.isDeleted} = 0${scoped(i.scope)}${within(sql`${c.createTime}`, i)}${regionIn(
      sql`${c.regionCode}`,
      i.region,
    )}`,
    groupBy: sql`${month}, ${c.status}`,
    keys: [
      { expr: month, cast: 'text' },
      { expr: sql`${c.status}`, cast: 'int' },
    ],
  };
}

function approvalResult(i: DatasetInput): DatasetQuery {
  const a = approvalTable;
  return {
    select: sql`${a.referType} as "referType", ${a.status} as status, count(*)::int as count`,
    from: sql`${a}`,
    where: sql`${a.tenantId} = ${i.tenantId} and ${a.isDeleted} = 0${scoped(i.scope)}${within(sql`${a.submitTime}`, i)}${regionIn(
      sql`${a.regionCode}`,
      i.region,
    )}`,
    groupBy: sql`${a.referType}, ${a.status}`,
    keys: [
      { expr: sql`${a.referType}`, cast: 'text' },
      { expr: sql`${a.status}`, cast: 'int' },
    ],
  };
}

function channelRegion(i: DatasetInput): DatasetQuery {
  const n = nvrChannel;
  const code = sql`coalesce(${n.regionCode}, '')`;
  return {
    select: sql`${code} as "regionCode", count(*)::int as total`,
    from: sql`${n}`,
    where: sql`${n.tenantId} = ${i.tenantId} and ${n.isDeleted} = 0${scoped(i.scope)}${regionIn(sql`${n.regionCode}`, i.region)}`,
    groupBy: code,
    keys: [{ expr: code, cast: 'text' }],
  };
}

/** Each dataset: the resource whose data scope its rows follow, its query and how a row is shown. */
export const DATASETS: Record<
  ReportDataset,
  { scopeCode: string | null; query: (i: DatasetInput) => DatasetQuery; present: Present }
> = {
  device_region: {
    scopeCode: cameradevice.code,
    query: deviceRegion,
    present: (r) => ({
      regionCode: String(r.regionCode ?? ''),
      deviceType: String(r.deviceType ?? ''),
      total: num(r.total),
      online: num(r.online),
      onlineRate: rate(num(r.online), num(r.total)),
    }),
  },
  online_day: {
    scopeCode: null,
    query: onlineDay,
    present: (r) => ({
      day: String(r.day ?? ''),
      regionCode: String(r.regionCode ?? ''),
      deviceType: String(r.deviceType ?? ''),
      total: num(r.total),
      online: num(r.online),
      onlineRate: rate(num(r.online), num(r.total)),
    }),
  },
  client_status_month: {
    scopeCode: clientinfo.code,
    query: clientStatusMonth,
    present: (r, lang) => ({
      month: String(r.month ?? ''),
      status: labelOf(clientinfo.fields.status.options, r.status, lang),
      count: num(r.count),
    }),
  },
  approval_result: {
    scopeCode: approval.code,
    query: approvalResult,
    present: (r, lang) => ({
      referType: labelOf(approval.fields.referType.options, r.referType, lang),
      status: labelOf(approval.fields.status.options, r.status, lang),
      count: num(r.count),
    }),
  },
  channel_region: {
    scopeCode: nvrchannelinfo.code,
    query: channelRegion,
    present: (r) => ({ regionCode: String(r.regionCode ?? ''), total: num(r.total) }),
  },
};
