import { randomUUID } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import { captcha } from '../../db/schema/index.ts';
import { sha256Hex } from '../../platform/password.ts';
import type { Services } from '../../platform/services.ts';

export const CAPTCHA_TTL_MS = 5 * 60_000;

/** The app's captchas (`s.registry.captchas`): the route draws through it, so a test harness can wrap `draw`. */
export type Captchas = { draw: () => Promise<{ key: string; image: string; text: string }> };

declare module '../../platform/services.ts' {
  interface Registry {
    /** Filled by the auth module (modules/auth/module.ts). */
    captchas?: Captchas;
  }
}

/** A new captcha: its code is stored hashed; `text` is what the image shows (never answered). */
export async function createCaptcha(s: Services): Promise<{ key: string; image: string; text: string }> {
  const c = svgCaptcha.create({
    size: 4,
    noise: 2,
    ignoreChars: '0o1ilI',
    color: true,
    background: '#f2f6fc',
    width: 120,
    height: 40,
  });
  const key = randomUUID();
  const now = s.now();
  await s.db.delete(captcha).where(lt(captcha.expiresAt, now));
  await s.db
    .insert(captcha)
    .values({ key, codeHash: sha256Hex(c.text.toLowerCase()), expiresAt: new Date(now.getTime() + CAPTCHA_TTL_MS) });
  const image = `data:image/svg+xml;base64,${Buffer.from(c.data).toString('base64')}`;
  return { key, image, text: c.text };
}

/** Single use: the row is deleted by the check whatever its outcome. */
export async function consumeCaptcha(s: Services, key: string | undefined, code: string | undefined): Promise<boolean> {
  if (!key || !code || key.length > 36) return false;
  const rows = await s.db.delete(captcha).where(eq(captcha.key, key)).returning();
  const row = rows[0];
  if (!row) return false;
  if (row.expiresAt.getTime() < s.now().getTime()) return false;
  return row.codeHash === sha256Hex(code.trim().toLowerCase());
}
