import { describe, expect, it } from 'vitest';
import { shouldRefresh } from './refresh';

describe('token refresh timing', () => {
  const t0 = 1_000_000;
  it('waits until tokenTime (3000 s) has passed', () => {
    expect(shouldRefresh(t0, t0 + 2_999_000, false)).toBe(false);
    expect(shouldRefresh(t0, t0 + 3_000_000, false)).toBe(true);
    expect(shouldRefresh(t0, t0 + 9_000_000, false)).toBe(true);
  });
  it('never starts a second refresh while one is in flight', () => {
    expect(shouldRefresh(t0, t0 + 3_600_000, true)).toBe(false);
  });
  it('does nothing without a token record', () => {
    expect(shouldRefresh(undefined, t0, false)).toBe(false);
  });
});
