/** XML helpers of the diagram components (docs/workflow.md "Diagram components"); no bpmn-js here. */

/** Escapes a text for an XML attribute or element. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** A process id from a key: an XML name (letters, digits, `_`, `-`, `.`) not starting with a digit. */
export function processIdOf(key: string): string {
  const id = key.trim().replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(id) ? id : `Process_${id}`;
}

/**
 * The diagram a new model starts from: one executable process holding a start event, with its shape, in the
 * namespaces the modeler writes (BPMN 2.0, DI, and Camunda's for assignees, candidate groups and form keys).
 */
export function minimalProcess(opts: { key?: string; name?: string; startName?: string } = {}): string {
  const id = processIdOf(opts.key || 'Process_1');
  const name = opts.name ? ` name="${escapeXml(opts.name)}"` : '';
  const startName = opts.startName ? ` name="${escapeXml(opts.startName)}"` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="Definitions_${id}" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="${id}"${name} isExecutable="true">
    <bpmn:startEvent id="StartEvent_1"${startName} />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="BPMNDiagram_1">
    <bpmndi:BPMNPlane id="BPMNPlane_1" bpmnElement="${id}">
      <bpmndi:BPMNShape id="StartEvent_1_di" bpmnElement="StartEvent_1">
        <dc:Bounds x="180" y="160" width="36" height="36" />
      </bpmndi:BPMNShape>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
`;
}

/** True when a text is blank, so the modeler starts from `minimalProcess()`. */
export function isBlankXml(xml: string | null | undefined): boolean {
  return !xml || !xml.trim();
}

/** An expression as the panel stores it: trimmed, and wrapped in `${…}` when typed bare (`pass` → `${pass}`). */
export function asExpression(value: string | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  return /^[$#]\{[\s\S]*\}$/.test(v) ? v : `\${${v}}`;
}

/** Candidate groups as stored (`a, b ,,c` → `a,b,c`); undefined when none. */
export function groupList(value: string | undefined): string | undefined {
  const list = (value ?? '')
    .split(/[,，\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length ? [...new Set(list)].join(',') : undefined;
}

/**
 * A translate function for bpmn-js (its `translate` service): the text from `table` when listed, else the text
 * itself, with `{name}` placeholders filled from `replacements`.
 */
export function makeTranslate(table: Record<string, string> | undefined) {
  return (template: string, replacements?: Record<string, string>): string => {
    const text = table?.[template] ?? template;
    if (!replacements) return text;
    return text.replace(/{([^}]+)}/g, (whole, key: string) =>
      Object.prototype.hasOwnProperty.call(replacements, key) ? String(replacements[key]) : whole,
    );
  };
}
