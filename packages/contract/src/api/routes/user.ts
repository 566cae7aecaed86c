import { defineRoute } from '../route.ts';
import type * as S from './user.schemas.ts';

/** The user's own account, and a user's platform settings (docs/system-api.md "Users"); schemas in user.schemas.ts. */

export const info = defineRoute<typeof S.info>()({
  method: 'GET',
  path: '/api/blade-user/info',
  whileMustChange: true,
  auth: 'user',
  summary: 'The signed-in user, as the personal page shows it',
});

export const updateInfo = defineRoute<typeof S.updateInfo>()({
  method: 'POST',
  path: '/api/blade-user/update-info',
  auth: 'user',
  summary: "Changes the caller's own avatar, names, phone and e-mail",
});

export const updatePassword = defineRoute<typeof S.updatePassword>()({
  method: 'POST',
  path: '/api/blade-user/update-password',
  whileMustChange: true,
  auth: 'user',
  summary: "Changes the caller's own password (the old one, the new one twice)",
});

export const registerGuest = defineRoute<typeof S.registerGuest>()({
  method: 'POST',
  path: '/api/blade-user/register-guest',
  auth: 'none',
  summary: "A guest's application for an account of a tenant (approved by its administrator)",
});

export const platformDetail = defineRoute<typeof S.platformDetail>()({
  method: 'GET',
  path: '/api/blade-user/platform-detail',
  auth: 'user',
  permission: 'user',
  summary: "A user's platform type and extension, for the user screen's platform dialog",
});
