import { describe, expect, it } from 'vitest';
import {
  validateCreditCode,
  creditCodeCheckChar,
  idCardCheckChar,
  isEmpty,
  isValidUrl,
  passwordPolicyError,
  validateIdCard,
  validatePhone,
} from './validate.ts';

// 11010519491231002X is the example of GB 11643; 440524188001010014 another published example.
const VALID = [
  '11010519491231002X',
  '440524188001010014',
  '110105194912310029'.slice(0, 17) + idCardCheckChar('11010519491231002'),
];

describe('ID card', () => {
  it('accepts numbers whose check digit matches (also lowercase x)', () => {
    for (const v of VALID) expect(validateIdCard(v)).toBeNull();
    expect(validateIdCard('11010519491231002x')).toBeNull();
  });
  it('computes the check character', () => {
    expect(idCardCheckChar('11010519491231002')).toBe('X');
    expect(idCardCheckChar('44052418800101001')).toBe('4');
  });
  it('says what is wrong, one check at a time', () => {
    expect(validateIdCard('')?.zh).toBe('身份证号码不能为空');
    expect(validateIdCard('   ')?.zh).toBe('身份证号码不能为空');
    expect(validateIdCard('1101051949123100')?.zh).toBe('身份证号码长度应该为18位');
    expect(validateIdCard('11010519491231002XX')?.zh).toBe('身份证号码长度应该为18位');
    expect(validateIdCard('1101051949123100XX')?.zh).toBe('身份证号码格式错误');
    expect(validateIdCard('11010519491231A02X')?.zh).toBe('身份证号码格式错误');
    const badProvince = '99' + '0105194912310' + '02';
    expect(validateIdCard(badProvince + idCardCheckChar(badProvince))?.zh).toBe('身份证地址编码错误');
    expect(validateIdCard('110105194912310021')?.zh).toBe('身份证校验位错误');
    expect(validateIdCard('440524188001010015')?.en).toBe('The ID card check digit is wrong');
  });
});

describe('phone', () => {
  it('accepts mainland mobile numbers and names each fault', () => {
    expect(validatePhone('13800138000')).toBeNull();
    expect(validatePhone('19912345678')).toBeNull();
    expect(validatePhone('')?.zh).toBe('手机号码不能为空');
    expect(validatePhone('1380013800')?.zh).toBe('手机号码长度不为11位');
    expect(validatePhone('12800138000')?.zh).toBe('手机号码格式不正确');
    expect(validatePhone('1380013800a')?.zh).toBe('手机号码格式不正确');
  });
});

describe('URL and isEmpty', () => {
  it('valid only with http or https', () => {
    expect(isValidUrl('https://a.cn')).toBe(true);
    expect(isValidUrl('HTTP://a.cn')).toBe(true);
    expect(isValidUrl('ftp://a.cn')).toBe(false);
    expect(isValidUrl('www.a.cn')).toBe(false);
    expect(isValidUrl('')).toBe(false);
  });
  it('empty means null, undefined, empty string, array or object', () => {
    for (const v of [null, undefined, '', [], {}]) expect(isEmpty(v)).toBe(true);
    for (const v of [0, false, ' ', [0], { a: 1 }]) expect(isEmpty(v)).toBe(false);
  });
});

describe('password policy', () => {
  it('refuses short, account-equal and common passwords', () => {
    expect(passwordPolicyError('Ab1#', 'bob')?.zh).toBe('密码长度至少为8位');
    expect(passwordPolicyError('Alice2026', 'alice2026')?.zh).toBe('密码不能与账号相同');
    expect(passwordPolicyError('Password1', 'bob')?.zh).toBe('密码过于简单，请更换');
    expect(passwordPolicyError('Correct#Horse1', 'bob')).toBeNull();
  });
});

describe('unified social credit code', () => {
  it('accepts a code whose last character is its GB 32100 check, in either case', () => {
    expect(creditCodeCheckChar('91110108MA01ABCD0')).toBe('B');
    expect(validateCreditCode('91110108MA01ABCD0B')).toBeNull();
    expect(validateCreditCode('91110108ma01abcd0b')).toBeNull();
  });
  it('names what is wrong', () => {
    expect(validateCreditCode('')?.zh).toBe('请输入统一社会信用代码');
    expect(validateCreditCode('91110108MA01ABCD0')?.en).toContain('18 digits');
    expect(validateCreditCode('91110108MA01ABCDOB')?.en).toContain('no I, O');
    expect(validateCreditCode('91110108MA01ABCD0C')?.zh).toBe('统一社会信用代码校验位错误');
  });
});
