import { fill, type Msg } from '@atrium/contract';
import { badRequest, type AppError } from '../../../platform/errors.ts';
import { checkAttributeExpression, hasExpression } from './expression.ts';
import { problemTexts, validateTexts as texts } from './messages.ts';
import { parseBpmn, type BpmnProblem, type ModdleElement } from './parse.ts';

/**
 * The checks of a model's content at save and at deploy (docs/workflow.md "Checks at save and deploy"): no code of
 * the model may run on the server, every expression is in the safe subset (expression.ts), and there is something
 * to start. The whole tree is walked, camunda extensions and foreign (flowable, activiti) attributes and elements
 * included.
 */

export type UserTaskSummary = {
  id: string;
  name: string | null;
  assignee: string | null;
  candidateGroups: string[];
  formKey: string | null;
};
export type ProcessSummary = {
  key: string;
  name: string | null;
  startFormKey: string | null;
  userTasks: UserTaskSummary[];
  hasTimers: boolean;
};
export type ValidateResult = { ok: true; processes: ProcessSummary[] } | { ok: false; problems: BpmnProblem[] };

/** At most this many problems are reported for one file (the first ones in document order). */
export const MAX_PROBLEMS = 50;

/** Attributes that name code to run (a Java class, a method-calling expression, a bean). */
const IMPLEMENTATION = new Set(['class', 'expression', 'delegateExpression']);
/** Attributes that hold a script or its language. */
const SCRIPT_ATTRIBUTES = new Set(['scriptFormat', 'script']);
/** Elements whose text is prose, not an expression. */
const PROSE = new Set(['bpmn:Documentation', 'bpmn:TextAnnotation']);
/** Properties under which an expression element is a condition (it must be one `${…}`). */
const CONDITIONS = new Set(['conditionExpression', 'condition', 'completionCondition']);

const isElement = (v: unknown): v is ModdleElement =>
  typeof v === 'object' && v !== null && typeof (v as ModdleElement).$type === 'string';
const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1);

type Visit = { el: ModdleElement; owner: string | null; property: string };

/** The problems of one element itself (its type, its expression body, its attributes). */
function elementProblems({ el, property }: Visit): Msg[] {
  const out: Msg[] = [];
  const local = localName(el.$type).toLowerCase();
  if (el.$type === 'bpmn:ScriptTask') out.push(texts.scriptTask);
  else if (el.$type === 'bpmn:CallActivity') out.push(texts.callActivity);
  else if (local.endsWith('listener')) out.push(fill(texts.listener, { kind: el.$type }));
  else if (local === 'script') out.push(fill(texts.script, { kind: el.$type }));
  else if (local === 'connector') out.push(fill(texts.connector, { kind: el.$type }));
  if (el.$type === 'bpmn:FormalExpression' || el.$type === 'bpmn:Expression')
    out.push(...expressionProblems(el, property));
  // A refused script element is named once, not again for its script attributes.
  out.push(...attributeProblems(el, out.length > 0));
  return out;
}

/** An expression element (a condition, a timer, a loop cardinality): no language, a safe body. */
function expressionProblems(el: ModdleElement, property: string): Msg[] {
  const body = typeof el.body === 'string' ? el.body : '';
  const condition = CONDITIONS.has(property);
  if (typeof el.language === 'string' && el.language.trim() !== '')
    return [
      condition
        ? fill(texts.conditionLanguage, { language: el.language })
        : fill(texts.expressionLanguage, { what: property, language: el.language }),
    ];
  if (condition && !hasExpression(body)) return [texts.conditionForm];
  const r = checkAttributeExpression(body);
  return r.ok ? [] : [expressionProblem(property, r.reason)];
}

const expressionProblem = (what: string, reason: Msg): Msg => ({
  zh: fill(texts.badExpression, { what, reason: reason.zh }).zh,
  en: fill(texts.badExpression, { what, reason: reason.en }).en,
});

/** Every string attribute: no implementation by code, no script, and any `${…}` in the safe subset. */
function attributeProblems(el: ModdleElement, refused: boolean): Msg[] {
  const out: Msg[] = [];
  const check = (name: string, value: string) => {
    const local = localName(name);
    if (IMPLEMENTATION.has(local)) out.push(fill(texts.implementation, { attr: name, value }));
    else if (SCRIPT_ATTRIBUTES.has(local)) {
      if (!refused) out.push(fill(texts.script, { kind: `${el.$type} ${name}` }));
    } else {
      const r = checkAttributeExpression(value);
      if (!r.ok) out.push(expressionProblem(name, r.reason));
    }
  };
  for (const [name, value] of Object.entries(el)) {
    if (name.startsWith('$') || name === 'body' || typeof value !== 'string') continue;
    if (PROSE.has(el.$type) && name === 'text') continue;
    check(name, value);
  }
  for (const [name, value] of Object.entries(el.$attrs ?? {})) {
    if (name === 'xmlns' || name.startsWith('xmlns:') || typeof value !== 'string') continue;
    check(name, value);
  }
  if (typeof el.$body === 'string' && !PROSE.has(el.$type)) check('$body', el.$body);
  return out;
}

