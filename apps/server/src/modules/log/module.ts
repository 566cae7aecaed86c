import { defineModule } from '../../platform/resource.ts';
import { logRoutes } from './routes.ts';

/** The console's error log, received from the browser. */
export default defineModule((app, s) => {
  logRoutes(app, s);
});
