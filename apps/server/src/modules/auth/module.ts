import { defineModule } from '../../platform/resource.ts';
import { authRoutes } from './routes.ts';

/** Sign-in: captcha, token grants, logout, user info, the session calls. */
export default defineModule((app, s) => {
  authRoutes(app, s);
});
