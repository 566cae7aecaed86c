import type { Msg } from '@atrium/contract';

/** Texts of the server platform (guard, CRUD helpers, request fields) — the message catalogue's per-module part. */
export const platformTexts = {
  mustChangeFirst: { zh: '请先修改密码', en: 'Change your password first' },
  /** `{name}`: a list parameter that takes an id. */
  idParam: { zh: '参数 {name} 必须是数字编号', en: '{name} must be a numeric id' },
  /** `{max}`: the field's longest text. */
  atMost: { zh: '最多 {max} 个字符', en: 'At most {max} characters' },
} satisfies Record<string, Msg>;
