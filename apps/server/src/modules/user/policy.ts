import type { Text } from '../../platform/errors.ts';

const common = new Set([
  '12345678', '123456789', '1234567890', 'password', 'password1', 'passw0rd', 'qwertyui', 'qwerty123', '11111111',
  '00000000', '88888888', '66666666', 'abcd1234', 'abc12345', 'iloveyou', 'admin123', 'admin888', 'a1234567', '1qaz2wsx',
  'zxcvbnm1', 'asdf1234', '123qweasd', 'qweasdzxc', '12341234', 'aaaaaaaa', '123123123', 'welcome1', 'p@ssw0rd',
]);

/** Atrium's password policy (api-contract §3): 8+ characters, not the account, not a common password. */
export function passwordPolicyError(password: string, account: string): Text | null {
  if (password.length < 8) return { zh: '密码长度至少为8位', en: 'The password needs at least 8 characters' };
  if (password.length > 64) return { zh: '密码长度不能超过64位', en: 'The password may have at most 64 characters' };
  if (password.toLowerCase() === account.toLowerCase()) return { zh: '密码不能与账号相同', en: 'The password may not equal the account' };
  if (common.has(password.toLowerCase())) return { zh: '密码过于简单，请更换', en: 'The password is too common' };
  return null;
}
