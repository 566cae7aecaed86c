/** Texts of the scope module (the message catalogue's per-module part). `{list}`: the allowed values. */
export const scopeTexts = {
  unknownResource: { zh: '未知的资源编号，可选：{list}', en: 'Unknown resource; one of {list}' },
  badColumn: { zh: '自定义规则的字段须是：{list}', en: "The custom rule's column must be one of {list}" },
  valueRequired: { zh: '请输入规则值', en: 'Enter the rule values' },
  /** `{column}`: the rule's column; `{value}`: the first value that does not fit; `{kind}`: the column's kind. */
  badValue: {
    zh: '规则值“{value}”不符合字段 {column} 的类型（{kind}）',
    en: 'The value "{value}" does not fit the column {column} ({kind})',
  },
  /** The kinds of values a column holds, named in the two messages above. */
  kinds: {
    text: { zh: '文本', en: 'text' },
    int: { zh: '整数', en: 'integer' },
    decimal: { zh: '数字', en: 'number' },
    id: { zh: '编号', en: 'id' },
    date: { zh: '日期', en: 'date' },
    day: { zh: '日期（YYYY-MM-DD）', en: 'day (YYYY-MM-DD)' },
  },
  placeholderNotId: {
    zh: '{value} 只能用于编号字段，字段 {column} 是{kind}',
    en: '{value} stands for an id and cannot be used with the column {column} ({kind})',
  },
};
