import { randomUUID } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import { captcha } from '../../db/schema/index.ts';
import { sha256Hex } from '../../platform/password.ts';
import type { Services } from '../../platform/services.ts';

export const CAPTCHA_TTL_MS = 5 * 60_000;

/** `observe` lets a test harness read the code it drew; the production start never passes one. */
export async function createCaptcha(
  s: Services,
  observe?: (key: string, text: string) => void,
): Promise<{ key: string; image: string }> {
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
  observe?.(key, c.text);
  return { key, image };
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
