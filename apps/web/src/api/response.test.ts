import { describe, expect, it } from 'vitest';
import { classify } from './response';

describe('response handling (docs/product.md "Messages and errors")', () => {
  it('takes the body code before the HTTP status', () => {
    expect(classify(200, { code: 400, msg: '参数错误' })).toEqual({ kind: 'error', message: '参数错误' });
    expect(classify(400, { code: 200, data: 1 })).toEqual({ kind: 'ok' });
  });
  it('falls back to the HTTP status without a body code', () => {
    expect(classify(200, { access_token: 'x' })).toEqual({ kind: 'ok' });
    expect(classify(400, { error_code: 400, error_description: '验证码不正确' })).toEqual({
      kind: 'error',
      message: '验证码不正确',
    });
  });
  it('sends a 401 to logout', () => {
    expect(classify(401, { code: 401, msg: '请求未授权' })).toEqual({ kind: 'logout' });
    expect(classify(200, { code: 401 })).toEqual({ kind: 'logout' });
  });
  it('rejects whitelisted statuses silently', () => {
    expect(classify(404, { code: 404, msg: 'x' }, [404])).toEqual({ kind: 'silent' });
  });
  it('uses msg, then error_description, then the default Chinese text', () => {
    expect(classify(500, { msg: '', error_description: 'desc' })).toEqual({ kind: 'error', message: 'desc' });
    expect(classify(500, null)).toEqual({ kind: 'error', message: '未知错误' });
  });
});
