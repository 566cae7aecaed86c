import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';
import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog, cacheEpoch } from '../../db/schema/index.ts';
import { newId } from '../../db/ids.ts';
import { GLOBAL_SCOPE } from '../../platform/cache.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { databaseOfTenant } from '../../platform/tenant-route.ts';
import { blackInfo } from './table.ts';
import { rowsOf } from '../../db/rows.ts';

/**
 * Blacklist enforcement (docs/product.md "Blacklist", docs/system-api.md "Blacklist"): one function answers "is this
 * blocked" — `isBlocked(s, tenantId, type, value)` — for every module where a value enters (login, verification
 * codes and registration, sub-domain names, devices). Entries of the platform tenant apply to every tenant.
 *
 * Each tenant's live, enabled entries (and the platform's) are read once into matchers and kept in the shared cache
 * under the cache epochs: a blacklist write moves its tenant's epoch (the platform's moves the global one), so every
 * server drops its copy at its next request. Expiry is checked at each call, so an entry that runs out needs no write.
 */

/** The tenant whose entries apply to every tenant. */
export const PLATFORM_TENANT = '000000';

/** What an entry's value is read as (the definition's `type`). */
export const BLACK_TYPE = { phone: 1, ip: 2, word: 3, emailDomain: 4, deviceCode: 5 } as const;
export type BlackType = (typeof BLACK_TYPE)[keyof typeof BLACK_TYPE];

// ---------------------------------------------------------------------------------------------------------------
// Normal forms: an entry is stored in the form the checks compare against, and a value is put in the same form.

/** A phone without spaces, dashes, brackets and the +86 / 0086 country prefix. */
export function normalisePhone(v: string): string {
  const bare = v.replace(/[\s\-().]/g, '');
  const m = /^(?:\+?86|0086)(1\d{10})$/.exec(bare);
  return m ? m[1] : bare;
}

/** A word, or a text searched for words: compatibility forms folded (full-width letters) and lower-cased. */
export const normaliseWord = (v: string) => v.normalize('NFKC').toLowerCase();

/** Digits written for letters, and the letter a 1 is taken for besides i: each folded to one letter. */
const LOOK_ALIKES: Record<string, string> = { '0': 'o', '1': 'i', l: 'i', '3': 'e', '5': 's', '7': 't' };
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/gu;
const LOOK_ALIKE = /[01l357]/g;

/**
 * The form words are matched in (docs/system-api.md "Blacklist"): `normaliseWord`, then separators dropped (anything
 * that is not a letter, digit or mark: `ev-il`, `e.v i_l`) and look-alike digits folded (0→o, 1 and l→i, 3→e, 5→s,
 * 7→t: `evi1`, `3vil`). A word and the text searched are folded alike, so `evil` blocks `ev-i1` and `e-v-1-l`. Two
 * linear passes over the text: the automaton's single pass stays the costly part.
 */
export const foldWord = (v: string) =>
  normaliseWord(v)
    .replace(SEPARATORS, '')
    .replace(LOOK_ALIKE, (c) => LOOK_ALIKES[c]);

/** The domain of an email address (or a bare domain) in its ASCII form, lower case, no final dot; '' if none. */
export function emailDomainOf(v: string): string {
  const at = v.lastIndexOf('@');
  const domain = (at >= 0 ? v.slice(at + 1) : v).trim().replace(/\.$/, '');
  if (!domain) return '';
  return domainToASCII(domain.normalize('NFKC')).toLowerCase();
}

export const normaliseDeviceCode = (v: string) => v.trim().toUpperCase();

type Address = { family: 4 | 6; bits: bigint };

/** The address as a number, from the bytes ipaddr.js reads. */
const toAddress = (a: ipaddr.IPv4 | ipaddr.IPv6): Address => ({
  family: a.kind() === 'ipv4' ? 4 : 6,
  bits: a.toByteArray().reduce((n, byte) => (n << 8n) | BigInt(byte), 0n),
});

/**
 * An IPv4 or IPv6 address read by ipaddr.js (zero-compressed, upper case, a zone `%eth0` dropped); an IPv4-mapped
 * IPv6 address (::ffff:a.b.c.d, ::ffff:c000:209) is its IPv4 address. Only the forms `node:net` `isIP` accepts: no
 * shorthand IPv4 (`127.1`, `0x7f.0.0.1`), which ipaddr.js would read.
 */
export function parseAddress(raw: string): Address | null {
  const v = raw.trim().replace(/%.*$/, '');
  if (!isIP(v)) return null;
  return toAddress(ipaddr.process(v));
}

