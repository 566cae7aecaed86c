import type { Msg } from '../resource/define.ts';

/** Texts of the validators of docs/product.md "Validation" (validate.ts), in zh and en. */
export const validateTexts = {
  idCardRequired: { zh: '身份证号码不能为空', en: 'The ID card number is required' },
  idCardLength: { zh: '身份证号码长度应该为18位', en: 'The ID card number must have 18 characters' },
  idCardFormat: { zh: '身份证号码格式错误', en: 'The ID card number is malformed' },
  idCardRegion: { zh: '身份证地址编码错误', en: 'The ID card region code is wrong' },
  idCardCheck: { zh: '身份证校验位错误', en: 'The ID card check digit is wrong' },
  creditCodeRequired: { zh: '请输入统一社会信用代码', en: 'Enter the unified social credit code' },
  creditCodeFormat: {
    zh: '统一社会信用代码应为 18 位数字或大写字母（不含 I、O、S、V、Z）',
    en: 'A unified social credit code has 18 digits or capital letters (no I, O, S, V or Z)',
  },
  creditCodeCheck: { zh: '统一社会信用代码校验位错误', en: 'The credit code check character is wrong' },
  phoneRequired: { zh: '手机号码不能为空', en: 'The phone number is required' },
  phoneLength: { zh: '手机号码长度不为11位', en: 'The phone number must have 11 digits' },
  phoneFormat: { zh: '手机号码格式不正确', en: 'The phone number is malformed' },
  passwordTooShort: { zh: '密码长度至少为8位', en: 'The password needs at least 8 characters' },
  passwordTooLong: { zh: '密码长度不能超过64位', en: 'The password may have at most 64 characters' },
  passwordIsAccount: { zh: '密码不能与账号相同', en: 'The password may not equal the account' },
  passwordCommon: { zh: '密码过于简单，请更换', en: 'The password is too common' },
} satisfies Record<string, Msg>;
