import { defineModule } from '../../platform/resource.ts';
import { resourceRoutes } from './routes.ts';

/** Files: put-file stores an upload and answers its link. */
export default defineModule((app, s) => {
  resourceRoutes(app, s);
});