/** The text of an address: dotted IPv4, or IPv6 in its short form (RFC 5952, ipaddr.js). */
export const formatAddress = ({ family, bits }: Address): string => {
  const length = family === 4 ? 4 : 16;
  const bytes = Array.from({ length }, (_, i) => Number((bits >> BigInt((length - 1 - i) * 8)) & 0xffn));
  return ipaddr.fromByteArray(bytes).toString();
};

const widthOf = (family: 4 | 6) => (family === 4 ? 32 : 128);
const maskOf = (family: 4 | 6, prefix: number) => {
  const width = widthOf(family);
  return ((1n << BigInt(prefix)) - 1n) << BigInt(width - prefix);
};

export type Range = Address & { prefix: number };

/** An address or a CIDR range ("10.0.0.0/8", "2001:db8::/32"); a bare address is its own range. */
export function parseRange(raw: string): Range | null {
  const [ip, bits, more] = raw.trim().split('/');
  if (more !== undefined) return null;
  const v = ip.replace(/%.*$/, '');
  if (!isIP(v)) return null;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return null;
  const read = ipaddr.parse(v);
  const a = toAddress(ipaddr.process(v));
  if (bits === undefined) return { ...a, prefix: widthOf(a.family) };
  // A prefix written for an IPv4-mapped IPv6 address counts from its IPv4 part.
  const prefix = Number(bits) - (read.kind() === 'ipv6' && a.family === 4 ? 96 : 0);
  if (prefix < 0 || prefix > widthOf(a.family)) return null;
  return { ...a, prefix };
}

/** A range's text: the address alone for a single address, else network/prefix. */
export const formatRange = (r: Range) =>
  r.prefix === widthOf(r.family) ? formatAddress(r) : `${formatAddress(r)}/${r.prefix}`;

/** The range with its host bits cleared. */
export const networkOf = (r: Range): Range => ({ ...r, bits: r.bits & maskOf(r.family, r.prefix) });

// ---------------------------------------------------------------------------------------------------------------
// Matchers. An entry's expiry is kept with it (ms; Infinity = never): a value is blocked by an entry still in force.

type Expiring = Map<string, number>;
const keep = (m: Expiring, key: string, until: number) => m.set(key, Math.max(m.get(key) ?? 0, until));

/**
 * Words found in a text (case-insensitive containment) with an Aho–Corasick automaton: one pass over the text
 * whatever the number of words, instead of one test per word. `best[state]` is the latest expiry of any word ending
 * at that state or at one of its suffixes, so a hit is one comparison.
 */
export class WordMatcher {
  /** Each state's transitions by UTF-16 code unit (small integer keys: the fast case of a Map). */
  private readonly next: Map<number, number>[] = [new Map()];
  private readonly fail: Int32Array;
  private readonly best: Float64Array;
  readonly size: number;

  constructor(words: Iterable<[string, number]>) {
    const own: number[] = [0];
    let count = 0;
    for (const [word, until] of words) {
      if (!word) continue;
      count++;
      let node = 0;
      for (let i = 0; i < word.length; i++) {
        const c = word.charCodeAt(i);
        let child = this.next[node].get(c);
        if (child === undefined) {
          child = own.length;
          own.push(0);
          this.next.push(new Map());
          this.next[node].set(c, child);
        }
        node = child;
      }
      own[node] = Math.max(own[node], until);
    }
    this.size = count;
    const n = own.length;
    this.fail = new Int32Array(n);
    this.best = new Float64Array(n);
    const queue: number[] = [...this.next[0].values()];
    for (let head = 0; head < queue.length; head++) {
      const u = queue[head];
      this.best[u] = Math.max(own[u], this.best[this.fail[u]]);
      for (const [c, v] of this.next[u]) {
        let f = this.fail[u];
        while (f !== 0 && !this.next[f].has(c)) f = this.fail[f];
        const g = this.next[f].get(c);
        this.fail[v] = g !== undefined && g !== v ? g : 0;
        queue.push(v);
      }
    }
  }

  /** Whether a word still in force at `now` occurs in `text` (already normalised). */
  foundIn(text: string, now: number): boolean {
    if (this.size === 0) return false;
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let to = this.next[s].get(c);
      while (to === undefined && s !== 0) {
        s = this.fail[s];
        to = this.next[s].get(c);
      }
      s = to ?? 0;
      if (this.best[s] > now) return true;
    }
    return false;
  }
}

/**
 * Address ranges by prefix length: a check masks the address once per prefix length in use, so its cost does not
 * grow with the number of entries. Kept instead of `node:net` `BlockList`, which tests its rules one by one and
 * keeps no expiry: measured once (a micro-bench of `blocks` for four probe addresses, loaded machine), 1,000 /24 and
 * /48 entries cost 17 µs a check here and 61 µs with `BlockList`, 10,000 cost 120 µs and 741 µs; with 10 entries
 * both 10.5 µs.
 */
