import { defineRoute } from '../route.ts';
import type * as S from './system.schemas.ts';

/**
 * System management beyond the CRUD routes (docs/system-api.md "Dictionaries", "Menus", "Roles", "Tenants"); schemas
 * in system.schemas.ts.
 */

export const dictParentList = defineRoute<typeof S.dictParentList>()({
  method: 'GET',
  path: '/api/blade-system/dict/parent-list',
  auth: 'user',
  permission: 'dict',
  platform: true,
  summary: 'The system dictionaries (one parent record each), paged',
});

export const dictChildList = defineRoute<typeof S.dictChildList>()({
  method: 'GET',
  path: '/api/blade-system/dict/child-list',
  auth: 'user',
  permission: 'dict',
  platform: true,
  summary: "The entries of one system dictionary, as a tree under its parent's id",
});

export const bizDictParentList = defineRoute<typeof S.bizDictParentList>()({
  method: 'GET',
  path: '/api/blade-system/dict-biz/parent-list',
  auth: 'user',
  permission: 'dictbiz',
  summary: "The tenant's business dictionaries (one parent record each), paged",
});

export const bizDictChildList = defineRoute<typeof S.bizDictChildList>()({
  method: 'GET',
  path: '/api/blade-system/dict-biz/child-list',
  auth: 'user',
  permission: 'dictbiz',
  summary: "The entries of one business dictionary, as a tree under its parent's id",
});

export const lazyMenuList = defineRoute<typeof S.lazyMenuList>()({
  method: 'GET',
  path: '/api/blade-system/menu/lazy-menu-list',
  auth: 'user',
  permission: 'menu',
  platform: true,
  summary: 'One level of the menus (no buttons) under parentId, with hasChildren',
});

export const menuList = defineRoute<typeof S.menuList>()({
  method: 'GET',
  path: '/api/blade-system/menu/menu-list',
  auth: 'user',
  permission: 'menu',
  platform: true,
  summary: 'The menus (no buttons), paged',
});

export const roleTreeById = defineRoute<typeof S.roleTreeById>()({
  method: 'GET',
  path: '/api/blade-system/role/tree-by-id',
  auth: 'user',
  permission: 'role',
  summary: 'The parent picker of a role: every role of the tenant but itself and those below it',
});

export const tenantDatasource = defineRoute<typeof S.tenantDatasource>()({
  method: 'POST',
  path: '/api/blade-system/tenant/datasource',
  auth: 'user',
  permission: 'tenant_setting',
  platform: true,
  summary: "Moves a tenant's rows to a data source (empty datasourceId: back to the main database) and routes it there",
});

export const tenantExport = defineRoute<typeof S.tenantExport>()({
  method: 'GET',
  path: '/api/blade-system/tenant/export',
  auth: 'user',
  permission: 'tenant_setting',
  platform: true,
  wire: 'stream',
  summary: 'One tenant\'s data as a gzip\'d NDJSON file in a consistent snapshot (docs/tenants.md "Export format")',
});

export const tenantImport = defineRoute<typeof S.tenantImport>()({
  method: 'POST',
  path: '/api/blade-system/tenant/import',
  auth: 'user',
  permission: 'tenant_setting',
  platform: true,
  bodyType: 'multipart',
  summary:
    'Import a tenant export (multipart field "file") into that tenant, all rows or none; replace=true overwrites',
});
