import type { Msg } from '@atrium/contract';

/** Texts of the config-by-region module (the message catalogue's per-module part). */
export const sysConfigTexts = {
  regionRequired: { zh: '请选择区划', en: 'Select a region' },
  badRegion: { zh: '区划编号应为 00 或 2–12 位数字', en: 'A region code is 00 or 2 to 12 digits' },
  unknownRegion: { zh: '区划不存在', en: 'The region does not exist' },
  typeRequired: { zh: '请选择配置类型', en: 'Select a config type' },
  badType: { zh: '配置类型格式不正确', en: 'The config type has the wrong format' },
} satisfies Record<string, Msg>;
