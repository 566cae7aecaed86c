/** Validators of spec §5. Each answers null when valid, else a message in zh and en. */
export type Message = { zh: string; en: string };

const PROVINCES = new Set([
  11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61, 62, 63,
  64, 65, 71, 81, 82, 91,
]);
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = '10X98765432';

/** The ISO 7064 MOD 11-2 check character of the first 17 digits. */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * WEIGHTS[i];
  return CHECK[sum % 11];
}

export function validateIdCard(value: string | null | undefined): Message | null {
  const v = (value ?? '').trim();
  if (!v) return { zh: '身份证号码不能为空', en: 'The ID card number is required' };
  if (v.length !== 18) return { zh: '身份证号码长度应该为18位', en: 'The ID card number must have 18 characters' };
  if (!/^\d{17}[\dXx]$/.test(v)) return { zh: '身份证号码格式错误', en: 'The ID card number is malformed' };
  if (!PROVINCES.has(Number(v.slice(0, 2))))
    return { zh: '身份证地址编码错误', en: 'The ID card region code is wrong' };
  if (idCardCheckChar(v.slice(0, 17)) !== v[17].toUpperCase())
    return { zh: '身份证校验位错误', en: 'The ID card check digit is wrong' };
  return null;
}

export function validatePhone(value: string | null | undefined): Message | null {
  const v = (value ?? '').trim();
  if (!v) return { zh: '手机号码不能为空', en: 'The phone number is required' };
  if (v.length !== 11) return { zh: '手机号码长度不为11位', en: 'The phone number must have 11 digits' };
  if (!/^1[3-9]\d{9}$/.test(v)) return { zh: '手机号码格式不正确', en: 'The phone number is malformed' };
  return null;
}

/** A URL is valid when it starts with http:// or https://. */
export function isValidUrl(value: string | null | undefined): boolean {
  return /^https?:\/\//i.test((value ?? '').trim());
}

/** null, undefined, '', [] and {} are empty; 0 and false are not. */
export function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value as object).length === 0;
  return false;
}

const COMMON = new Set([
  '12345678',
  '123456789',
  '1234567890',
  'password',
  'password1',
  'passw0rd',
  'qwertyui',
  'qwerty123',
  '11111111',
  '00000000',
  '88888888',
  '66666666',
  'abcd1234',
  'abc12345',
  'iloveyou',
  'admin123',
  'admin888',
  'a1234567',
  '1qaz2wsx',
  'zxcvbnm1',
  'asdf1234',
  '123qweasd',
  'qweasdzxc',
  '12341234',
  'aaaaaaaa',
  '123123123',
  'welcome1',
  'p@ssw0rd',
]);

/** Atrium's password policy (api-contract §3): 8–64 characters, not the account, not a common password. */
export function passwordPolicyError(password: string, account: string): Message | null {
  if (password.length < 8) return { zh: '密码长度至少为8位', en: 'The password needs at least 8 characters' };
  if (password.length > 64) return { zh: '密码长度不能超过64位', en: 'The password may have at most 64 characters' };
  if (password.toLowerCase() === account.toLowerCase())
    return { zh: '密码不能与账号相同', en: 'The password may not equal the account' };
  if (COMMON.has(password.toLowerCase())) return { zh: '密码过于简单，请更换', en: 'The password is too common' };
  return null;
}
