/**
 * The workflow diagram components (docs/workflow.md "Diagram components"). bpmn-js is never imported statically from
 * here: the components load it as lazy chunks (`lazy.tsx`), so a screen importing this entry stays small until a
 * diagram is drawn.
 */
export { FlowModeler, FlowViewer } from './lazy';
export type { FlowModelerProps, FlowViewerProps } from './types';
export { asExpression, escapeXml, groupList, isBlankXml, minimalProcess, processIdOf } from './xml';
