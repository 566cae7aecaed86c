import type { EChartsCoreOption } from 'echarts/core';
import type { RankRow, StatSummary, TrendPoint } from './api';

/** The chart options of the statistics screens and the home dashboard (plain data: no ECharts code here). */

const ONLINE = '#52c41a';
const OFFLINE = '#bfbfbf';

export const pieOption = (s: StatSummary, labels: { online: string; offline: string }): EChartsCoreOption => ({
  tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
  legend: { bottom: 0 },
  series: [
    {
      type: 'pie',
      radius: ['45%', '70%'],
      label: { formatter: '{b}\n{d}%' },
      data: [
        // A slice of 0 has no label (it would sit on the other's).
        { name: labels.online, value: s.online, itemStyle: { color: ONLINE }, label: { show: s.online > 0 } },
        { name: labels.offline, value: s.offline, itemStyle: { color: OFFLINE }, label: { show: s.offline > 0 } },
      ],
    },
  ],
});

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
