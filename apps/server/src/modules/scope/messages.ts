/** Texts of the scope module (the message catalogue's per-module part). `{list}`: the allowed values. */
export const scopeTexts = {
  unknownResource: { zh: '未知的资源编号，可选：{list}', en: 'Unknown resource; one of {list}' },
  badColumn: { zh: '自定义规则的字段须是：{list}', en: "The custom rule's column must be one of {list}" },
  valueRequired: { zh: '请输入规则值', en: 'Enter the rule values' },
};
