import { website } from '@atrium/contract';

export const PUBLIC_PATHS = ['/login', '/lock', '/404', '/403', '/500'];

/** Spec §2 route guard, as a pure function: where to go instead of `path`, or null to stay. */
export function guard(path: string, state: { token: string; isLocked: boolean }): string | null {
  const { token, isLocked } = state;
  if (!token) {
    if (PUBLIC_PATHS.includes(path) && path !== website.lockPage) return null;
    return path === '/' || path === website.lockPage ? '/login' : `/login?redirect=${encodeURIComponent(path)}`;
  }
  if (isLocked) return path === website.lockPage ? null : website.lockPage;
  if (path === '/login') return website.firstPage;
  if (path === website.lockPage) return website.firstPage;
  return null;
}
