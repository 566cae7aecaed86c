import { Suspense } from 'react';
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import i18n from '../../i18n';
import { lazyPage } from '../../app/lazy';
import { flowDiagramTexts } from './messages';
import type { FlowModelerProps, FlowViewerProps } from './types';

i18n.addResourceBundle('zh', 'translation', { flowDiagram: flowDiagramTexts.zh }, true, false);
i18n.addResourceBundle('en', 'translation', { flowDiagram: flowDiagramTexts.en }, true, false);

// bpmn-js and its CSS are loaded here only, on first use (docs/web.md "Bundle budget").
const LazyModeler = lazyPage(() => import('./bpmn/FlowModeler'));
const LazyViewer = lazyPage(() => import('./bpmn/FlowViewer'));

function Loading({ height }: { height: number | string }) {
  const { t } = useTranslation();
  return (
    <div className="atrium-flow-loading" style={{ height, display: 'grid', placeItems: 'center' }}>
      <Spin description={t('flowDiagram.loading')}>
        <div style={{ width: 160, height: 48 }} />
      </Spin>
    </div>
  );
}

/**
 * The BPMN modeler with Atrium's properties panel; a lazy chunk. Read-only it is the viewer's chunk alone (the
 * modeler's would cost ≈ 300 kB more on the wire, docs/web.md "Bundle budget").
 */
export function FlowModeler(props: FlowModelerProps) {
  if (props.readOnly) return <FlowViewer xml={props.xml ?? ''} height={props.height} />;
  return (
    <Suspense fallback={<Loading height={props.height ?? 600} />}>
      <LazyModeler {...props} />
    </Suspense>
  );
}

/** A read-only diagram with the done steps and the current ones marked; a lazy chunk. */
export function FlowViewer(props: FlowViewerProps) {
  return (
    <Suspense fallback={<Loading height={props.height ?? 400} />}>
      <LazyViewer {...props} />
    </Suspense>
  );
}
