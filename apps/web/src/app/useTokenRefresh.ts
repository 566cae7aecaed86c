import { useEffect } from 'react';
import { REFRESH_CHECK_MS } from '@atrium/contract';
import { refreshToken } from '../api/auth';
import { shouldRefresh } from '../stores/refresh';
import { tokenDatetime, useSession } from '../stores/session';

/** docs/product.md "States": every 10 s, refresh once the token is tokenTime old; one refresh at a time (the refresh lock). */
export async function refreshIfDue(now = Date.now()) {
  const s = useSession.getState();
  if (!s.token || !s.refreshToken || !shouldRefresh(tokenDatetime(), now, s.isRefreshing)) return;
  s.setRefreshing(true);
  try {
    const res = await refreshToken(s.refreshToken, s.tenantId);
    useSession.getState().login(res);
  } catch {
    // A refused refresh token ends the session through the http client's 401 handling.
  } finally {
    useSession.getState().setRefreshing(false);
  }
}

export function useTokenRefresh() {
  const token = useSession((s) => s.token);
  useEffect(() => {
    if (!token) return;
    const id = setInterval(() => void refreshIfDue(), REFRESH_CHECK_MS);
    return () => clearInterval(id);
  }, [token]);
}
