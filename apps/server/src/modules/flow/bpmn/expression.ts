import { fill, type Msg } from '@atrium/contract';
import { expressionTexts as texts } from './messages.ts';

/**
 * The safe expression subset of docs/workflow.md "Safe expressions": a hand-written tokenizer and recursive-descent
 * parser, and an evaluator that only reads own data properties of the variables it is given. Nothing here calls a
 * function of the model, builds code or looks outside `variables`.
 */

/** Longest expression text accepted (characters, the `${…}` included). */
export const MAX_EXPRESSION_LENGTH = 1000;
/** Deepest nesting of parentheses and `!` / `not` accepted. */
export const MAX_EXPRESSION_DEPTH = 32;

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';
export type ExpressionAst =
  | { type: 'literal'; value: string | number | boolean | null }
  | { type: 'path'; names: string[] }
  | { type: 'not'; operand: ExpressionAst }
  | { type: 'and' | 'or'; left: ExpressionAst; right: ExpressionAst }
  | { type: 'compare'; op: CompareOp; left: ExpressionAst; right: ExpressionAst };

export type ParseResult = { ok: true; ast: ExpressionAst } | { ok: false; reason: Msg };

/** A refused or unknown expression form; `reason` is the text to show, in zh and en. */
export class ExpressionError extends Error {
  constructor(readonly reason: Msg) {
    super(reason.en);
    this.name = 'ExpressionError';
  }
}

/**
 * Names refused anywhere in a path: the prototype names, anything starting with `__`, and roots that name the
 * server's own objects (a model cannot reach them anyway; refusing them makes the intent visible at save time).
 */
const REFUSED_NAMES = new Set(['constructor', 'prototype', 'this', 'process', 'require', 'module', 'exports']);
const REFUSED_ROOTS = new Set(['global', 'globalThis', 'window', 'self', 'eval', 'Function', 'import']);
const KEYWORDS = new Set(['true', 'false', 'null', 'and', 'or', 'not']);

type Token =
  | { kind: 'word'; text: string; pos: number }
  | { kind: 'number'; value: number; text: string; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'op'; text: string; pos: number };

const fail = (m: Msg, params: Record<string, string | number> = {}): never => {
  throw new ExpressionError(fill(m, params));
};

/** `${x}` or `#{x}` → `x`; any other text is taken as the bare expression. */
export function unwrapExpression(text: string): string {
  const t = text.trim();
  return (t.startsWith('${') || t.startsWith('#{')) && t.endsWith('}') ? t.slice(2, -1) : t;
}

/** Whether an attribute value holds an expression at all (`${` or `#{` anywhere in it). */
export const hasExpression = (value: string) => value.includes('${') || value.includes('#{');

const OPS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')', '.'];

function readString(src: string, start: number): { value: string; end: number } {
  const quote = src[start];
  let value = '';
  let i = start + 1;
  while (i < src.length) {
    const c = src[i]!;
    if (c === quote) return { value, end: i + 1 };
    if (c === '\\') {
      const next = src[i + 1];
      if (next !== '\\' && next !== "'" && next !== '"') fail(texts.escape, { seq: `\\${next ?? ''}` });
      value += next;
      i += 2;
      continue;
    }
    value += c;
    i++;
  }
  return fail(texts.unterminated);
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(src.slice(i))!;
      out.push({ kind: 'word', text: m[0], pos: i });
      i += m[0].length;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9A-Za-z_.]*/.exec(src.slice(i))!;
      if (!/^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(m[0])) fail(texts.number, { text: m[0] });
      out.push({ kind: 'number', value: Number(m[0]), text: m[0], pos: i });
      i += m[0].length;
    } else if (c === '"' || c === "'") {
      const s = readString(src, i);
      out.push({ kind: 'string', value: s.value, pos: i });
      i = s.end;
    } else {
      const op = OPS.find((o) => src.startsWith(o, i));
      if (!op) {
        if (c === '[' || c === ']') fail(texts.bracket);
        if (c === '=') fail(texts.assign);
        fail(texts.char, { char: c });
      }
      out.push({ kind: 'op', text: op!, pos: i });
      i += op!.length;
    }
  }
  return out;
}

