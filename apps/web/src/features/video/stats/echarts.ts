// ECharts with only what the statistics screens draw (docs/devices.md "Statistics"): this module is imported
// dynamically by StatsChart, so the library lands in a chunk of its own, loaded by the first chart on screen.
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export { echarts };
