/** The part of bpmn-moddle's API that flow/bpmn/parse.ts uses (the package ships no types). */
declare module 'bpmn-moddle' {
  export type ModdleElement = {
    $type: string;
    $attrs?: Record<string, string>;
    $children?: ModdleElement[];
    $body?: string;
    id?: string;
    [property: string]: unknown;
  };
  export type ModdleWarning = { message: string; element?: ModdleElement; property?: string; error?: Error };
  export type ParseResult = { rootElement: ModdleElement; warnings: ModdleWarning[] };
  export default class BpmnModdle {
    constructor(packages?: Record<string, unknown>, options?: Record<string, unknown>);
    fromXML(xml: string, typeName?: string): Promise<ParseResult>;
  }
}
