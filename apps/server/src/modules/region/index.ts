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
