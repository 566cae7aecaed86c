import { defineRoute } from '../route.ts';
import type * as S from './region.schemas.ts';

/**
 * Regions beyond the CRUD routes, and the settings of a region (docs/system-api.md "Regions", "Config by region");
 * schemas in region.schemas.ts.
 */

export const names = defineRoute<typeof S.names>()({
  method: 'GET',
  path: '/api/blade-system/region/names',
  auth: 'user',
  summary: 'Names of regions by code (a comma list of at most REGION_NAMES_MAX), for the region cells of lists',
});

export const exportXlsx = defineRoute<typeof S.exportXlsx>()({
  method: 'GET',
  path: '/api/blade-system/region/export',
  auth: 'user',
  permission: 'region_export',
  wire: 'stream',
  summary: 'The xlsx workbook of a subtree (code) or of every region',
});

export const importXlsx = defineRoute<typeof S.importXlsx>()({
  method: 'POST',
  path: '/api/blade-system/region/import',
  auth: 'user',
  permission: 'region_import',
  platform: true,
  bodyType: 'multipart',
  summary: 'Import regions from an xlsx workbook (multipart field "file"); all rows or none',
});

export const configByRegionType = defineRoute<typeof S.configByRegionType>()({
  method: 'GET',
  path: '/api/blade-auth/sysConfigRegion/getSysConfigByRegionType',
  auth: 'user',
  summary: 'The effective settings of a region and type: tenant default → ancestors → region, key by key',
});
