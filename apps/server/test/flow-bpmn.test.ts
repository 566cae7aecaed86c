import BpmnModdle from 'bpmn-moddle';
import { describe, expect, it, vi } from 'vitest';
import {
  checkAttributeExpression,
  evaluate,
  ExpressionError,
  MAX_EXPRESSION_DEPTH,
  MAX_EXPRESSION_LENGTH,
  parseExpression,
  type ExpressionAst,
} from '../src/modules/flow/bpmn/expression.ts';
import { MAX_BPMN_BYTES, parseBpmn } from '../src/modules/flow/bpmn/parse.ts';
import { bpmnError, validateDefinitions, type ValidateResult } from '../src/modules/flow/bpmn/validate.ts';

// The parser is counted, so a test can show a file was refused before the parser saw it.
vi.mock('bpmn-moddle', async (original) => {
  const real = ((await original()) as { default: (...a: unknown[]) => unknown }).default;
  return { default: vi.fn((...a: unknown[]) => real(...a)) };
});

/** BPMN checks of the flow module as pure functions (modules/flow/bpmn/, docs/workflow.md "Safe expressions"). */

const refused = (text: string) => {
  const r = parseExpression(text);
  expect(r.ok, text).toBe(false);
  return r.ok ? { zh: '', en: '' } : r.reason;
};

describe('safe expressions: allowed forms', () => {
  it.each([
    ['${taskUser}', { type: 'path', names: ['taskUser'] }],
    ['#{taskUser}', { type: 'path', names: ['taskUser'] }],
    ['taskUser', { type: 'path', names: ['taskUser'] }],
    ['${form.days}', { type: 'path', names: ['form', 'days'] }],
    ['${ 3 }', { type: 'literal', value: 3 }],
    ['${2.5}', { type: 'literal', value: 2.5 }],
    ["${'hr'}", { type: 'literal', value: 'hr' }],
    ['${"hr"}', { type: 'literal', value: 'hr' }],
    ['${"事假"}', { type: 'literal', value: '事假' }],
    ["${'it\\'s'}", { type: 'literal', value: "it's" }],
    ['${true}', { type: 'literal', value: true }],
    ['${false}', { type: 'literal', value: false }],
    ['${null}', { type: 'literal', value: null }],
  ])('%s', (text, ast) => {
    expect(parseExpression(text)).toEqual({ ok: true, ast });
  });

  it.each(['==', '!=', '<', '<=', '>', '>='])('comparison %s', (op) => {
    expect(parseExpression(`\${days ${op} 3}`)).toEqual({
      ok: true,
      ast: { type: 'compare', op, left: { type: 'path', names: ['days'] }, right: { type: 'literal', value: 3 } },
    });
  });

  it('&& || ! and their words, with parentheses and precedence', () => {
    const a = { type: 'path', names: ['a'] };
    const b = { type: 'path', names: ['b'] };
    const c = { type: 'path', names: ['c'] };
    expect(parseExpression('${a || b && c}')).toEqual({
      ok: true,
      ast: { type: 'or', left: a, right: { type: 'and', left: b, right: c } },
    });
    expect(parseExpression('${(a or b) and not c}')).toEqual({
      ok: true,
      ast: { type: 'and', left: { type: 'or', left: a, right: b }, right: { type: 'not', operand: c } },
    });
    expect(parseExpression('${!pass}')).toEqual({
      ok: true,
      ast: { type: 'not', operand: { type: 'path', names: ['pass'] } },
    });
    expect(parseExpression('${days > 3 && type == "sick"}').ok).toBe(true);
  });
});

