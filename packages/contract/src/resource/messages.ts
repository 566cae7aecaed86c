import type { FieldDef, FieldKind, Msg } from './define.ts';

/**
 * The message catalogue: every generic text the server answers with, under a stable code, in zh and en
 * (docs/resources.md "Messages"). Resource-specific texts live in their definitions; module texts in the module's
 * own `messages.ts`. Placeholders are `{name}`.
 */
export const messages = {
  ok: { zh: '操作成功', en: 'Success' },
  added: { zh: '新增成功', en: 'Added' },
  updated: { zh: '更新成功', en: 'Updated' },
  deleted: { zh: '删除成功', en: 'Deleted' },
  unauthorized: { zh: '请求未授权', en: 'Unauthorized' },
  forbidden: { zh: '没有权限：缺少 {code}', en: 'Forbidden: missing permission {code}' },
  notFound: { zh: '数据不存在', en: 'Not found' },
  pathNotFound: { zh: '接口不存在', en: 'No such API' },
  stale: { zh: '数据已被他人修改，请刷新后重试', en: 'The record was changed by someone else; reload and try again' },
  outsideScope: {
    zh: '只能在本人数据范围内新增或修改数据',
    en: 'Records can only be added or changed within your own data scope',
  },
  unknown: { zh: '服务器内部错误', en: 'Internal server error' },
  badRequest: { zh: '请求参数错误', en: 'Bad request' },
  exists: { zh: '数据已存在', en: 'The record already exists' },
  // `{label}` of these two is the field's noun (`nounOf`): "Enter the title", "Select the release date".
  required: { zh: '请输入{label}', en: 'Enter the {label}' },
  choose: { zh: '请选择{label}', en: 'Select the {label}' },
  tooLong: { zh: '{label}最多 {max} 个字符', en: '{label}: at most {max} characters' },
  tooShort: { zh: '{label}至少 {min} 个字符', en: '{label}: at least {min} characters' },
  notText: { zh: '{label}必须是文本', en: '{label} must be text' },
  nulByte: { zh: '{label}含有不允许的字符', en: '{label} contains a character that is not allowed' },
  notInt: { zh: '{label}必须是整数', en: '{label} must be a whole number' },
  notNumber: { zh: '{label}必须是数字', en: '{label} must be a number' },
  outOfRange: { zh: '{label}必须在 {min} 到 {max} 之间', en: '{label} must be between {min} and {max}' },
  notDate: { zh: '{label}不是有效的日期', en: '{label} is not a valid date' },
  notDay: {
    zh: '{label}必须是 YYYY-MM-DD 格式的有效日期',
    en: '{label} must be a valid day written YYYY-MM-DD',
  },
  notInDict: { zh: '{label}的取值 {value} 不存在', en: '{label} {value} does not exist' },
  notId: { zh: '{label}必须是数字编号', en: '{label} must be a numeric id' },
  notInList: { zh: '{label}的取值无效', en: '{label} has an invalid value' },
  badFormat: { zh: '{label}格式不正确', en: '{label} has the wrong format' },
  unknownFilter: { zh: '不支持的查询字段：{name}', en: 'Unknown filter field: {name}' },
  unknownSort: { zh: '不支持的排序字段：{name}', en: 'Unknown sort field: {name}' },
  filterTooLong: { zh: '查询值过长：{name}', en: 'Filter value too long: {name}' },
  positiveInt: { zh: '参数 {name} 必须是正整数', en: '{name} must be a positive integer' },
  badDate: { zh: '日期格式错误：{name}', en: 'Bad date: {name}' },
  idsRequired: { zh: '请选择至少一条数据', en: 'Select at least one record' },
  stateRefused: { zh: '当前状态不允许此操作', en: 'This action is not allowed in the current state' },
  createRefused: {
    zh: '此类记录由业务自动产生，不能手工新增',
    en: 'These records are made by the business and cannot be added by hand',
  },
  updateNeedsId: {
    zh: '修改需指定记录编号；新增请使用 {path}',
    en: 'An update names its record (id); add through {path}',
  },
  treeCycle: {
    zh: '上级不能是自己或自己的下级',
    en: 'The parent cannot be the record itself or one of its descendants',
  },
  treeHasChildren: { zh: '请先删除下级数据', en: 'Remove the children first' },
  parentNotFound: { zh: '上级数据不存在', en: 'The parent does not exist' },
  refNotFound: { zh: '{label}不存在', en: '{label} does not exist' },
  badJson: { zh: '请求体不是合法的 JSON', en: 'The body is not valid JSON' },
  emptyJson: { zh: '请求体为空', en: 'The body is empty' },
  bodyTooLarge: { zh: '请求体过大', en: 'The body is too large' },
  badMediaType: { zh: '不支持的请求类型', en: 'Unsupported content type' },
  fileTooLarge: { zh: '文件大小超出限制', en: 'The file is too large' },
  shuttingDown: { zh: '服务正在停止，请稍后重试', en: 'The server is shutting down; try again shortly' },
  busy: { zh: '服务繁忙，请稍后重试', en: 'The server is busy; try again shortly' },
  databaseUnavailable: {
    zh: '数据库暂时不可用，请稍后重试',
    en: 'The database is unavailable right now; try again shortly',
  },
} satisfies Record<string, Msg>;

