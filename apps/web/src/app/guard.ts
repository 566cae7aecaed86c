import { website } from '@atrium/contract';

/** Routes that need no token; the client registration pages (docs/clients.md "Registration") among them. */
export const PUBLIC_PATHS = [
  '/login',
  '/lock',
  '/404',
  '/403',
  '/500',
  '/register',
  '/register/status',
  '/register/forgot',
];

/** docs/product.md "Screens and routes" route guard, as a pure function: where to go instead of `path`, or null to stay. */
export const CHANGE_PASSWORD_PAGE = '/info/index?tab=password';

export function guard(
  path: string,
  state: { token: string; isLocked: boolean; mustChangePassword?: boolean; lockedFrom?: string },
): string | null {
  const { token, isLocked } = state;
  if (!token) {
    // /lock needs no login: without a session it says so and offers the way to /login (unlocking needs one).
    if (PUBLIC_PATHS.includes(path)) return null;
    return path === '/' ? '/login' : `/login?redirect=${encodeURIComponent(path)}`;
  }
  if (isLocked) return path === website.lockPage ? null : website.lockPage;
  // A first or reset password is changed before anything else (the server refuses other calls meanwhile).
  if (state.mustChangePassword && path !== '/info/index') return CHANGE_PASSWORD_PAGE;
  if (path === '/login') return website.firstPage;
  // Unlocked: back to the screen that was locked (docs/web.md `stores/settings.ts`), else home.
  if (path === website.lockPage) return state.lockedFrom || website.firstPage;
  return null;
}