describe('safe expressions: refused forms', () => {
  it.each([
    ['a call', '${fn()}', 'Calls are not allowed in an expression ("fn")'],
    ['a method call', '${taskUser.toString()}', 'Calls are not allowed in an expression ("taskUser.toString")'],
    ['require', "${require('fs')}", 'The name "require" is not allowed in an expression'],
    ['indexing', "${form['days']}", 'Indexing with brackets is not allowed in an expression'],
    ['an array literal', '${[1]}', 'Indexing with brackets is not allowed in an expression'],
    ['__proto__', '${form.__proto__}', 'The name "__proto__" is not allowed in an expression'],
    ['__proto__ at the root', '${__proto__}', 'The name "__proto__" is not allowed in an expression'],
    ['__defineGetter__', '${a.__defineGetter__}', 'The name "__defineGetter__" is not allowed in an expression'],
    ['constructor', '${form.constructor}', 'The name "constructor" is not allowed in an expression'],
    ['prototype', '${Object.prototype}', 'The name "prototype" is not allowed in an expression'],
    ['this', '${this}', 'The name "this" is not allowed in an expression'],
    ['process.env', '${process.env.X}', 'The name "process" is not allowed in an expression'],
    ['globalThis', '${globalThis.process}', 'The name "globalThis" is not allowed in an expression'],
    ['a template literal', '${`${x}`}', 'The character "`" is not allowed in an expression'],
    ['two expressions glued', '${a}${b}', 'The character "}" is not allowed in an expression'],
    ['an object literal', '${{a: 1}}', 'The character "{" is not allowed in an expression'],
    ['a unicode escape in a name', '${\\u0063onstructor}', 'The character "\\" is not allowed in an expression'],
    ['a unicode escape in a string', "${'\\u0041'}", 'The escape "\\u" is not allowed in a string of an expression'],
    ['a hex escape in a string', "${'\\x41'}", 'The escape "\\x" is not allowed in a string of an expression'],
    ['a non-ASCII name', '${ｃonstructor}', 'The character "ｃ" is not allowed in an expression'],
    ['assignment', '${a = 1}', 'Assignment is not allowed in an expression'],
    ['arithmetic', '${a + 1}', 'The character "+" is not allowed in an expression'],
    ['a comma', '${a, b}', 'The character "," is not allowed in an expression'],
    ['a semicolon', '${a; b}', 'The character ";" is not allowed in an expression'],
    ['a ternary', '${a ? b : c}', 'The character "?" is not allowed in an expression'],
    ['a dollar name', '${$x}', 'The name "$x" is not allowed in an expression'],
    ['a hex number', '${0x10}', 'The number "0x10" in the expression is not valid'],
    ['an unterminated string', "${'abc}", 'A string in the expression has no closing quote'],
    ['chained comparisons', '${1 < a < 3}', 'Chained comparisons need parentheses'],
    ['a dangling operator', '${a &&}', 'The expression is incomplete'],
    ['an empty expression', '${}', 'The expression is empty'],
    ['an empty bare text', '   ', 'The expression is empty'],
    ['two names', '${a b}', 'The expression is wrong at character 3 ("b")'],
    ['a keyword as a segment', '${a.true}', 'The expression is wrong at character 3 ("true")'],
    ['an unclosed parenthesis', '${(a}', 'The expression is incomplete'],
  ])('%s: %s', (_what, text, en) => {
    const reason = refused(text);
    expect(reason.en).toBe(en);
    expect(reason.zh).toMatch(/[\u4e00-\u9fff]/);
  });

  it('refuses an overlong and an overdeep expression', () => {
    expect(refused('${' + 'a'.repeat(MAX_EXPRESSION_LENGTH) + '}').en).toBe(
      `The expression is longer than ${MAX_EXPRESSION_LENGTH} characters`,
    );
    expect(
      refused('${' + '('.repeat(MAX_EXPRESSION_DEPTH + 1) + 'a' + ')'.repeat(MAX_EXPRESSION_DEPTH + 1) + '}').en,
    ).toBe(`The expression is nested deeper than ${MAX_EXPRESSION_DEPTH} levels`);
    expect(refused('${' + '!'.repeat(MAX_EXPRESSION_DEPTH + 1) + 'a}').en).toMatch(/nested deeper/);
  });

  it('checks an attribute: plain text passes, an expression must be one whole ${…} of the subset', () => {
    expect(checkAttributeExpression('admin')).toEqual({ ok: true });
    expect(checkAttributeExpression('PT1H')).toEqual({ ok: true });
    expect(checkAttributeExpression(' ${taskUser} ')).toEqual({ ok: true });
    const mixed = checkAttributeExpression('user-${id}');
    expect(mixed.ok || mixed.reason.en).toBe('An expression must be one whole ${…}, not mixed with other text');
    const env = checkAttributeExpression('${process.env.HOME}');
    expect(env.ok || env.reason.en).toBe('The name "process" is not allowed in an expression');
  });
});

