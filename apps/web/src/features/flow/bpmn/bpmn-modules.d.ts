/** Typings of the bpmn-io packages that ship none (used only inside the lazy diagram chunks). */
declare module 'bpmn-js-properties-panel' {
  export const BpmnPropertiesPanelModule: object;
  export const BpmnPropertiesProviderModule: object;
  export function useService<T = unknown>(name: string, strict?: boolean): T;
}
declare module '@bpmn-io/properties-panel' {
  export const Group: unknown;
  export function TextFieldEntry(props: Record<string, unknown>): unknown;
  export function isTextFieldEntryEdited(node: unknown): boolean;
}
declare module 'camunda-bpmn-js-behaviors/lib/camunda-platform' {
  const module: object;
  export default module;
}
declare module 'camunda-bpmn-moddle/resources/camunda.json' {
  const descriptor: object;
  export default descriptor;
}
declare module 'bpmn-moddle' {
  export class BpmnModdle {
    constructor(extensions?: Record<string, object>);
    fromXML(xml: string): Promise<{ rootElement: unknown; warnings: unknown[]; elementsById: Record<string, unknown> }>;
  }
}
