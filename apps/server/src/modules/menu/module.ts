import { defineModule } from '../../platform/resource.ts';
import { menuAdminRoutes } from './admin.ts';
import { menuRoutes } from './routes.ts';

/** Menus: a user's own menus, buttons and top menus (routes.ts) and menu management with the grant trees (admin.ts). */
export default defineModule((app, s) => {
  menuRoutes(app, s);
  menuAdminRoutes(app, s);
});