class RangeMatcher {
  private readonly byPrefix = new Map<number, Map<bigint, number>>();
  private prefixes: number[] = [];

  add(r: Range, until: number) {
    let m = this.byPrefix.get(r.prefix);
    if (!m) {
      this.byPrefix.set(r.prefix, (m = new Map()));
      this.prefixes = [...this.byPrefix.keys()];
    }
    const net = r.bits & maskOf(r.family, r.prefix);
    m.set(net, Math.max(m.get(net) ?? 0, until));
  }

  has(a: Address, now: number): boolean {
    for (const p of this.prefixes) {
      const until = this.byPrefix.get(p)!.get(a.bits & maskOf(a.family, p));
      if (until !== undefined && until > now) return true;
    }
    return false;
  }
}

export type Entry = { type: number; value: string; expireTime: Date | null };

/** One tenant's entries, ready to answer. */
export class Blacklist {
  private readonly phones: Expiring = new Map();
  private readonly domains: Expiring = new Map();
  private readonly devices: Expiring = new Map();
  private readonly v4 = new RangeMatcher();
  private readonly v6 = new RangeMatcher();
  readonly words: WordMatcher;
  /** How many lists this process has built: a burst of cold misses adds one (test/blacklist-enforce.test.ts). */
  static builds = 0;

  constructor(entries: Entry[]) {
    Blacklist.builds++;
    const words = new Map<string, number>();
    for (const e of entries) {
      const until = e.expireTime ? e.expireTime.getTime() : Infinity;
      switch (e.type) {
        case BLACK_TYPE.phone:
          keep(this.phones, normalisePhone(e.value), until);
          break;
        case BLACK_TYPE.ip: {
          const r = parseRange(e.value);
          if (r) (r.family === 4 ? this.v4 : this.v6).add(r, until);
          break;
        }
        case BLACK_TYPE.word: {
          const w = foldWord(e.value.trim());
          if (w) keep(words, w, until);
          break;
        }
        case BLACK_TYPE.emailDomain: {
          const d = emailDomainOf(e.value.replace(/^@/, ''));
          if (d) keep(this.domains, d, until);
          break;
        }
        case BLACK_TYPE.deviceCode:
          keep(this.devices, normaliseDeviceCode(e.value), until);
          break;
      }
    }
    this.words = new WordMatcher(words);
  }

