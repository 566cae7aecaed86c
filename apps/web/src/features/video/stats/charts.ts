import type { EChartsCoreOption } from 'echarts/core';
import type { RankRow, StatSummary, TrendPoint } from './api';

/** The chart options of the statistics screens and the home dashboard (plain data: no ECharts code here). */

const ONLINE = '#52c41a';
const OFFLINE = '#bfbfbf';

/**
 * The online / offline donut. Nothing is drawn outside the ring (an outside label of a 100 % slice hung over the
 * legend): the online rate stands in the hole, as the label of the first non-empty slice, and the legend below names
 * the slices with their counts. The ring leaves the legend's strip free at any width (docs/devices.md "Statistics").
 */
export const pieOption = (s: StatSummary, labels: { online: string; offline: string }): EChartsCoreOption => {
  const centre = s.online > 0 ? 'online' : 'offline';
  const count: Record<string, number> = { [labels.online]: s.online, [labels.offline]: s.offline };
  const slice = (key: 'online' | 'offline', value: number, color: string) => ({
    name: labels[key],
    value,
    itemStyle: { color },
    label: { show: key === centre },
  });
  return {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { bottom: 0, formatter: (name: string) => `${name} ${count[name] ?? ''}` },
    series: [
      {
        type: 'pie',
        center: ['50%', '45%'],
        radius: ['48%', '72%'],
        avoidLabelOverlap: false,
        label: {
          position: 'center',
          formatter: `${labels.online}\n${s.onlineRate}%`,
          fontSize: 14,
          lineHeight: 20,
        },
        labelLine: { show: false },
        emphasis: { scaleSize: 4 },
        data: [slice('online', s.online, ONLINE), slice('offline', s.offline, OFFLINE)],
      },
    ],
  };
};

export const lineOption = (days: TrendPoint[], name: string): EChartsCoreOption => ({
  tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (v == null ? '—' : `${v}%`) },
  grid: { left: 48, right: 16, top: 24, bottom: 32 },
  xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
  yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
  series: [{ name, type: 'line', smooth: true, connectNulls: true, data: days.map((d) => d.onlineRate) }],
});

/** Horizontal bars of the regions that have any, most first at the top (at most 20). */
export const barOption = (rows: RankRow[], name: string, color = '#409EFF'): EChartsCoreOption => {
  const shown = rows
    .filter((r) => r.total > 0)
    .slice(0, 20)
    .reverse();
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 96, right: 24, top: 8, bottom: 24 },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: shown.map((r) => r.regionName || r.regionCode) },
    series: [{ name, type: 'bar', data: shown.map((r) => r.total), itemStyle: { color } }],
  };
};