/** The contained elements of one element, with the property each sits under. */
function childrenOf(el: ModdleElement): { child: ModdleElement; property: string }[] {
  const out: { child: ModdleElement; property: string }[] = [];
  for (const [property, value] of Object.entries(el)) {
    if (property === '$parent' || property === '$attrs' || property === '$descriptor' || property === '$model')
      continue;
    for (const v of Array.isArray(value) ? value : [value]) if (isElement(v)) out.push({ child: v, property });
  }
  return out;
}

/** Walks the whole tree (iteratively: a deep file cannot overflow the stack) and collects every problem. */
function treeProblems(definitions: ModdleElement): BpmnProblem[] {
  const problems: BpmnProblem[] = [];
  const seen = new Set<ModdleElement>();
  const stack: Visit[] = [{ el: definitions, owner: null, property: '' }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    if (seen.has(visit.el)) continue;
    seen.add(visit.el);
    const id = typeof visit.el.id === 'string' && visit.el.id !== '' ? visit.el.id : visit.owner;
    for (const message of elementProblems(visit)) problems.push({ elementId: id, message });
    const children = childrenOf(visit.el);
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ el: children[i]!.child, owner: id, property: children[i]!.property });
  }
  return problems;
}

/** A camunda attribute, or the same local name in another engine's namespace (flowable:, activiti:). */
function attr(el: ModdleElement, name: string): string | null {
  if (typeof el[name] === 'string' && el[name] !== '') return el[name] as string;
  for (const [key, value] of Object.entries(el.$attrs ?? {})) if (localName(key) === name && value !== '') return value;
  return null;
}

const list = (v: string | null) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** Every flow element of a process, sub-processes included. */
function flowElementsOf(process: ModdleElement): ModdleElement[] {
  const out: ModdleElement[] = [];
  const add = (el: ModdleElement) => {
    for (const child of (el.flowElements as ModdleElement[] | undefined) ?? []) out.push(child);
  };
  add(process);
  for (let i = 0; i < out.length; i++) add(out[i]!);
  return out;
}

function summary(process: ModdleElement): ProcessSummary {
  const top = (process.flowElements as ModdleElement[] | undefined) ?? [];
  const start = top.find((e) => e.$type === 'bpmn:StartEvent');
  const all = flowElementsOf(process);
  return {
    key: process.id as string,
    name: typeof process.name === 'string' ? process.name : null,
    startFormKey: start ? attr(start, 'formKey') : null,
    userTasks: all
      .filter((e) => e.$type === 'bpmn:UserTask')
      .map((t) => ({
        id: t.id as string,
        name: typeof t.name === 'string' ? t.name : null,
        assignee: attr(t, 'assignee'),
        candidateGroups: list(attr(t, 'candidateGroups')),
        formKey: attr(t, 'formKey'),
      })),
    hasTimers: all.some((e) =>
      ((e.eventDefinitions as ModdleElement[] | undefined) ?? []).some((d) => d.$type === 'bpmn:TimerEventDefinition'),
    ),
  };
}

/** Checks a BPMN file (text or uploaded bytes) and sums up its executable processes; see the module comment. */
export async function validateDefinitions(xml: string | Uint8Array): Promise<ValidateResult> {
  const parsed = await parseBpmn(xml);
  if (!parsed.ok) return parsed;
  const problems = treeProblems(parsed.definitions);
  const processes = ((parsed.definitions.rootElements as ModdleElement[] | undefined) ?? []).filter(
    (e) => e.$type === 'bpmn:Process',
  );
  const executable = processes.filter((p) => p.isExecutable === true);
  if (executable.length === 0)
    problems.push({ elementId: (processes[0]?.id as string | undefined) ?? null, message: texts.noExecutable });
  for (const p of executable)
    if (!((p.flowElements as ModdleElement[] | undefined) ?? []).some((e) => e.$type === 'bpmn:StartEvent'))
      problems.push({ elementId: p.id as string, message: texts.noStart });
  if (problems.length > 0) return { ok: false, problems: problems.slice(0, MAX_PROBLEMS) };
  return { ok: true, processes: executable.map(summary) };
}

/** The problems as one text in both languages, each naming its element. */
export function problemsText(problems: BpmnProblem[], shown = 10): Msg {
  const one = (lang: 'zh' | 'en') => {
    const parts = problems
      .slice(0, shown)
      .map((p) =>
        p.elementId ? fill(problemTexts.at, { id: p.elementId, message: p.message[lang] })[lang] : p.message[lang],
      );
    if (problems.length > shown) parts.push(fill(problemTexts.more, { count: problems.length - shown })[lang]);
    return parts.join(problemTexts.separator[lang]);
  };
  return { zh: one('zh'), en: one('en') };
}

/** The 400 a route answers for a refused model (the text names every element, up to ten). */
export const bpmnError = (problems: BpmnProblem[]): AppError => badRequest(problemsText(problems));
