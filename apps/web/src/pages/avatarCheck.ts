import { AVATAR } from '@atrium/contract';

/** docs/product.md "Validation": an avatar is a JPG or PNG of at most 500 kB. Returns the i18n key of the problem, or null. */
export function avatarProblem(file: { type: string; size: number }): string | null {
  if (!(AVATAR.types as readonly string[]).includes(file.type)) return 'info.avatarType';
  if (file.size > AVATAR.maxBytes) return 'info.avatarSize';
  return null;
}