describe('safe expressions: evaluation', () => {
  it('reads variables and dotted paths; a missing one is undefined', () => {
    const vars = { taskUser: 'u1', form: { days: 5, type: 'sick' } };
    expect(evaluate('${taskUser}', vars)).toBe('u1');
    expect(evaluate('${form.days}', vars)).toBe(5);
    expect(evaluate('${form.missing.deeper}', vars)).toBeUndefined();
    expect(evaluate('${nobody}', vars)).toBeUndefined();
    expect(evaluate('${taskUser.length}', vars)).toBeUndefined();
  });

  it('compares numbers, numeric form strings as numbers, strings, and null with missing', () => {
    expect(evaluate('${days > 3}', { days: 5 })).toBe(true);
    expect(evaluate('${days > 3}', { days: '5' })).toBe(true);
    expect(evaluate('${days > 3}', { days: '10' })).toBe(true);
    expect(evaluate('${days <= 3}', { days: 3 })).toBe(true);
    expect(evaluate('${days >= 3.5}', { days: 3 })).toBe(false);
    expect(evaluate('${days > 3}', {})).toBe(false);
    expect(evaluate('${days < 3}', {})).toBe(false);
    expect(evaluate('${days == 3}', { days: '3' })).toBe(true);
    expect(evaluate("${type == 'sick'}", { type: 'sick' })).toBe(true);
    expect(evaluate("${type != 'sick'}", { type: 'sick' })).toBe(false);
    expect(evaluate("${'b' > 'a'}")).toBe(true);
    expect(evaluate('${x == null}', {})).toBe(true);
    expect(evaluate('${x != null}', { x: 0 })).toBe(true);
    expect(evaluate("${pass == 'true'}", { pass: true })).toBe(true);
    expect(evaluate("${'1' == '1.0'}")).toBe(false);
  });

  it('&& || ! give booleans; the form value "false" is false', () => {
    expect(evaluate('${pass}', { pass: true })).toBe(true);
    expect(evaluate('${!pass}', { pass: 'false' })).toBe(true);
    expect(evaluate('${pass && days > 3}', { pass: 'true', days: 4 })).toBe(true);
    expect(evaluate('${pass and days > 3}', { pass: 'false', days: 4 })).toBe(false);
    expect(evaluate('${a || b}', { a: '', b: 'x' })).toBe(true);
    expect(evaluate('${not (a or b)}', { a: 0, b: null })).toBe(true);
  });

  it('never runs a getter, a function or anything from a prototype', () => {
    let ran = false;
    const vars = {
      get secret() {
        ran = true;
        return 'leaked';
      },
      fn: () => 'called',
      obj: Object.create({ inherited: 'from the prototype' }),
    };
    expect(evaluate('${secret}', vars)).toBeUndefined();
    expect(ran).toBe(false);
    expect(evaluate('${fn}', vars)).toBeUndefined();
    expect(evaluate('${obj.inherited}', vars)).toBeUndefined();
    expect(evaluate('${toString}', {})).toBeUndefined();
    expect(evaluate('${hasOwnProperty}', {})).toBeUndefined();
  });

  it('throws a typed error for a refused text or an unknown form', () => {
    expect(() => evaluate('${process.env.HOME}', {})).toThrow(ExpressionError);
    expect(() => evaluate('${fn()}', {})).toThrow('Calls are not allowed');
    const forms = [
      { type: 'call', callee: 'x' },
      { type: 'literal', value: {} },
      { type: 'path', names: ['constructor'] },
      { type: 'path', names: [] },
      { type: 'compare', op: '+', left: { type: 'literal', value: 1 }, right: { type: 'literal', value: 1 } },
      null,
    ];
    for (const f of forms) {
      expect(() => evaluate(f as unknown as ExpressionAst, {})).toThrow(ExpressionError);
    }
    try {
      evaluate({ type: 'call' } as unknown as ExpressionAst);
    } catch (e) {
      expect((e as ExpressionError).reason).toEqual({
        zh: '不支持的表达式形式',
        en: 'An expression form that is not supported',
      });
    }
  });
});

const NS =
  'xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" ' +
  'xmlns:flowable="http://flowable.org/bpmn" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
