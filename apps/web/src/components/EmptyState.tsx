import type { CSSProperties, ReactNode } from 'react';
import { Empty } from 'antd';

/**
 * The console's one empty state (docs/web.md "Empty states"): antd's simple picture and a line saying what is missing
 * (antd's own "no data" when none is given). Tables, lists and pickers show it too (App.tsx `renderEmpty`).
 */
export default function EmptyState({ description, style }: { description?: ReactNode; style?: CSSProperties }) {
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description} style={style} />;
}
