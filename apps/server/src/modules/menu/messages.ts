import type { Msg } from '@atrium/contract';

/** Texts of the menu module (the message catalogue's per-module part). */
export const menuTexts = {
  buttonParent: { zh: '按钮不能作为上级菜单', en: 'A button cannot have children' },
  beyondOwn: { zh: '不能授予超出自身的权限', en: 'You cannot grant more than you hold yourself' },
} satisfies Record<string, Msg>;
