import { describe, expect, it } from 'vitest';
import { badgeCount, recordError, useErrorLog } from './errorLog';

describe('error log', () => {
  it('records type, url, message, stack and time', () => {
    useErrorLog.getState().clear();
    recordError(new Error('boom'));
    const [e] = useErrorLog.getState().logs;
    expect(e).toMatchObject({ type: 'error', message: 'boom' });
    expect(e.stack).toContain('boom');
    expect(e.url).toMatch(/^http/);
    expect(e.time).toMatch(/\d{4}/);
  });
  it('caps the badge at 99', () => {
    expect([0, 5, 99, 100, 1000].map(badgeCount)).toEqual([0, 5, 99, 99, 99]);
  });
});
