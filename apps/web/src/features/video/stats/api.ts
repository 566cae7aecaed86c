import { statistics } from '@atrium/contract';
import { call } from '../../../api/call';

/** The statistics calls (docs/devices.md "Statistics"). */
export type StatRow = {
  regionCode: string;
  regionName: string;
  total: number;
  online: number;
  offline: number;
  /** Percent, two decimals. */
  onlineRate: number;
};
export type StatSummary = { total: number; online: number; offline: number; onlineRate: number };
export type StatPage = {
  records: StatRow[];
  total: number;
  size: number;
  current: number;
  pages: number;
  regionCode: string;
  regionName: string;
  /** The region's names from the province down (the first crumb when the view opens below the provinces). */
  regionPath?: string;
  date: string | null;
  summary: StatSummary;
};
export type TrendPoint = { day: string; total: number | null; online: number | null; onlineRate: number | null };
export type Trend = { regionCode: string; regionName: string; days: TrendPoint[] };
export type RankRow = { rank: number; regionCode: string; regionName: string; total: number };

export type PageParams = {
  regionCode?: string;
  date?: string;
  deviceType?: string;
  current?: number;
  size?: number;
  ascs?: string;
  descs?: string;
};

const clean = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;

export const statsApi = {
  page: (p: PageParams): Promise<StatPage> => call(statistics.onlinePage, { query: clean(p) }),
  trend: (p: { regionCode?: string; deviceType?: string; days?: number }): Promise<Trend> =>
    call(statistics.onlineTrend, { query: clean(p) }),
  deviceRanking: (p: { deviceType?: string; regionCode?: string }): Promise<RankRow[]> =>
    call(statistics.deviceRanking, { query: clean(p) }),
  channelRanking: (p: { regionCode?: string }): Promise<RankRow[]> =>
    call(statistics.channelRanking, { query: clean(p) }),
};

/** Device types of GB/T 28181 the pickers offer (the level-1 codes seeded in every tenant's device dictionary). */
export const DEVICE_TYPES = ['131', '132', '118'] as const;
