/** The public entry of the module (docs/server.md "Module boundaries"): its plugin, and what other modules use. */
export { default } from './module.ts';
export {
  liveByCodes,
  placement,
  registerRegionUsage,
  writeRegions,
  type RegionRow,
  type ParentRow,
} from './service.ts';
export { region } from './table.ts';
export { EXPORTED as REGION_EXPORT_COLUMNS, EXPORTED_WIDTHS as REGION_EXPORT_WIDTHS } from './transfer.ts';
