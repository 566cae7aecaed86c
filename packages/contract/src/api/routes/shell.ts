import { defineRoute } from '../route.ts';
import type * as S from './shell.schemas.ts';

/** Sign-in, the session and the shell around every screen (docs/system-api.md "Auth", "Menus"); schemas in shell.schemas.ts. */

export const token = defineRoute<typeof S.token>()({
  method: 'POST',
  path: '/api/blade-auth/oauth/token',
  auth: 'none',
  wire: 'plain',
  summary: 'OAuth token: captcha, password, refresh_token, social grants',
});

export const captcha = defineRoute<typeof S.captcha>()({
  method: 'GET',
  path: '/api/blade-auth/oauth/captcha',
  auth: 'none',
  wire: 'plain',
  summary: 'A new single-use captcha (5 minutes), and whether logins require one (ATRIUM_CAPTCHA)',
});

export const logout = defineRoute<typeof S.logout>()({
  method: ['GET', 'POST'],
  path: '/api/blade-auth/oauth/logout',
  whileMustChange: true,
  auth: 'user',
  summary: "Ends the caller's session (its tokens stop at once)",
});

export const oauthUserInfo = defineRoute<typeof S.oauthUserInfo>()({
  method: 'GET',
  path: '/api/blade-auth/oauth/user-info',
  whileMustChange: true,
  auth: 'user',
  summary: 'The signed-in user, their tenant, department and roles',
});

export const clearCache = defineRoute<typeof S.clearCache>()({
  method: 'GET',
  path: '/api/blade-auth/oauth/clear-cache',
  whileMustChange: true,
  auth: 'user',
  summary: "Drops the tenant's cached reads on every server",
});

export const tenantInfo = defineRoute<typeof S.tenantInfo>()({
  method: 'GET',
  path: '/api/blade-system/tenant/info',
  auth: 'none',
  summary: 'Which tenant serves this host name (null when none)',
});

export const menuRoutes = defineRoute<typeof S.menuRoutes>()({
  method: 'GET',
  path: '/api/blade-system/menu/routes',
  whileMustChange: true,
  auth: 'user',
  summary: "The caller's menu tree (optionally under one top menu)",
});

export const menuButtons = defineRoute<typeof S.menuButtons>()({
  method: 'GET',
  path: '/api/blade-system/menu/buttons',
  whileMustChange: true,
  auth: 'user',
  summary: "The caller's buttons, under their menus",
});

export const topMenus = defineRoute<typeof S.topMenus>()({
  method: 'GET',
  path: '/api/blade-system/menu/top-menu',
  whileMustChange: true,
  auth: 'user',
  summary: 'The top menus the caller sees',
});

export const dictionary = defineRoute<typeof S.dictionary>()({
  method: 'GET',
  path: '/api/blade-system/dict/dictionary',
  whileMustChange: true,
  auth: 'user',
  summary: 'The entries of one system dictionary, for selects',
});

export const bizDictionary = defineRoute<typeof S.bizDictionary>()({
  method: 'GET',
  path: '/api/blade-system/dict-biz/dictionary',
  whileMustChange: true,
  auth: 'user',
  summary: "The entries of one of the tenant's business dictionaries, for selects",
});

export const frameOrigins = defineRoute<typeof S.frameOrigins>()({
  method: 'GET',
  path: '/api/blade-system/param/frame-origins',
  auth: 'user',
  summary: 'The origins the console may frame at /myiframe besides its own',
});

export const errorLogs = defineRoute<typeof S.errorLogs>()({
  method: 'POST',
  path: '/api/blade-log/error-logs',
  whileMustChange: true,
  auth: 'user',
  summary: "The console's local error log, sent by the user",
});
