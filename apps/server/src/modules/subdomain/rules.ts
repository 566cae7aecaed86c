import type { Msg } from '@atrium/contract';
import { subdomainTexts as texts } from './messages.ts';

/**
 * The shape rules of a sub-domain label (docs/subdomains.md "Legal names"), without the database: its characters,
 * its length, its edges, the punycode prefix and the reserved names. The list of reserved names is kept here alone.
 */

/** Names that are never a client's: infrastructure, mail, the console's own hosts. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  'www',
  'api',
  'admin',
  'administrator',
  'mail',
  'email',
  'webmail',
  'smtp',
  'imap',
  'pop',
  'pop3',
  'mx',
  'ftp',
  'sftp',
  'ns',
  'dns',
  'ntp',
  'vpn',
  'cdn',
  'static',
  'assets',
  'img',
  'console',
  'root',
  'system',
  'sys',
  'localhost',
  'autodiscover',
  'autoconfig',
  'status',
  'support',
  'help',
  'login',
  'auth',
  'oauth',
  'sso',
  'account',
  'test',
  'dev',
  'staging',
]);

/** Reserved families: ns1, ns2 …, mx1 …, www2 …, mail1 … (a name and digits). */
export const RESERVED_PATTERNS: readonly RegExp[] = [/^ns\d+$/, /^mx\d+$/, /^www\d+$/, /^mail\d+$/, /^smtp\d+$/];

export const isReserved = (label: string) => RESERVED_NAMES.has(label) || RESERVED_PATTERNS.some((p) => p.test(label));

/** A label as it is compared and stored: trimmed, lower case (DNS names do not distinguish case). */
export const normaliseLabel = (raw: string | null | undefined) => (raw ?? '').trim().toLowerCase();

/** Why a (normalised) label is refused by its shape, or null when its shape is legal. */
export function shapeReason(label: string): Msg | null {
  if (!label) return texts.empty;
  if (label.length < 3 || label.length > 32) return texts.length;
  if (!/^[a-z0-9-]+$/.test(label)) return texts.chars;
  if (!/^[a-z]/.test(label)) return texts.firstLetter;
  if (label.endsWith('-')) return texts.edgeHyphen;
  // RFC 5891: "xn--" marks punycode and any other "??--" is reserved for future encodings.
  if (label.slice(2, 4) === '--') return texts.punycode;
  if (isReserved(label)) return texts.reserved;
  return null;
}
