import type { Msg } from '@atrium/contract';

/**
 * Texts of the safe expression subset (flow/bpmn/expression.ts, docs/workflow.md "Safe expressions") — the message
 * catalogue's per-module part. Placeholders are `{name}`.
 */
export const expressionTexts = {
  empty: { zh: '表达式为空', en: 'The expression is empty' },
  tooLong: { zh: '表达式超过 {max} 个字符', en: 'The expression is longer than {max} characters' },
  tooDeep: { zh: '表达式嵌套超过 {max} 层', en: 'The expression is nested deeper than {max} levels' },
  notWhole: {
    zh: '表达式必须是一个完整的 ${…}，不能与其他文字混写',
    en: 'An expression must be one whole ${…}, not mixed with other text',
  },
  char: { zh: '表达式中不允许使用字符“{char}”', en: 'The character "{char}" is not allowed in an expression' },
  call: { zh: '表达式中不允许调用函数（“{name}”）', en: 'Calls are not allowed in an expression ("{name}")' },
  bracket: { zh: '表达式中不允许用方括号取值', en: 'Indexing with brackets is not allowed in an expression' },
  assign: { zh: '表达式中不允许赋值', en: 'Assignment is not allowed in an expression' },
  name: { zh: '表达式中不允许使用名称“{name}”', en: 'The name "{name}" is not allowed in an expression' },
  unterminated: { zh: '表达式中的字符串没有结束引号', en: 'A string in the expression has no closing quote' },
  escape: {
    zh: '表达式的字符串中不允许转义“{seq}”',
    en: 'The escape "{seq}" is not allowed in a string of an expression',
  },
  number: { zh: '表达式中的数字“{text}”无效', en: 'The number "{text}" in the expression is not valid' },
  chained: {
    zh: '连续的比较需要用括号分开',
    en: 'Chained comparisons need parentheses',
  },
  unexpected: {
    zh: '表达式在第 {pos} 个字符处有误（“{text}”）',
    en: 'The expression is wrong at character {pos} ("{text}")',
  },
  incomplete: { zh: '表达式不完整', en: 'The expression is incomplete' },
  unknownForm: { zh: '不支持的表达式形式', en: 'An expression form that is not supported' },
} satisfies Record<string, Msg>;
