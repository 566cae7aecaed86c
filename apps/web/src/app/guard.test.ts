import { describe, expect, it } from 'vitest';
import { guard } from './guard';

const out = { token: '', isLocked: false };
const inn = { token: 'jwt', isLocked: false };
const locked = { token: 'jwt', isLocked: true };

describe('route guard (docs/product.md "Screens and routes")', () => {
  it('sends a visitor without a token to /login, remembering where they wanted to go', () => {
    expect(guard('/wel/index', out)).toBe('/login?redirect=%2Fwel%2Findex');
    expect(guard('/system/user/index', out)).toBe('/login?redirect=%2Fsystem%2Fuser%2Findex');
    expect(guard('/', out)).toBe('/login');
  });
  it('lets a visitor see the pages that need no auth', () => {
    for (const p of ['/login', '/lock', '/404', '/403', '/500']) expect(guard(p, out)).toBeNull();
  });
  it('keeps a locked screen on the lock path only', () => {
    expect(guard('/wel/index', locked)).toBe('/lock');
    expect(guard('/login', locked)).toBe('/lock');
    expect(guard('/lock', locked)).toBeNull();
  });
  it('sends an authenticated user opening /login to / (the first page)', () => {
    expect(guard('/login', inn)).toBe('/wel/index');
  });
  it('sends an authenticated user who is not locked away from /lock', () => {
    expect(guard('/lock', inn)).toBe('/wel/index');
    // Unlocking returns to the screen that was locked.
    expect(guard('/lock', { ...inn, lockedFrom: '/system/post/index?x=1' })).toBe('/system/post/index?x=1');
  });
  it('lets an authenticated user go anywhere else', () => {
    expect(guard('/wel/index', inn)).toBeNull();
    expect(guard('/info/index', inn)).toBeNull();
  });
});

describe('forced password change', () => {
  it('sends a user who must change the password to the change tab from anywhere but the info page', () => {
    const state = { token: 't', isLocked: false, mustChangePassword: true };
    expect(guard('/login', state)).toBe('/info/index?tab=password');
    expect(guard('/system/user/index', state)).toBe('/info/index?tab=password');
    expect(guard('/info/index', state)).toBeNull();
    expect(guard('/login', { ...state, mustChangePassword: false })).toBe('/wel/index');
  });
});
