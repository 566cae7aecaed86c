import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Services } from './services.ts';

/**
 * Secrets kept for the server's own use (SMS keys, SMTP passwords): AES-256-GCM under a key derived from the
 * signing key (docs/outbox.md "Secrets"). Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url). A value sealed under
 * another signing key does not open: the secret must be entered again.
 */
const PURPOSE = 'stored-secrets/v1';

export function seal(s: Services, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', s.deriveKey(PURPOSE), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The plain secret, or null when the value was sealed under another key (or is damaged). */
export function unseal(s: Services, sealed: string | null | undefined): string | null {
  if (!sealed) return null;
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', s.deriveKey(PURPOSE), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
