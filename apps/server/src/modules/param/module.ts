import { param as paramDef } from '@atrium/contract/resources/system/param';
import { param } from '../../db/schema/index.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';

/**
 * System parameters: plain CRUD on the definition. A write moves the global cache epoch (the table is listed in
 * platform/live.ts), since policies may be read through the caches.
 */
export default defineModule((app, s) => {
  resourceRoutes(app, s, bindResource(paramDef, param));
});
