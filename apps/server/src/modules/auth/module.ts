import { defineModule } from '../../platform/resource.ts';
import { createCaptcha, type Captchas } from './captcha.ts';
import { authRoutes } from './routes.ts';

/** Sign-in: captcha, token grants, logout, user info, the session calls. */
export default defineModule((app, s) => {
  const captchas: Captchas = { draw: () => createCaptcha(s) };
  s.registry.captchas = captchas;
  authRoutes(app, s, captchas);
});
