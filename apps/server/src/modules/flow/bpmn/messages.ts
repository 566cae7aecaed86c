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

/** Texts of reading an uploaded or saved BPMN file (flow/bpmn/parse.ts, docs/workflow.md "Checks at save and deploy"). */
export const parseTexts = {
  empty: { zh: '文件为空', en: 'The file is empty' },
  tooLarge: {
    zh: '文件大小 {size} 字节，超过上限 {max} 字节',
    en: 'The file is {size} bytes, over the limit of {max} bytes',
  },
  notUtf8: { zh: '文件必须是 UTF-8 编码的文本', en: 'The file must be UTF-8 text' },
  notXml: { zh: '文件不是 XML', en: 'The file is not XML' },
  doctype: {
    zh: '不允许 DOCTYPE 或 ENTITY 声明（实体展开可被用作 XML 炸弹）',
    en: 'DOCTYPE and ENTITY declarations are not allowed (entity expansion can be an XML bomb)',
  },
  notBpmn: {
    zh: '文件不是 BPMN 2.0 模型（根元素为 <{root}>）',
    en: 'The file is not a BPMN 2.0 model (its root element is <{root}>)',
  },
  malformed: {
    zh: 'XML 格式错误，第 {line} 行第 {column} 列：{detail}',
    en: 'The XML is malformed at line {line}, column {column}: {detail}',
  },
  unreadable: {
    zh: '模型中有无法识别的内容，第 {line} 行：{detail}',
    en: 'Part of the model cannot be read at line {line}: {detail}',
  },
  broken: { zh: '模型有误：{detail}', en: 'The model is broken: {detail}' },
} satisfies Record<string, Msg>;

/** Texts of the checks of a model's content (flow/bpmn/validate.ts, docs/workflow.md "Checks at save and deploy"). */
export const validateTexts = {
  noExecutable: {
    zh: '模型中没有可执行的流程（isExecutable="true"）',
    en: 'The model has no executable process (isExecutable="true")',
  },
  noStart: { zh: '流程没有开始事件', en: 'The process has no start event' },
  scriptTask: {
    zh: '不允许脚本任务：服务器不运行模型中的代码',
    en: 'Script tasks are not allowed: the server runs no code from a model',
  },
  callActivity: {
    zh: '不支持调用活动：一个流程不能启动另一个流程',
    en: 'Call activities are not supported: a process cannot start another process',
  },
  listener: {
    zh: '不允许监听器（{kind}）：服务器不运行模型中的代码',
    en: 'Listeners are not allowed ({kind}): the server runs no code from a model',
  },
  script: {
    zh: '不允许脚本（{kind}）：服务器不运行模型中的代码',
    en: 'Scripts are not allowed ({kind}): the server runs no code from a model',
  },
  connector: { zh: '不允许连接器（{kind}）', en: 'Connectors are not allowed ({kind})' },
  implementation: {
    zh: '不允许用 {attr}="{value}" 指定实现：服务器不运行模型中的代码',
    en: 'An implementation by {attr}="{value}" is not allowed: the server runs no code from a model',
  },
  conditionLanguage: {
    zh: '条件不允许使用脚本语言（{language}）',
    en: 'A condition may not use a script language ({language})',
  },
  conditionForm: {
    zh: '条件必须是一个 ${…} 表达式',
    en: 'A condition must be one ${…} expression',
  },
  expressionLanguage: {
    zh: '{what}不允许使用脚本语言（{language}）',
    en: '{what} may not use a script language ({language})',
  },
  /** `{what}`: the attribute or element; `{reason}`: the expression's problem (expressionTexts). */
  badExpression: { zh: '{what}：{reason}', en: '{what}: {reason}' },
} satisfies Record<string, Msg>;

/** One problem in a 400's text: `{id}` the element, `{message}` the problem in the request's language. */
export const problemTexts = {
  at: { zh: '{id}：{message}', en: '{id}: {message}' },
  separator: { zh: '；', en: '; ' },
  more: { zh: '另有 {count} 个问题', en: '{count} more problems' },
} satisfies Record<string, Msg>;