const COMPARE = new Set<string>(['==', '!=', '<', '<=', '>', '>=']);

/** The recursive-descent parser over the tokens (grammar in docs/workflow.md "Safe expressions"). */
class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): ExpressionAst {
    if (this.tokens.length === 0) fail(texts.empty);
    const ast = this.or();
    const rest = this.tokens[this.i];
    if (rest) this.unexpected(rest);
    return ast;
  }

  private peek = () => this.tokens[this.i];
  private isOp = (t: Token | undefined, ...texts: string[]) =>
    !!t && (t.kind === 'op' || t.kind === 'word') && texts.includes(t.text);

  private unexpected(t: Token | undefined): never {
    if (!t) return fail(texts.incomplete);
    const text = t.kind === 'string' ? JSON.stringify(t.value) : t.text;
    return fail(texts.unexpected, { pos: t.pos + 1, text });
  }

  private or(): ExpressionAst {
    let left = this.and();
    while (this.isOp(this.peek(), '||', 'or')) {
      this.i++;
      left = { type: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): ExpressionAst {
    let left = this.compare();
    while (this.isOp(this.peek(), '&&', 'and')) {
      this.i++;
      left = { type: 'and', left, right: this.compare() };
    }
    return left;
  }

  private compare(): ExpressionAst {
    const left = this.unary();
    const t = this.peek();
    if (!t || t.kind !== 'op' || !COMPARE.has(t.text)) return left;
    this.i++;
    const right = this.unary();
    const after = this.peek();
    if (after && after.kind === 'op' && COMPARE.has(after.text)) fail(texts.chained);
    return { type: 'compare', op: t.text as CompareOp, left, right };
  }

  private nested<T>(f: () => T): T {
    if (++this.depth > MAX_EXPRESSION_DEPTH) fail(texts.tooDeep, { max: MAX_EXPRESSION_DEPTH });
    const r = f();
    this.depth--;
    return r;
  }

  private unary(): ExpressionAst {
    if (this.isOp(this.peek(), '!', 'not')) {
      this.i++;
      return this.nested(() => ({ type: 'not', operand: this.unary() }));
    }
    return this.primary();
  }

  private primary(): ExpressionAst {
    const t = this.peek();
    if (!t) return this.unexpected(t);
    this.i++;
    if (t.kind === 'number' || t.kind === 'string') return { type: 'literal', value: t.value };
    if (t.kind === 'op' && t.text === '(') {
      const inner = this.nested(() => this.or());
      if (!this.isOp(this.peek(), ')')) this.unexpected(this.peek());
      this.i++;
      return inner;
    }
    if (t.kind === 'word' && !KEYWORDS.has(t.text)) return this.path(t.text);
    if (t.kind === 'word' && (t.text === 'true' || t.text === 'false'))
      return { type: 'literal', value: t.text === 'true' };
    if (t.kind === 'word' && t.text === 'null') return { type: 'literal', value: null };
    return this.unexpected(t);
  }

  private path(root: string): ExpressionAst {
    checkName(root, true);
    const names = [root];
    while (this.isOp(this.peek(), '.')) {
      this.i++;
      const t = this.peek();
      if (!t || t.kind !== 'word' || KEYWORDS.has(t.text)) this.unexpected(t);
      checkName((t as { text: string }).text, false);
      names.push((t as { text: string }).text);
      this.i++;
    }
    if (this.isOp(this.peek(), '(')) fail(texts.call, { name: names.join('.') });
    return { type: 'path', names };
  }
}

function checkName(name: string, root: boolean) {
  if (name.startsWith('__') || REFUSED_NAMES.has(name) || (root && REFUSED_ROOTS.has(name)) || name.includes('$'))
    fail(texts.name, { name });
}

/** Parses `${…}`, `#{…}` or a bare expression of the safe subset. */
export function parseExpression(text: string): ParseResult {
  try {
    if (text.length > MAX_EXPRESSION_LENGTH) fail(texts.tooLong, { max: MAX_EXPRESSION_LENGTH });
    return { ok: true, ast: new Parser(tokenize(unwrapExpression(text))).parse() };
  } catch (e) {
    if (e instanceof ExpressionError) return { ok: false, reason: e.reason };
    throw e;
  }
}

/**
 * Checks an attribute value of a model (assignee, candidate groups, a condition, a timer): plain text without
 * `${`/`#{` is a literal and passes; otherwise it must be exactly one whole `${…}` / `#{…}` of the safe subset.
 */
export function checkAttributeExpression(value: string): { ok: true } | { ok: false; reason: Msg } {
  if (!hasExpression(value)) return { ok: true };
  const t = value.trim();
  if (!((t.startsWith('${') || t.startsWith('#{')) && t.endsWith('}'))) return { ok: false, reason: texts.notWhole };
  const r = parseExpression(t);
  return r.ok ? { ok: true } : r;
}

/** An own data property of a plain value (no getters run, nothing from a prototype). */
function own(value: unknown, name: string): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
  const d = Object.getOwnPropertyDescriptor(value, name);
  if (!d || !('value' in d) || typeof d.value === 'function') return undefined;
  return d.value;
}

