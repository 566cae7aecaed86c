import { createRequire } from 'node:module';
import { fill, type Msg } from '@atrium/contract';
import BpmnModdle, { type ModdleElement, type ModdleWarning } from 'bpmn-moddle';
import { parseTexts as texts } from './messages.ts';

/**
 * Reading a BPMN 2.0 file before anything looks at its content (docs/workflow.md "Checks at save and deploy"): a size
 * limit, no DOCTYPE / ENTITY (so no entity expansion can ever happen), UTF-8 XML whose root is BPMN's
 * `definitions`, parsed by bpmn-moddle with the camunda extensions; a parser warning that means broken XML or an
 * unreadable part is a problem, not a warning.
 */

/** Largest BPMN file accepted, in bytes (1 MiB, docs/workflow.md "Checks at save and deploy"). */
export const MAX_BPMN_BYTES = 1024 * 1024;

/** The BPMN 2.0 model namespace the root element must be in. */
export const BPMN_NAMESPACE = 'http://www.omg.org/spec/BPMN/20100524/MODEL';

export type BpmnProblem = { elementId: string | null; message: Msg };
export type ParsedBpmn = { ok: true; definitions: ModdleElement } | { ok: false; problems: BpmnProblem[] };
export type { ModdleElement };

const camunda = createRequire(import.meta.url)('camunda-bpmn-moddle/resources/camunda.json') as Record<string, unknown>;

const problem = (message: Msg, elementId: string | null = null): ParsedBpmn => ({
  ok: false,
  problems: [{ elementId, message }],
});

/** Any markup declaration (`<!DOCTYPE`, `<!ENTITY`, `<!ELEMENT`, …); comments and CDATA are the only `<!` allowed. */
const DECLARATION = /<!(?!--|\[CDATA\[)/;

/** Text → the root element's qualified name and its namespace, skipping the prolog (declaration, PIs, comments). */
function rootOf(xml: string): { name: string; namespace: string | null } | null {
  const prolog = /^\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*)*/.exec(xml)![0];
  const m = /^<([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)([^>]*)>?/.exec(xml.slice(prolog.length));
  if (!m) return null;
  const name = m[1]!;
  const prefix = name.includes(':') ? name.split(':')[0] : null;
  const attribute = prefix ? `xmlns:${prefix.replace(/[.-]/g, '\\$&')}` : 'xmlns';
  const ns = new RegExp(`\\s${attribute}\\s*=\\s*["']([^"']*)["']`).exec(m[2] ?? '');
  return { name, namespace: ns ? ns[1]! : null };
}

/** A parser position as 1-based numbers (bpmn-moddle counts lines and columns from 0). */
function position(message: string) {
  const line = /line:\s*(\d+)/.exec(message);
  const column = /column:\s*(\d+)/.exec(message);
  return { line: line ? Number(line[1]) + 1 : 1, column: column ? Number(column[1]) + 1 : 1 };
}

/** The parser's own words, on one line (the element and the nested error it names). */
function detail(message: string) {
  const first = message.split('\n')[0]!.trim();
  const nested = /nested error:\s*(.*)/.exec(message);
  return nested && nested[1] ? `${first}: ${nested[1].trim()}` : first;
}

/** Whether a parser warning leaves the model usable: only an unknown attribute (kept in `$attrs`, checked later). */
const harmless = (w: ModdleWarning) => /^unknown attribute </.test(w.message);

function warningProblem(w: ModdleWarning): BpmnProblem {
  const id = typeof w.element?.id === 'string' ? w.element.id : null;
  const message = /unparsable content/.test(w.message)
    ? fill(texts.unreadable, { line: position(w.message).line, detail: detail(w.message) })
    : fill(texts.broken, { detail: detail(w.message) });
  return { elementId: id, message };
}

/** Bytes or text → a UTF-8 string without a BOM, or the problem. */
function decode(input: string | Uint8Array): string | ParsedBpmn {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (size > MAX_BPMN_BYTES) return problem(fill(texts.tooLarge, { size, max: MAX_BPMN_BYTES }));
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      return problem(texts.notUtf8);
    }
  }
  text = text.replace(/^\uFEFF/, '');
  if (text.trim() === '') return problem(texts.empty);
  return text;
}

/** Reads a BPMN file (text or the uploaded bytes); see the module comment for what is refused. */
export async function parseBpmn(input: string | Uint8Array): Promise<ParsedBpmn> {
  const text = decode(input);
  if (typeof text !== 'string') return text;
  if (DECLARATION.test(text)) return problem(texts.doctype);
  if (!text.trimStart().startsWith('<')) return problem(texts.notXml);
  const root = rootOf(text);
  if (!root) return problem(texts.notXml);
  const local = root.name.includes(':') ? root.name.split(':')[1] : root.name;
  if (local !== 'definitions' || root.namespace !== BPMN_NAMESPACE)
    return problem(fill(texts.notBpmn, { root: root.name }));
  let parsed;
  try {
    parsed = await new BpmnModdle({ camunda }).fromXML(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return problem(fill(texts.malformed, { ...position(message), detail: detail(message) }));
  }
  const problems = parsed.warnings.filter((w) => !harmless(w)).map(warningProblem);
  if (problems.length > 0) return { ok: false, problems };
  if (parsed.rootElement?.$type !== 'bpmn:Definitions') return problem(fill(texts.notBpmn, { root: root.name }));
  return { ok: true, definitions: parsed.rootElement };
}
