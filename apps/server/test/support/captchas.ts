import type { Services } from '../../src/platform/services.ts';

/**
 * Lets a test read each captcha's code, as a person reads it off the image: wraps the app's captcha store (filled by
 * the auth module, `s.registry.captchas`). Production code has no such hook (docs/server.md "Module boundaries").
 */
export function watchCaptchas(s: Services, seen: (key: string, text: string) => void): void {
  const captchas = s.registry.captchas;
  if (!captchas) throw new Error('watchCaptchas: the auth module is not registered');
  const draw = captchas.draw;
  captchas.draw = async () => {
    const c = await draw();
    seen(c.key, c.text);
    return c;
  };
}
