import type { Msg } from '@atrium/contract';

/** Texts of the post module (the message catalogue's per-module part). */
export const postTexts = {
  /** `{n}`: how many live users hold the posts being removed. */
  inUse: { zh: '岗位仍有 {n} 个用户在用，不能删除', en: 'The post is still held by {n} user(s)' },
} satisfies Record<string, Msg>;
