import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import './flow.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
import type { FlowViewerProps } from '../types';
import { fitDiagram } from './fit';

/* eslint-disable @typescript-eslint/no-explicit-any -- bpmn-js services are untyped */

export const DONE = 'atrium-flow-done';
export const CURRENT = 'atrium-flow-current';

/** Sets the done and current markers on the viewer's elements, dropping earlier ones; unknown ids are skipped. */
export function mark(viewer: { get(name: string): any }, done: readonly string[], current: readonly string[]) {
  const canvas = viewer.get('canvas');
  const registry = viewer.get('elementRegistry');
  for (const element of registry.getAll()) {
    canvas.removeMarker(element, DONE);
    canvas.removeMarker(element, CURRENT);
  }
  for (const id of done) if (registry.get(id) && !current.includes(id)) canvas.addMarker(id, DONE);
  for (const id of current) if (registry.get(id)) canvas.addMarker(id, CURRENT);
}

/** The read-only diagram (docs/workflow.md "Diagram components"), fitted to its container, with a legend. */
export default function FlowViewer({ xml, doneIds = [], currentIds = [], height = 400 }: FlowViewerProps) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<NavigatedViewer | null>(null);
  const [loaded, setLoaded] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const doneKey = doneIds.join('\n');
  const currentKey = currentIds.join('\n');

  useEffect(() => {
    const viewer = new NavigatedViewer({ container: box.current! });
    viewerRef.current = viewer;
    const fit = () => fitDiagram(viewer.get('canvas') as any);
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        try {
          fit();
        } catch {
          // not imported yet
        }
      });
    });
    observer.observe(box.current!);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      viewerRef.current = null;
      viewer.destroy();
    };
  }, []);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !xml?.trim()) return;
    let live = true;
    viewer
      .importXML(xml)
      .then(() => {
        if (!live) return;
        setError(null);
        fitDiagram(viewer.get('canvas') as any);
        setLoaded((n) => n + 1);
      })
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [xml]);

  useEffect(() => {
    const viewer = viewerRef.current;
    if (!viewer || !loaded) return;
    mark(viewer, doneKey ? doneKey.split('\n') : [], currentKey ? currentKey.split('\n') : []);
  }, [loaded, doneKey, currentKey]);

  return (
    <div className="atrium-flow-viewer" style={{ height }}>
      {error && (
        <div role="alert" className="atrium-flow-error">
          <strong>{t('flowDiagram.importFailed')}</strong> {error}
        </div>
      )}
      <div className="atrium-flow-viewer-canvas" ref={box} />
      <div className="atrium-flow-legend">
        <span className="atrium-flow-legend-done">{t('flowDiagram.legendDone')}</span>
        <span className="atrium-flow-legend-current">{t('flowDiagram.legendCurrent')}</span>
      </div>
    </div>
  );
}
