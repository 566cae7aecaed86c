import { param as paramDef } from '@atrium/contract/resources/system/param';
import { param } from '../../db/schema/index.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';

/** System parameters: plain CRUD on the definition; every write drops the caches, since policies are read through them. */
export default defineModule((app, s) => {
  resourceRoutes(app, s, bindResource(paramDef, param, { afterWrite: () => s.cache.clearAll() }));
});