  blocks(type: number, value: string, now: number): boolean {
    const live = (m: Expiring, key: string) => (m.get(key) ?? 0) > now;
    switch (type) {
      case BLACK_TYPE.phone:
        return live(this.phones, normalisePhone(value));
      case BLACK_TYPE.ip: {
        const a = parseAddress(value);
        return !!a && (a.family === 4 ? this.v4 : this.v6).has(a, now);
      }
      case BLACK_TYPE.word:
        return this.words.foundIn(foldWord(value), now);
      case BLACK_TYPE.emailDomain: {
        // The domain itself or any domain above it: a.b.example.com → b.example.com → example.com → com.
        let d = emailDomainOf(value);
        while (d) {
          if (live(this.domains, d)) return true;
          const dot = d.indexOf('.');
          d = dot < 0 ? '' : d.slice(dot + 1);
        }
        return false;
      }
      case BLACK_TYPE.deviceCode:
        return live(this.devices, normaliseDeviceCode(value));
      default:
        return false;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The cached lists and the one question.

/** The cache epoch a blacklist write of this tenant moves: the platform's entries count for every tenant. */
export const blacklistScope = (tenantId: string) => (tenantId === PLATFORM_TENANT ? GLOBAL_SCOPE : tenantId);

const CACHE_KEY = 'blacklist';

/** The tenant's live, enabled entries still in force. */
const entriesOf = (tx: Db, tenantId: string, now: Date) =>
  tx
    .select({ type: blackInfo.type, value: blackInfo.value, expireTime: blackInfo.expireTime })
    .from(blackInfo)
    .where(
      and(
        eq(blackInfo.tenantId, tenantId),
        eq(blackInfo.isDeleted, 0),
        eq(blackInfo.status, 1),
        or(isNull(blackInfo.expireTime), gt(blackInfo.expireTime, now)),
      ),
    );

/**
 * Reads a tenant's entries under that tenant's row-level-security context: in a transaction of its own, or inside
 * the caller's (`tx`) by switching the transaction's tenant for this one read and back — the platform's entries are
 * read this way from any tenant's transaction (as tenant provisioning writes into a new tenant).
 */
async function read(s: Services, tenantId: string, tx?: Db): Promise<Entry[]> {
  const now = s.now();
  if (!tx) return withTenant(s.db, tenantId, (t) => entriesOf(t, tenantId, now));
  const [setting] = await rowsOf<{ tenant: string | null }>(
    tx,
    sql`select current_setting('app.tenant_id', true) as tenant`,
  );
  const prev = setting?.tenant ?? '';
  if (prev === tenantId) return entriesOf(tx, tenantId, now);
  // A tenant on another database than the transaction's (a moved one, or the platform read from a moved tenant's
  // transaction: docs/tenants.md "Routing") is read there, in a transaction of its own (PostgreSQL only: PGlite
  // never routes).
  if (databaseOfTenant(s.db, prev) !== databaseOfTenant(s.db, tenantId))
    return withTenant(s.db, tenantId, (t) => entriesOf(t, tenantId, now));
  await tx.execute(sql`select set_config('app.tenant_id', ${tenantId}, true)`);
  const rows = await entriesOf(tx, tenantId, now);
  await tx.execute(sql`select set_config('app.tenant_id', ${prev}, true)`);
  return rows;
}

/**
 * One tenant's own entries (without the platform's), from the cache. Cold misses at once each read the entries, but
 * only the first builds the matchers (the word automaton of 10,000 words is the costly part); the others take its.
 */
export const blacklistOf = (s: Services, tenantId: string, tx?: Db): Promise<Blacklist> =>
  s.cache.getBuilt(
    tenantId,
    CACHE_KEY,
    () => read(s, tenantId, tx),
    (rows) => new Blacklist(rows),
  );

/**
 * Reads the cache epochs of a tenant, the platform and the global scope, as a signed-in request's live-state query
 * does: a public call (login, registration) then sees another server's blacklist write at once.
 */
async function observeEpochs(s: Services, tenantId: string, tx?: Db): Promise<void> {
  const rows = await (tx ?? s.db)
    .select({ scope: cacheEpoch.scope, epoch: cacheEpoch.epoch })
    .from(cacheEpoch)
    .where(inArray(cacheEpoch.scope, [...new Set([tenantId, PLATFORM_TENANT, GLOBAL_SCOPE])]));
  const epoch = (scope: string) => BigInt(rows.find((r) => r.scope === scope)?.epoch ?? 0);
  s.cache.observe(tenantId, epoch(tenantId), epoch(GLOBAL_SCOPE));
  if (tenantId !== PLATFORM_TENANT) s.cache.observe(PLATFORM_TENANT, epoch(PLATFORM_TENANT), epoch(GLOBAL_SCOPE));
}

export type BlockedOptions = {
  /**
   * The caller's transaction, when it asks from inside one: a cache miss reads through it (the embedded database
   * has one connection, and a read opening its own transaction would wait for ever).
   */
  tx?: Db;
  /**
   * A call outside a signed-in request (public routes: login, verification codes, registration): read the cache
   * epochs first (one small query), so a write made on another server counts at once.
   */
  publicCall?: boolean;
};

/**
 * Whether `value` is blocked for `tenantId` as a value of `type` (1 phone, 2 IP, 3 text searched for words, 4 email
 * address or domain, 5 device code): by one of the tenant's own entries or the platform's, live, enabled and not
 * expired. Answered from the cache; a miss reads the entries in a transaction of its own (the embedded database
 * has one connection): from inside a transaction pass it as `opts.tx`. The answer says nothing of the entry: the
 * caller refuses with its own message.
 */
export async function isBlocked(
  s: Services,
  tenantId: string,
  type: BlackType,
  value: string | null | undefined,
  opts: BlockedOptions = {},
): Promise<boolean> {
  if (value === null || value === undefined || value === '') return false;
  if (opts.publicCall) await observeEpochs(s, tenantId, opts.tx);
  const now = s.now().getTime();
  const platform = await blacklistOf(s, PLATFORM_TENANT, opts.tx);
  if (platform.blocks(type, value, now)) return true;
  if (tenantId === PLATFORM_TENANT) return false;
  return (await blacklistOf(s, tenantId, opts.tx)).blocks(type, value, now);
}

/** A refusal because of the blacklist, as an audit row of the tenant (the value's type, never the entry). */
export async function auditBlocked(
  s: Services,
  tenantId: string,
  requestId: string,
  what: { entity: string; type: BlackType; detail?: Record<string, unknown> },
): Promise<void> {
  await withTenant(s.db, tenantId, (tx) =>
    tx.insert(auditLog).values({
      id: newId(),
      tenantId,
      userId: null,
      action: 'blocked',
      entity: what.entity,
      entityId: null,
      before: null,
      after: JSON.stringify({ blackType: what.type, ...what.detail }),
      requestId,
      createTime: s.now(),
    }),
  );
}
