/** The part of bpmn-moddle (no types of its own) the engine uses: reading a model's XML (definitions.ts). */
declare module 'bpmn-moddle' {
  export default class BpmnModdle {
    constructor(packages?: Record<string, object>);
    fromXML(xml: string): Promise<{ rootElement: object; warnings: unknown[]; elementsById: Record<string, object> }>;
  }
}
