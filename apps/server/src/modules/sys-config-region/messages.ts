import type { Msg } from '@atrium/contract';

/** Texts of the config-by-region module (the message catalogue's per-module part). */
export const sysConfigTexts = {
  unknownRegion: { zh: '区划不存在', en: 'The region does not exist' },
} satisfies Record<string, Msg>;
