import { validateTexts as texts } from './validate/messages.ts';

/** Validators of docs/product.md "Validation". Each answers null when valid, else a message in zh and en. */
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
  if (!v) return texts.idCardRequired;
  if (v.length !== 18) return texts.idCardLength;
  if (!/^\d{17}[\dXx]$/.test(v)) return texts.idCardFormat;
  if (!PROVINCES.has(Number(v.slice(0, 2)))) return texts.idCardRegion;
  if (idCardCheckChar(v.slice(0, 17)) !== v[17].toUpperCase()) return texts.idCardCheck;
  return null;
}

const CREDIT_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const CREDIT_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** The check character (GB 32100, modulus 31) of the first 17 characters of a unified social credit code. */
export function creditCodeCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += CREDIT_CHARS.indexOf(first17[i]) * CREDIT_WEIGHTS[i];
  return CREDIT_CHARS[(31 - (sum % 31)) % 31];
}

/** A unified social credit code (统一社会信用代码, GB 32100): 18 characters of its alphabet, the last a check. */
export function validateCreditCode(value: string | null | undefined): Message | null {
  const v = (value ?? '').trim().toUpperCase();
  if (!v) return texts.creditCodeRequired;
  if (!/^[0-9A-HJ-NPQRTUWXY]{18}$/.test(v)) return texts.creditCodeFormat;
  if (creditCodeCheckChar(v.slice(0, 17)) !== v[17]) return texts.creditCodeCheck;
  return null;
}

export function validatePhone(value: string | null | undefined): Message | null {
  const v = (value ?? '').trim();
  if (!v) return texts.phoneRequired;
  if (v.length !== 11) return texts.phoneLength;
  if (!/^1[3-9]\d{9}$/.test(v)) return texts.phoneFormat;
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

/** Atrium's password policy (docs/system-api.md "Sign-in"): 8–64 characters, not the account, not a common password. */
export function passwordPolicyError(password: string, account: string): Message | null {
  if (password.length < 8) return texts.passwordTooShort;
  if (password.length > 64) return texts.passwordTooLong;
  if (password.toLowerCase() === account.toLowerCase()) return texts.passwordIsAccount;
  if (COMMON.has(password.toLowerCase())) return texts.passwordCommon;
  return null;
}
