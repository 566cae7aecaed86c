import type { UserInfo } from '@atrium/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from './session';

// A stand-in with the fields the session store reads.
const info = (roles: string[]) => ({ id: '1', tenantId: '000000', account: 'admin', roles }) as unknown as UserInfo;

describe('session roles', () => {
  beforeEach(() => useSession.setState({ roles: [] }));

  it('user info with the same roles keeps the roles array, so the shell does not load its menus again', () => {
    useSession.getState().setUserInfo(info(['administrator', 'auditor']));
    const first = useSession.getState().roles;
    useSession.getState().setUserInfo(info(['administrator', 'auditor']));
    expect(useSession.getState().roles).toBe(first);
  });

  it('other roles replace it', () => {
    useSession.getState().setUserInfo(info(['administrator']));
    const first = useSession.getState().roles;
    useSession.getState().setUserInfo(info(['auditor']));
    expect(useSession.getState().roles).not.toBe(first);
    expect(useSession.getState().roles).toEqual(['auditor']);
  });
});
