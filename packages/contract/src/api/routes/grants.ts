import { defineRoute } from '../route.ts';
import type * as S from './grants.schemas.ts';

/** The grant dialogs' reads (docs/system-api.md "Roles", "Top menus"); schemas in grants.schemas.ts. */

export const roleGrantTree = defineRoute<typeof S.roleGrantTree>()({
  method: 'GET',
  path: '/api/blade-system/menu/grant-tree',
  auth: 'user',
  permission: 'role_grant',
  summary: 'What the caller may grant a role: menus, data scopes and API scopes they hold',
});

export const roleTreeKeys = defineRoute<typeof S.roleTreeKeys>()({
  method: 'GET',
  path: '/api/blade-system/menu/role-tree-keys',
  auth: 'user',
  permission: 'role_grant',
  summary: 'The menus and scopes the given roles hold',
});

export const topGrantTree = defineRoute<typeof S.topGrantTree>()({
  method: 'GET',
  path: '/api/blade-system/menu/grant-top-tree',
  auth: 'user',
  permission: 'topmenu_setting',
  summary: 'The menus the caller may put under a top menu',
});

export const topTreeKeys = defineRoute<typeof S.topTreeKeys>()({
  method: 'GET',
  path: '/api/blade-system/menu/top-tree-keys',
  auth: 'user',
  permission: 'topmenu_setting',
  summary: 'The menus under the given top menus',
});

export const topMenuGrant = defineRoute<typeof S.topMenuGrant>()({
  method: 'POST',
  path: '/api/blade-system/topmenu/grant',
  auth: 'user',
  permission: 'topmenu_setting',
  summary: 'Replaces the menus under the given top menus (only menus the caller holds)',
});