/** A file around one executable process's content. */
const model = (content: string, process = 'id="p" isExecutable="true"') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<bpmn:definitions ${NS} id="d" targetNamespace="http://atrium">\n` +
  `<bpmn:process ${process}>\n${content}\n</bpmn:process>\n</bpmn:definitions>\n`;
/** A valid process with a start, one element under test, and an end. */
const around = (element: string) => model(`<bpmn:startEvent id="start"/>${element}<bpmn:endEvent id="end"/>`);

const LEAVE = model(
  `<bpmn:startEvent id="apply" name="Apply" camunda:formKey="leave-form" camunda:initiator="applicant"/>
  <bpmn:sequenceFlow id="f1" sourceRef="apply" targetRef="manager"/>
  <bpmn:userTask id="manager" name="Manager approval" camunda:assignee="\${taskUser}" camunda:formKey="leave-handle"/>
  <bpmn:sequenceFlow id="f2" sourceRef="manager" targetRef="gw1"/>
  <bpmn:exclusiveGateway id="gw1"/>
  <bpmn:sequenceFlow id="f3" sourceRef="gw1" targetRef="hr"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${pass}</bpmn:conditionExpression></bpmn:sequenceFlow>
  <bpmn:sequenceFlow id="f4" sourceRef="gw1" targetRef="adjust"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${!pass}</bpmn:conditionExpression></bpmn:sequenceFlow>
  <bpmn:userTask id="hr" name="HR approval" camunda:candidateGroups="hr, admin" camunda:formKey="leave-handle"/>
  <bpmn:sequenceFlow id="f5" sourceRef="hr" targetRef="gw2"/>
  <bpmn:exclusiveGateway id="gw2"/>
  <bpmn:sequenceFlow id="f6" sourceRef="gw2" targetRef="end"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${pass &amp;&amp; days &lt;= 30}</bpmn:conditionExpression></bpmn:sequenceFlow>
  <bpmn:sequenceFlow id="f7" sourceRef="gw2" targetRef="adjust"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">#{not pass}</bpmn:conditionExpression></bpmn:sequenceFlow>
  <bpmn:userTask id="adjust" name="Adjust the request" camunda:assignee="\${applicant}"/>
  <bpmn:sequenceFlow id="f8" sourceRef="adjust" targetRef="gw3"/>
  <bpmn:exclusiveGateway id="gw3"/>
  <bpmn:sequenceFlow id="f9" sourceRef="gw3" targetRef="manager"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${resubmit == 'yes'}</bpmn:conditionExpression></bpmn:sequenceFlow>
  <bpmn:sequenceFlow id="f10" sourceRef="gw3" targetRef="end"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${resubmit != 'yes'}</bpmn:conditionExpression></bpmn:sequenceFlow>
  <bpmn:endEvent id="end"/>`,
  'id="leave" name="Leave" isExecutable="true"',
);

const problemsOf = (r: ValidateResult) => (r.ok ? [] : r.problems.map((p) => [p.elementId, p.message.en]));
const expectRefused = async (xml: string, elementId: string | null, en: string | RegExp) => {
  const r = await validateDefinitions(xml);
  expect(r.ok).toBe(false);
  if (r.ok) return;
  const hit = r.problems.find(
    (p) => p.elementId === elementId && (typeof en === 'string' ? p.message.en === en : en.test(p.message.en)),
  );
  expect(hit, JSON.stringify(problemsOf(r))).toBeDefined();
  expect(hit!.message.zh).toMatch(/[\u4e00-\u9fff]/);
};

describe('BPMN files: what is refused before the content is looked at', () => {
  it('refuses a billion-laughs file at once, before the XML parser sees it', async () => {
    const spy = vi.mocked(BpmnModdle);
    spy.mockClear();
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('\n');
    const bomb =
      `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol0 "lol">\n${levels}\n]>\n` +
      `<bpmn:definitions ${NS}><bpmn:process id="p" name="&lol9;" isExecutable="true"><bpmn:startEvent id="s"/></bpmn:process></bpmn:definitions>`;
    const r = await parseBpmn(bomb);
    expect(r).toEqual({
      ok: false,
      problems: [
        {
          elementId: null,
          message: {
            zh: '不允许 DOCTYPE 或 ENTITY 声明（实体展开可被用作 XML 炸弹）',
            en: 'DOCTYPE and ENTITY declarations are not allowed (entity expansion can be an XML bomb)',
          },
        },
      ],
    });
    expect(spy).not.toHaveBeenCalled();
    expect((await parseBpmn(LEAVE)).ok).toBe(true);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it.each([
    [
      'an external entity (XXE)',
      `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><bpmn:definitions ${NS}/>`,
    ],
    ['a lower-case doctype', `<!doctype html><bpmn:definitions ${NS}/>`],
    ['an ENTITY without a DOCTYPE', `<bpmn:definitions ${NS}><!ENTITY x "y"></bpmn:definitions>`],
  ])('refuses %s', async (_what, xml) => {
    const r = await validateDefinitions(xml);
    expect(problemsOf(r)).toEqual([
      [null, 'DOCTYPE and ENTITY declarations are not allowed (entity expansion can be an XML bomb)'],
    ]);
  });

  it('refuses a file over the documented limit, as text or as uploaded bytes', async () => {
    expect(MAX_BPMN_BYTES).toBe(1024 * 1024);
    const big = around(`<bpmn:documentation>${'x'.repeat(MAX_BPMN_BYTES)}</bpmn:documentation>`);
    const size = Buffer.byteLength(big);
    const en = `The file is ${size} bytes, over the limit of ${MAX_BPMN_BYTES} bytes`;
    expect(problemsOf(await validateDefinitions(big))).toEqual([[null, en]]);
    expect(problemsOf(await validateDefinitions(Buffer.from(big)))).toEqual([[null, en]]);
  });

  it.each([
    ['an empty file', '', 'The file is empty'],
    ['a text file', 'leave process: apply, approve, done', 'The file is not XML'],
    ['a JSON file', '{"process": "leave"}', 'The file is not XML'],
    [
      'an SVG',
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>',
      'The file is not a BPMN 2.0 model (its root element is <svg>)',
    ],
    [
      'a DMN file',
      '<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="d"/>',
      'The file is not a BPMN 2.0 model (its root element is <definitions>)',
    ],
  ])('refuses %s', async (_what, text, en) => {
    expect(problemsOf(await validateDefinitions(text))).toEqual([[null, en]]);
  });

  it('refuses bytes that are not UTF-8, and accepts a UTF-8 BOM', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(LEAVE, 'utf16le')]);
    expect(problemsOf(await validateDefinitions(utf16))).toEqual([[null, 'The file must be UTF-8 text']]);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(LEAVE)]);
    expect((await validateDefinitions(bom)).ok).toBe(true);
  });

  it('refuses malformed XML naming the line', async () => {
    const r = await validateDefinitions(around('<bpmn:userTask id="u">'));
    expect(problemsOf(r)).toEqual([
      [null, expect.stringMatching(/^The XML is malformed at line \d+, column \d+: .*closing tag mismatch/)],
    ]);
  });

  it('refuses unknown BPMN elements, dangling references and duplicate ids', async () => {
    await expectRefused(
      around('<bpmn:frobnicate id="x"/>'),
      null,
      /^Part of the model cannot be read at line 4: .*<bpmn:frobnicate>/,
    );
    await expectRefused(
      around('<bpmn:sequenceFlow id="f" sourceRef="start" targetRef="nowhere"/>'),
      'f',
      'The model is broken: unresolved reference <nowhere>',
    );
    await expectRefused(around('<bpmn:userTask id="start"/>'), null, /duplicate ID <start>/);
  });
});

describe('BPMN models: the content checks', () => {
  it('passes a leave-like model and sums it up', async () => {
    expect(await validateDefinitions(LEAVE)).toEqual({
      ok: true,
      processes: [
        {
          key: 'leave',
          name: 'Leave',
          startFormKey: 'leave-form',
          hasTimers: false,
          userTasks: [
            {
              id: 'manager',
              name: 'Manager approval',
              assignee: '${taskUser}',
              candidateGroups: [],
              formKey: 'leave-handle',
            },
            {
              id: 'hr',
              name: 'HR approval',
              assignee: null,
              candidateGroups: ['hr', 'admin'],
              formKey: 'leave-handle',
            },
            { id: 'adjust', name: 'Adjust the request', assignee: '${applicant}', candidateGroups: [], formKey: null },
          ],
        },
      ],
    });
  });

  it('passes a model as the modeler writes it, with its diagram and modeler attributes', async () => {
    const drawn = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:modeler="http://camunda.org/schema/modeler/1.0" xmlns:bioc="http://bpmn.io/schema/bpmn/biocolor/1.0" id="Definitions_1" targetNamespace="http://bpmn.io/schema/bpmn" exporter="Camunda Modeler" exporterVersion="5.0.0" modeler:executionPlatform="Camunda Platform" modeler:executionPlatformVersion="7.20.0">
  <bpmn:process id="trip" name="出差申请" isExecutable="true">
    <bpmn:startEvent id="StartEvent_1" camunda:formKey="trip-form"><bpmn:outgoing>Flow_1</bpmn:outgoing></bpmn:startEvent>
    <bpmn:sequenceFlow id="Flow_1" sourceRef="StartEvent_1" targetRef="Task_1" />
    <bpmn:userTask id="Task_1" name="经理审批" camunda:assignee="\${taskUser}"><bpmn:incoming>Flow_1</bpmn:incoming><bpmn:outgoing>Flow_2</bpmn:outgoing></bpmn:userTask>
    <bpmn:sequenceFlow id="Flow_2" sourceRef="Task_1" targetRef="End_1" />
    <bpmn:endEvent id="End_1"><bpmn:incoming>Flow_2</bpmn:incoming></bpmn:endEvent>
  </bpmn:process>
  <bpmndi:BPMNDiagram id="BPMNDiagram_1">
    <bpmndi:BPMNPlane id="BPMNPlane_1" bpmnElement="trip">
      <bpmndi:BPMNShape id="StartEvent_1_di" bpmnElement="StartEvent_1"><dc:Bounds x="152" y="102" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="Task_1_di" bpmnElement="Task_1" bioc:stroke="#1e88e5"><dc:Bounds x="240" y="80" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="End_1_di" bpmnElement="End_1"><dc:Bounds x="392" y="102" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="Flow_1_di" bpmnElement="Flow_1"><di:waypoint x="188" y="120" /><di:waypoint x="240" y="120" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="Flow_2_di" bpmnElement="Flow_2"><di:waypoint x="340" y="120" /><di:waypoint x="392" y="120" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>`;
    expect(await validateDefinitions(drawn)).toEqual({
      ok: true,
      processes: [
        {
          key: 'trip',
          name: '出差申请',
          startFormKey: 'trip-form',
          hasTimers: false,
          userTasks: [{ id: 'Task_1', name: '经理审批', assignee: '${taskUser}', candidateGroups: [], formKey: null }],
        },
      ],
    });
  });

  it('sees timers (a boundary timer and one inside a sub-process) and flowable attributes', async () => {
    const r = await validateDefinitions(
      around(`<bpmn:userTask id="u" flowable:assignee="\${taskUser}" flowable:candidateGroups="hr" flowable:formKey="f"/>
        <bpmn:boundaryEvent id="b" attachedToRef="u"><bpmn:timerEventDefinition><bpmn:timeDuration xsi:type="bpmn:tFormalExpression">PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>`),
    );
    expect(r.ok && r.processes[0]).toMatchObject({
      hasTimers: true,
      userTasks: [{ id: 'u', assignee: '${taskUser}', candidateGroups: ['hr'], formKey: 'f' }],
    });
    const sub = await validateDefinitions(
      around(
        `<bpmn:subProcess id="sp"><bpmn:startEvent id="ss"/><bpmn:intermediateCatchEvent id="wait"><bpmn:timerEventDefinition><bpmn:timeDuration xsi:type="bpmn:tFormalExpression">\${form.wait}</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent><bpmn:userTask id="inner"/></bpmn:subProcess>`,
      ),
    );
    expect(sub.ok && sub.processes[0]).toMatchObject({ hasTimers: true, userTasks: [{ id: 'inner' }] });
  });

  it('needs an executable process with a start event', async () => {
    await expectRefused(
      model('<bpmn:startEvent id="s"/>', 'id="p" isExecutable="false"'),
      'p',
      'The model has no executable process (isExecutable="true")',
    );
    await expectRefused(
      `<bpmn:definitions ${NS} id="d"/>`,
      null,
      'The model has no executable process (isExecutable="true")',
    );
    await expectRefused(model('<bpmn:userTask id="u"/>'), 'p', 'The process has no start event');
  });

  it('refuses a script task that reads a file', async () => {
    await expectRefused(
      around(
        `<bpmn:scriptTask id="readFile" scriptFormat="javascript"><bpmn:script>next(null, require('fs').readFileSync('/etc/passwd', 'utf8'))</bpmn:script></bpmn:scriptTask>`,
      ),
      'readFile',
      'Script tasks are not allowed: the server runs no code from a model',
    );
  });

  it('refuses a condition that reads the environment, a script condition, and a condition that is not ${…}', async () => {
    const flow = (id: string, condition: string) =>
      around(`<bpmn:sequenceFlow id="${id}" sourceRef="start" targetRef="end">${condition}</bpmn:sequenceFlow>`);
    await expectRefused(
      flow(
        'env',
        '<bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${process.env.DATABASE_URL}</bpmn:conditionExpression>',
      ),
      'env',
      'conditionExpression: The name "process" is not allowed in an expression',
    );
    await expectRefused(
      flow(
        'js',
        '<bpmn:conditionExpression xsi:type="bpmn:tFormalExpression" language="javascript">next(null, true)</bpmn:conditionExpression>',
      ),
      'js',
      'A condition may not use a script language (javascript)',
    );
    await expectRefused(
      flow(
        'bare',
        "<bpmn:conditionExpression xsi:type=\"bpmn:tFormalExpression\">require('fs').existsSync('/')</bpmn:conditionExpression>",
      ),
      'bare',
      'A condition must be one ${…} expression',
    );
    await expectRefused(
      flow(
        'call',
        '<bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${environment.services.fs.readFile()}</bpmn:conditionExpression>',
      ),
      'call',
      'conditionExpression: Calls are not allowed in an expression ("environment.services.fs.readFile")',
    );
    await expectRefused(
      flow('empty', '<bpmn:conditionExpression xsi:type="bpmn:tFormalExpression"></bpmn:conditionExpression>'),
      'empty',
      'A condition must be one ${…} expression',
    );
  });

  it("refuses listeners: a script, a class, a delegate expression, an expression, another engine's", async () => {
    const task = (ext: string) =>
      around(`<bpmn:userTask id="u"><bpmn:extensionElements>${ext}</bpmn:extensionElements></bpmn:userTask>`);
    await expectRefused(
      task(
        `<camunda:executionListener event="start"><camunda:script scriptFormat="javascript">require('child_process').execSync('id')</camunda:script></camunda:executionListener>`,
      ),
      'u',
      'Listeners are not allowed (camunda:ExecutionListener): the server runs no code from a model',
    );
    await expectRefused(
      task('<camunda:taskListener event="create" class="com.evil.Listener"/>'),
      'u',
      'An implementation by class="com.evil.Listener" is not allowed: the server runs no code from a model',
    );
    await expectRefused(
      task('<camunda:taskListener event="create" delegateExpression="${bean}"/>'),
      'u',
      'Listeners are not allowed (camunda:TaskListener): the server runs no code from a model',
    );
    await expectRefused(
      task('<camunda:executionListener event="end" expression="${done}"/>'),
      'u',
      /^Listeners are not allowed \(camunda:ExecutionListener\)/,
    );
    await expectRefused(
      task('<flowable:taskListener event="create" class="x.Y"/>'),
      'u',
      /^Listeners are not allowed \(flowable:taskListener\)/,
    );
  });

  it.each([
    [
      'serviceTask',
      'camunda:class="com.evil.Task"',
      'An implementation by class="com.evil.Task" is not allowed: the server runs no code from a model',
    ],
    [
      'serviceTask',
      'camunda:expression="${x}"',
      'An implementation by expression="${x}" is not allowed: the server runs no code from a model',
    ],
    [
      'businessRuleTask',
      'camunda:delegateExpression="${rules}"',
      'An implementation by delegateExpression="${rules}" is not allowed: the server runs no code from a model',
    ],
    [
      'sendTask',
      'camunda:class="com.evil.Send"',
      'An implementation by class="com.evil.Send" is not allowed: the server runs no code from a model',
    ],
    [
      'serviceTask',
      'flowable:class="com.evil.Task"',
      'An implementation by flowable:class="com.evil.Task" is not allowed: the server runs no code from a model',
    ],
  ])('refuses a %s with %s', async (type, attribute, en) => {
    await expectRefused(around(`<bpmn:${type} id="t" ${attribute}/>`), 't', en);
  });

  it('refuses a connector, a call activity and input/output scripts', async () => {
    await expectRefused(
      around(
        '<bpmn:serviceTask id="http"><bpmn:extensionElements><camunda:connector><camunda:connectorId>http-connector</camunda:connectorId></camunda:connector></bpmn:extensionElements></bpmn:serviceTask>',
      ),
      'http',
      'Connectors are not allowed (camunda:Connector)',
    );
    await expectRefused(
      around('<bpmn:callActivity id="call" calledElement="other"/>'),
      'call',
      'Call activities are not supported: a process cannot start another process',
    );
    await expectRefused(
      around(
        `<bpmn:userTask id="io"><bpmn:extensionElements><camunda:inputOutput><camunda:inputParameter name="home"><camunda:script scriptFormat="javascript">process.env.HOME</camunda:script></camunda:inputParameter></camunda:inputOutput></bpmn:extensionElements></bpmn:userTask>`,
      ),
      'io',
      'Scripts are not allowed (camunda:Script): the server runs no code from a model',
    );
    await expectRefused(
      around(
        `<bpmn:userTask id="io2"><bpmn:extensionElements><camunda:inputOutput><camunda:outputParameter name="x">\${form.constructor}</camunda:outputParameter></camunda:inputOutput></bpmn:extensionElements></bpmn:userTask>`,
      ),
      'io2',
      'value: The name "constructor" is not allowed in an expression',
    );
  });

  it.each([
    ['assignee', 'camunda:assignee="${fn()}"', 'assignee: Calls are not allowed in an expression ("fn")'],
    [
      'assignee',
      'camunda:assignee="${process.env.USER}"',
      'assignee: The name "process" is not allowed in an expression',
    ],
    [
      'candidate groups',
      'camunda:candidateGroups="${roles[0]}"',
      'candidateGroups: Indexing with brackets is not allowed in an expression',
    ],
    [
      'candidate groups',
      'camunda:candidateGroups="hr,${x}"',
      'candidateGroups: An expression must be one whole ${…}, not mixed with other text',
    ],
    ['a due date', 'camunda:dueDate="${new Date()}"', 'dueDate: The expression is wrong at character 5 ("Date")'],
    [
      "another engine's assignee",
      'flowable:assignee="${this.constructor}"',
      'flowable:assignee: The name "this" is not allowed in an expression',
    ],
  ])('refuses %s outside the safe subset: %s', async (_what, attribute, en) => {
    await expectRefused(around(`<bpmn:userTask id="u" ${attribute}/>`), 'u', en);
  });

  it('refuses a timer expression outside the safe subset, or in a script language', async () => {
    const timer = (body: string) =>
      around(
        `<bpmn:intermediateCatchEvent id="wait"><bpmn:timerEventDefinition id="td">${body}</bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>`,
      );
    await expectRefused(
      timer('<bpmn:timeDuration xsi:type="bpmn:tFormalExpression">${delay()}</bpmn:timeDuration>'),
      'td',
      'timeDuration: Calls are not allowed in an expression ("delay")',
    );
    await expectRefused(
      timer('<bpmn:timeDate xsi:type="bpmn:tFormalExpression" language="javascript">new Date()</bpmn:timeDate>'),
      'td',
      'timeDate may not use a script language (javascript)',
    );
  });

  it('checks a conditional event, a multi-instance loop and an unknown attribute the same way', async () => {
    await expectRefused(
      around(
        `<bpmn:intermediateCatchEvent id="c"><bpmn:conditionalEventDefinition id="cd"><bpmn:condition xsi:type="bpmn:tFormalExpression" language="groovy">true</bpmn:condition></bpmn:conditionalEventDefinition></bpmn:intermediateCatchEvent>`,
      ),
      'cd',
      'A condition may not use a script language (groovy)',
    );
    await expectRefused(
      around(
        `<bpmn:userTask id="mi"><bpmn:multiInstanceLoopCharacteristics camunda:collection="\${users}"><bpmn:loopCardinality xsi:type="bpmn:tFormalExpression">\${count()}</bpmn:loopCardinality><bpmn:completionCondition xsi:type="bpmn:tFormalExpression">\${done}</bpmn:completionCondition></bpmn:multiInstanceLoopCharacteristics></bpmn:userTask>`,
      ),
      'mi',
      'loopCardinality: Calls are not allowed in an expression ("count")',
    );
    await expectRefused(
      around('<bpmn:userTask id="odd" owner="${a.__proto__}"/>'),
      'odd',
      'owner: The name "__proto__" is not allowed in an expression',
    );
    const ok = await validateDefinitions(
      around(
        `<bpmn:userTask id="mi"><bpmn:multiInstanceLoopCharacteristics camunda:collection="\${users}"><bpmn:completionCondition xsi:type="bpmn:tFormalExpression">\${done == true}</bpmn:completionCondition></bpmn:multiInstanceLoopCharacteristics></bpmn:userTask>`,
      ),
    );
    expect(problemsOf(ok)).toEqual([]);
  });

  it('names every problem in one 400 in both languages', async () => {
    const r = await validateDefinitions(
      around('<bpmn:scriptTask id="s1"/><bpmn:userTask id="u1" camunda:assignee="${a()}"/>'),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const e = bpmnError(r.problems);
    expect(e.status).toBe(400);
    expect(e.text).toEqual({
      zh: 's1：不允许脚本任务：服务器不运行模型中的代码；u1：assignee：表达式中不允许调用函数（“a”）',
      en: 's1: Script tasks are not allowed: the server runs no code from a model; u1: assignee: Calls are not allowed in an expression ("a")',
    });
  });

  it('does not refuse prose that mentions ${…} in documentation', async () => {
    const r = await validateDefinitions(
      around('<bpmn:userTask id="u"><bpmn:documentation>Set ${taskUser()} later</bpmn:documentation></bpmn:userTask>'),
    );
    expect(r.ok).toBe(true);
  });
});
