/**
 * The engine's expression evaluator (docs/workflow.md "The engine"): a minimal subset of the safe expressions —
 * variable names and dotted paths into variables, literals (numbers, quoted strings, true, false, null), comparisons
 * `== != < <= > >=`, `&& || !` (and `and`, `or`, `not`) and parentheses. Nothing is called and no property outside
 * the variables' own is read. Everything goes through `evaluate`, so the full checker of `flow/bpmn/` can replace it.
 */

/** An expression that cannot be read or evaluated; `message` is technical (it names the offending part). */
export class ExpressionError extends Error {}

const WHOLE = /^\s*[$#]\{([\s\S]*)\}\s*$/;
const PART = /[$#]\{([^}]*)\}/g;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The value of `text`: a whole `${…}` (or `#{…}`) is its expression's value; a text with `${…}` parts inside is the
 * text with each part replaced by its value; any other text is itself.
 */
export function evaluate(text: string, variables: Record<string, unknown>): unknown {
  const whole = WHOLE.exec(text);
  if (whole && !whole[1].includes('}')) return evalExpression(whole[1], variables);
  if (!/[$#]\{/.test(text)) return text;
  return text.replace(PART, (_, inner: string) => {
    const v = evalExpression(inner, variables);
    return v === undefined || v === null ? '' : String(v);
  });
}

/** Whether `text` holds an expression at all. */
export const hasExpression = (text: string | null | undefined): boolean => !!text && /[$#]\{[^}]*\}/.test(text);

type Token =
  | { kind: 'num'; value: number }
  | { kind: 'str'; value: string }
  | { kind: 'name'; value: string }
  | { kind: 'op'; value: string };

const OPS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')', '.'];
const WORDS: Record<string, Token> = {
  and: { kind: 'op', value: '&&' },
  or: { kind: 'op', value: '||' },
  not: { kind: 'op', value: '!' },
  eq: { kind: 'op', value: '==' },
  ne: { kind: 'op', value: '!=' },
};

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const num = /^\d+(\.\d+)?/.exec(src.slice(i));
    if (num) {
      out.push({ kind: 'num', value: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new ExpressionError(`unterminated string in "${src}"`);
      out.push({ kind: 'str', value: src.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (name) {
      out.push(WORDS[name[0]] ?? { kind: 'name', value: name[0] });
      i += name[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExpressionError(`"${c}" is not allowed in "${src}"`);
    out.push({ kind: 'op', value: op });
    i += op.length;
  }
  return out;
}

/** Recursive descent: or → and → not → comparison → primary. */
function evalExpression(src: string, variables: Record<string, unknown>): unknown {
  const tokens = tokenize(src);
  let pos = 0;
  const peek = () => tokens[pos];
  const isOp = (v: string) => peek()?.kind === 'op' && peek()!.value === v;
  const fail = (what: string): never => {
    throw new ExpressionError(`${what} in "${src.trim()}"`);
  };

  const or = (): unknown => {
    let left = and();
    while (isOp('||')) {
      pos++;
      const right = and();
      left = truthy(left) || truthy(right);
    }
    return left;
  };
  const and = (): unknown => {
    let left = not();
    while (isOp('&&')) {
      pos++;
      const right = not();
      left = truthy(left) && truthy(right);
    }
    return left;
  };
  const not = (): unknown => {
    if (isOp('!')) {
      pos++;
      return !truthy(not());
    }
    return comparison();
  };
  const comparison = (): unknown => {
    const left = primary();
    const t = peek();
    if (t?.kind === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.value)) {
      pos++;
      return compare(t.value, left, primary());
    }
    return left;
  };
  const primary = (): unknown => {
    const t = tokens[pos++];
    if (!t) return fail('the expression ends too early');
    if (t.kind === 'num' || t.kind === 'str') return t.value;
    if (t.kind === 'op' && t.value === '(') {
      const v = or();
      if (!isOp(')')) fail('a ")" is missing');
      pos++;
      return v;
    }
    if (t.kind === 'name') {
      if (t.value === 'true') return true;
      if (t.value === 'false') return false;
      if (t.value === 'null') return null;
      const path = [t.value];
      while (isOp('.')) {
        pos++;
        const n = tokens[pos++];
        if (n?.kind !== 'name') fail('a name must follow "."');
        path.push(n!.value as string);
      }
      return lookup(path, variables, fail);
    }
    return fail(`"${t.value}" is not expected`);
  };

  const value = or();
  if (pos < tokens.length) fail(`"${String(tokens[pos].value)}" is not expected`);
  return value;
}

function lookup(path: string[], variables: Record<string, unknown>, fail: (what: string) => never): unknown {
  let v: unknown = variables;
  for (const key of path) {
    if (FORBIDDEN.has(key)) fail(`"${key}" may not be read`);
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

function truthy(v: unknown): boolean {
  return v !== undefined && v !== null && v !== false && v !== 0 && v !== '' && v !== 'false';
}

function compare(op: string, a: unknown, b: unknown): boolean {
  // Numbers given as text (form values) compare as numbers with numbers.
  if (typeof a === 'number' && typeof b === 'string' && b.trim() !== '' && !isNaN(Number(b))) b = Number(b);
  if (typeof b === 'number' && typeof a === 'string' && a.trim() !== '' && !isNaN(Number(a))) a = Number(a);
  const x = a ?? null;
  const y = b ?? null;
  switch (op) {
    case '==':
      return x === y;
    case '!=':
      return x !== y;
  }
  const ordered = (typeof x === 'number' && typeof y === 'number') || (typeof x === 'string' && typeof y === 'string');
  if (!ordered) return false;
  if (op === '<') return (x as number) < (y as number);
  if (op === '<=') return (x as number) <= (y as number);
  if (op === '>') return (x as number) > (y as number);
  return (x as number) >= (y as number);
}