/** Default labels of the id inputs (resource/schema.ts) when a field names none. */
export const idLabels = {
  id: { zh: '编号', en: 'Id' },
  ids: { zh: '编号', en: 'Ids' },
} satisfies Record<string, Msg>;

export type MessageCode = keyof typeof messages;

/** The kinds whose fields are picked (请选择 / "Select the …"); the others are typed (请输入 / "Enter the …"). */
export const CHOOSE_KINDS: readonly FieldKind[] = ['dict', 'ref', 'switch', 'date', 'datetime', 'region', 'upload'];

/** Words kept as written inside an English sentence besides acronyms (two capitals: ID, URL, SMS, IPv4, OAuth). */
const PROPER_WORDS = new Set(['English', 'Chinese', 'Aliyun', 'Tencent', 'Hikvision', 'Dahua']);

/**
 * How generated texts name a field inside a sentence: the zh label as it is; in English the field's `noun`, else its
 * label with each word lower-cased unless it is an acronym (two or more capitals) or a proper word.
 */
export function nounOf(f: Pick<FieldDef, 'label' | 'noun'>): Msg {
  const en =
    f.noun ??
    f.label.en
      .split(' ')
      .map((w) => (/[A-Z].*[A-Z]/.test(w) || PROPER_WORDS.has(w) ? w : w.charAt(0).toLowerCase() + w.slice(1)))
      .join(' ');
  return { zh: f.label.zh, en };
}

/** A field's required message: its own text, else 请选择/请输入{label} by its kind ("Select the …" / "Enter the …"). */
export function requiredText(f: FieldDef): Msg | null {
  if (!f.required) return null;
  if (typeof f.required === 'object') return f.required;
  return msg(CHOOSE_KINDS.includes(f.kind) ? 'choose' : 'required', { label: nounOf(f) });
}
export type Lang = 'zh' | 'en';

/** Fills `{name}` placeholders. */
export function fill(msg: Msg, params: Record<string, string | number> = {}): Msg {
  const put = (s: string) => s.replace(/\{(\w+)\}/g, (all, k: string) => (k in params ? String(params[k]) : all));
  return { zh: put(msg.zh), en: put(msg.en) };
}

/** A catalogue message with its placeholders filled; labels given as Msg are filled per language. */
export function msg(code: MessageCode, params: Record<string, string | number | Msg> = {}): Msg {
  const m = messages[code];
  const per = (lang: Lang) =>
    Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'object' ? v[lang] : v]));
  return { zh: fill(m, per('zh')).zh, en: fill(m, per('en')).en };
}

/**
 * A Msg carried through a validator that only takes strings (zod issue messages): encoded as JSON, decoded by the
 * server's error handler into the request's language.
 */
export const encodeMsg = (m: Msg) => JSON.stringify(m);
export function decodeMsg(s: string): Msg | null {
  if (!s.startsWith('{"zh"')) return null;
  try {
    const m = JSON.parse(s) as Msg;
    return typeof m.zh === 'string' && typeof m.en === 'string' ? m : null;
  } catch {
    return null;
  }
}

/**
 * English names of what a new database or tenant starts with (the server's seed data: the platform tenant,
 * its administrator, the seeded roles, departments and posts). They are data stored in Chinese; an English console
 * shows a seeded name in English while it is still the seeded one — a name someone has changed is shown as stored.
 * apps/server/test/seeded-names.test.ts checks that every seeded name has its entry here.
 */
export const seededNamesEn: Record<string, string> = {
  管理组: 'Administration group',
  管理员: 'Administrator',
  超级管理员: 'Super administrator',
  供应商管理员: 'Supplier administrator',
  区域管理员: 'Region administrator',
  城市管理员: 'City administrator',
  领导: 'Leader',
  人事: 'HR',
  'Atrium 城市运营中心': 'Atrium City Operations Centre',
  技术部: 'Technology',
  运营部: 'Operations',
  首席执行官: 'Chief executive',
  经理: 'Manager',
  职员: 'Staff',
};
