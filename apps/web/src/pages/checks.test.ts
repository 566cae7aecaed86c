import { describe, expect, it } from 'vitest';
import { registerProblem } from './registerChecks';
import { avatarProblem } from './avatarCheck';
import { hashLockPassword } from '../stores/settings';

describe('registration checks, in the order of docs/product.md "Validation"', () => {
  const full = {
    tenantId: '000000',
    name: '张三',
    account: 'zhang',
    password: 'Secret#2026',
    password2: 'Secret#2026',
  };
  it('asks for the tenant first, even when everything else is missing', () => {
    expect(registerProblem({})).toBe('register.needTenant');
    expect(registerProblem({ ...full, tenantId: '  ' })).toBe('register.needTenant');
  });
  it('then the account, then both passwords, then that they match', () => {
    expect(registerProblem({ tenantId: '000000' })).toBe('register.needAccount');
    expect(registerProblem({ tenantId: '000000', account: 'zhang', password: 'x' })).toBe('register.needPassword');
    expect(registerProblem({ tenantId: '000000', account: 'zhang', password2: 'x' })).toBe('register.needPassword');
    expect(registerProblem({ ...full, password2: 'other' })).toBe('register.mismatch');
    expect(registerProblem(full)).toBeNull();
  });
});

describe('avatar checks', () => {
  it('takes jpg and png up to 500 kB only', () => {
    expect(avatarProblem({ type: 'image/png', size: 500 * 1024 })).toBeNull();
    expect(avatarProblem({ type: 'image/jpeg', size: 1000 })).toBeNull();
    expect(avatarProblem({ type: 'image/gif', size: 1000 })).toBe('info.avatarType');
    expect(avatarProblem({ type: 'image/png', size: 500 * 1024 + 1 })).toBe('info.avatarSize');
  });
});

describe('lock password', () => {
  it('keeps a hash, never the password, and the same password gives the same hash', async () => {
    const h = await hashLockPassword('Lock#123');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain('Lock#123');
    expect(await hashLockPassword('Lock#123')).toBe(h);
    expect(await hashLockPassword('Lock#124')).not.toBe(h);
  });
});
