import { useEffect, useRef, useState } from 'react';
import { Spin } from 'antd';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';

/**
 * One chart. ECharts is loaded on first use (`import('./echarts')`): no screen without a chart, and not the
 * home page of a user without a statistics screen, pays for it.
 */
export default function StatsChart({ option, height = 300 }: { option: EChartsCoreOption; height?: number }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | undefined>(undefined);
  const latest = useRef(option);
  const [ready, setReady] = useState(false);
  latest.current = option;

  useEffect(() => {
    let gone = false;
    let observer: ResizeObserver | undefined;
    void import('./echarts').then(({ echarts }) => {
      if (gone || !el.current) return;
      chart.current = echarts.init(el.current);
      chart.current.setOption(latest.current);
      if (typeof ResizeObserver !== 'undefined') {
        observer = new ResizeObserver(() => chart.current?.resize());
        observer.observe(el.current);
      }
      setReady(true);
    });
    return () => {
      gone = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = undefined;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);

  return (
    <Spin spinning={!ready}>
      <div ref={el} style={{ height, width: '100%' }} />
    </Spin>
  );
}