/** Truth of a value: JavaScript's, except that the form value `'false'` is false. */
export const truthy = (v: unknown) => (v === 'false' ? false : Boolean(v));

const numeric = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?(0|[1-9][0-9]*)(\.[0-9]+)?\s*$/.test(v)) return Number(v);
  return null;
};

function equal(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === b) return true;
  const x = numeric(a);
  const y = numeric(b);
  if (x !== null && y !== null && (typeof a === 'number' || typeof b === 'number')) return x === y;
  if (typeof a === 'boolean' && typeof b === 'string') return String(a) === b;
  if (typeof b === 'boolean' && typeof a === 'string') return String(b) === a;
  return false;
}

function order(op: CompareOp, a: unknown, b: unknown): boolean {
  const x = numeric(a);
  const y = numeric(b);
  let c: number;
  if (x !== null && y !== null) c = x - y;
  else if (typeof a === 'string' && typeof b === 'string') c = a < b ? -1 : a > b ? 1 : 0;
  else return false;
  return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
}

function run(ast: ExpressionAst, variables: Record<string, unknown>): unknown {
  switch (ast?.type) {
    case 'literal':
      if (ast.value === null || ['string', 'number', 'boolean'].includes(typeof ast.value)) return ast.value;
      break;
    case 'path': {
      if (!Array.isArray(ast.names) || ast.names.length === 0) break;
      ast.names.forEach((n, i) => checkName(n, i === 0));
      return ast.names.reduce<unknown>((v, n) => own(v, n), variables);
    }
    case 'not':
      return !truthy(run(ast.operand, variables));
    case 'and':
      return truthy(run(ast.left, variables)) && truthy(run(ast.right, variables));
    case 'or':
      return truthy(run(ast.left, variables)) || truthy(run(ast.right, variables));
    case 'compare': {
      const a = run(ast.left, variables);
      const b = run(ast.right, variables);
      if (ast.op === '==') return equal(a, b);
      if (ast.op === '!=') return !equal(a, b);
      if (COMPARE.has(ast.op)) return order(ast.op, a, b);
      break;
    }
  }
  return fail(texts.unknownForm);
}

/**
 * Evaluates an expression (text or parsed) against the instance's variables (a plain object). Throws ExpressionError
 * for a text outside the subset or an AST of an unknown form. A missing variable or path is `undefined`.
 */
export function evaluate(expression: string | ExpressionAst, variables: Record<string, unknown> = {}): unknown {
  let ast: ExpressionAst;
  if (typeof expression === 'string') {
    const r = parseExpression(expression);
    if (!r.ok) throw new ExpressionError(r.reason);
    ast = r.ast;
  } else ast = expression;
  return run(ast, variables);
}
