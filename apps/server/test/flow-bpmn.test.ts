import { describe, expect, it } from 'vitest';
import {
  checkAttributeExpression,
  evaluate,
  ExpressionError,
  MAX_EXPRESSION_DEPTH,
  MAX_EXPRESSION_LENGTH,
  parseExpression,
  type ExpressionAst,
} from '../src/modules/flow/bpmn/expression.ts';

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
