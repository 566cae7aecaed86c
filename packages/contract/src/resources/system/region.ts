import { commonFields } from '../common.ts';
import { defineResource, type FieldDef, type Msg } from '../../resource/define.ts';

/**
 * 行政区划 (docs/product.md "Regions"): the GB/T 2260 tree, one set for every tenant, written by the platform
 * administrator. A code extends its parent's code: province 2 digits → city 4 → district 6 → town 9 → village 12;
 * the provinces hang below the root '00'. The server derives `ancestors`, `level` and the province … village
 * code and name columns from the parent.
 */

/** Digits of a code by level (1 province … 5 village). */
export const REGION_DIGITS = [2, 4, 6, 9, 12] as const;
/** The parent code of the provinces. */
export const REGION_ROOT = '00';
/** Most codes one `GET <base>/names?codes=` call resolves (the region cells of a page of records, docs/web.md). */
export const REGION_NAMES_MAX = 200;
/** The column prefix of each level, in order. */
export const REGION_LEVELS = ['province', 'city', 'district', 'town', 'village'] as const;
export type RegionLevelName = (typeof REGION_LEVELS)[number];

/** The level (1–5) of a well-formed code; 0 for the root and anything else. */
export function regionLevel(code: string): number {
  if (code === REGION_ROOT || !/^\d+$/.test(code)) return 0;
  return REGION_DIGITS.indexOf(code.length as (typeof REGION_DIGITS)[number]) + 1;
}

/** The parent's code by the digit rule: '00' for a province, '' for a malformed code. */
export function regionParent(code: string): string {
  const level = regionLevel(code);
  if (level === 0) return '';
  return level === 1 ? REGION_ROOT : code.slice(0, REGION_DIGITS[level - 2]);
}

/** The codes from the province down to the code itself (what `ancestors` holds, plus the code). */
export function regionPath(code: string): string[] {
  return REGION_DIGITS.slice(0, regionLevel(code)).map((n) => code.slice(0, n));
}

const levelLabels: Record<RegionLevelName, Msg> = {
  province: { zh: '省份', en: 'Province' },
  city: { zh: '地市', en: 'City' },
  district: { zh: '区县', en: 'District' },
  town: { zh: '乡镇', en: 'Town' },
  village: { zh: '村委', en: 'Village' },
};

/** A code or name of one level, written by the server from the parent. */
const levelField = (level: RegionLevelName, part: 'code' | 'name') =>
  ({
    kind: 'text',
    max: part === 'code' ? 12 : 100,
    readOnly: true,
    label: {
      zh: `${levelLabels[level].zh}${part === 'code' ? '编号' : '名称'}`,
      en: `${levelLabels[level].en} ${part}`,
    },
    ui: { column: false },
  }) as const satisfies FieldDef;

export const region = defineResource({
  code: 'region',
  group: 'system',
  base: '/api/blade-system/region',
  label: { zh: '行政区划', en: 'Regions' },
  scope: 'global',
  defaultSort: 'code',
  createTimeRange: false,
  fields: {
    parentCode: {
      kind: 'region',
      label: { zh: '上级区划', en: 'Parent region' },
      // No default: left out, the parent follows from the code's digits (docs/system-api.md, region).
      createOnly: true,
      search: 'eq',
      // A seeded district: the generated tests add a town below it.
      sample: '110101',
      ui: { column: false },
    },
    code: {
      kind: 'text',
      max: 12,
      label: { zh: '区划编号', en: 'Code' },
      required: { zh: '请输入区划编号', en: 'Enter the region code' },
      pattern: {
        regex: '^(?!00$)(\\d{2}|\\d{4}|\\d{6}|\\d{9}|\\d{12})$',
        message: { zh: '区划编号应为 2、4、6、9 或 12 位数字', en: 'A region code has 2, 4, 6, 9 or 12 digits' },
      },
      unique: { zh: '区划编号已存在', en: 'The region code already exists' },
      createOnly: true,
      search: 'like',
      sort: true,
      sample: '110101999',
      ui: { width: 140 },
    },
    name: {
      kind: 'text',
      max: 100,
      label: { zh: '区划名称', en: 'Name' },
      required: { zh: '请输入区划名称', en: 'Enter the region name' },
      search: 'like',
      sort: true,
    },
    level: {
      kind: 'dict',
      dict: 'region_level',
      keys: 'int',
      values: [1, 2, 3, 4, 5],
      readOnly: true,
      label: { zh: '区划等级', en: 'Level' },
      search: 'eq',
      ui: { width: 100 },
    },
    ancestors: {
      kind: 'text',
      max: 64,
      readOnly: true,
      label: { zh: '上级路径', en: 'Ancestors' },
      ui: { column: false },
    },
    provinceCode: levelField('province', 'code'),
    provinceName: levelField('province', 'name'),
    cityCode: levelField('city', 'code'),
    cityName: levelField('city', 'name'),
    districtCode: levelField('district', 'code'),
    districtName: levelField('district', 'name'),
    townCode: levelField('town', 'code'),
    townName: levelField('town', 'name'),
    villageCode: levelField('village', 'code'),
    villageName: levelField('village', 'name'),
    sort: commonFields.sort(),
    remark: { kind: 'textarea', max: 255, label: { zh: '备注', en: 'Remark' } },
  },
});
