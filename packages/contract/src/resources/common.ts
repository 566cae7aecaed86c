import type { FieldDef } from '../resource/define.ts';

/** Fields many resources share, written once (docs/resources.md "What a definition says"). */
export const commonFields = {
  /** Display order: 0 … max, sortable, a narrow column. */
  sort: (max = 999999): FieldDef => ({
    kind: 'int',
    min: 0,
    max,
    label: { zh: '排序', en: 'Sort' },
    default: 0,
    sort: true,
    ui: { width: 80 },
  }),
  remark: (): FieldDef => ({ kind: 'textarea', label: { zh: '备注', en: 'Remark' } }),
};
