import { beforeEach, describe, expect, it } from 'vitest';
import { getEntry, getStore, removeStore, setStore } from './storage';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('storage', () => {
  it('keeps entries in local storage unless a type is given, under the key prefix', () => {
    setStore({ name: 'theme', content: 'theme-dark' });
    setStore({ name: 'isLock', content: true, type: true });
    expect(localStorage.getItem('atrium-theme')).toContain('theme-dark');
    expect(sessionStorage.getItem('atrium-isLock')).toContain('true');
    expect(localStorage.getItem('atrium-isLock')).toBeNull();
    expect(getStore({ name: 'isLock' })).toBe(true);
  });

  it('records the data type and the datetime', () => {
    const before = Date.now();
    setStore({ name: 'token', content: 'abc' });
    const e = getEntry<string>({ name: 'token' })!;
    expect(e).toMatchObject({ dataType: 'string', content: 'abc', type: false });
    expect(e.datetime).toBeGreaterThanOrEqual(before);
  });

  it('removes from both areas', () => {
    setStore({ name: 'x', content: 1 });
    setStore({ name: 'x', content: 2, type: true });
    removeStore({ name: 'x' });
    expect(getStore({ name: 'x' })).toBeUndefined();
  });
});
