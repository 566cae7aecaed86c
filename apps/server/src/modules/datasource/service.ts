import dns from 'node:dns';
import pg from 'pg';
import { and, eq } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import type { Db } from '../../db/client.ts';
import { checkAddress } from '../../platform/addresses.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { unseal } from '../../platform/secrets.ts';
import type { Services } from '../../platform/services.ts';
import { datasourceTexts as texts } from './messages.ts';
import { datasource } from './table.ts';

/** How long a connection test or a data source's first connection may take. */
const CONNECT_TIMEOUT_MS = 5000;

/** The host of a data source URL (brackets of an IPv6 literal removed). */
const hostOf = (url: string) => new URL(url.replace(/^postgres(ql)?:/, 'http:')).hostname.replace(/^\[|\]$/g, '');

/**
 * A data source's address against the rules of every address a user typed (platform/addresses.ts): a private,
 * loopback or reserved address only inside ATRIUM_DATASOURCE_PRIVATE_NETWORKS. A name is resolved now and each of
 * its addresses checked. Answers the first address (the one a connection is pinned to), or null when the name does
 * not resolve now: a save lets that pass, a connection does not (`connectionOf`).
 */
export async function checkDatasourceAddress(url: string, networks: string[]): Promise<string | null> {
  const host = hostOf(url);
  const found = await dns.promises.lookup(host, { all: true }).catch(() => []);
  for (const f of found) {
    const refused = checkAddress(f.address, networks);
    if (refused) {
      const text = fill(texts.addressRefused, { address: 'address' in refused ? refused.address : f.address });
      throw badRequest(text, [{ field: 'url', message: text }]);
    }
  }
  return found[0]?.address ?? null;
}

/** A data source record as a connection string (user and unsealed password put in); a 400 when it cannot open. */
export async function connectionOf(s: Services, db: Db, id: string): Promise<{ id: string; url: string }> {
  const [row] = await db
    .select()
    .from(datasource)
    .where(and(eq(datasource.id, id), eq(datasource.isDeleted, 0)))
    .limit(1);
  if (!row) throw new AppError(404, texts.notFound);
  const password = row.passwordSealed ? unseal(s, row.passwordSealed) : '';
  if (password === null) throw badRequest(texts.sealedLost);
  const address = await checkDatasourceAddress(row.url, s.config.datasourcePrivateNetworks);
  if (!address) throw badRequest(fill(texts.unreachable, { reason: `${hostOf(row.url)}: not found` }));
  // The connection goes to the address checked, not to whatever the name resolves to next (no rebinding).
  const u = new URL(row.url);
  u.hostname = address.includes(':') ? `[${address}]` : address;
  u.username = encodeURIComponent(row.username);
  u.password = encodeURIComponent(password);
  return { id: row.id, url: u.toString() };
}

/** Connects and runs `select 1`; a failure is a 400 naming the database's reason (never the password). */
export async function testConnection(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  c.on('error', () => {});
  try {
    await c.connect();
    const r = await c.query<{ v: string }>('select version() as v');
    return r.rows[0].v;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    const reason = (e.code ? `${e.code}: ` : '') + String(e.message ?? err).replace(/\/\/[^@/]*@/g, '//');
    throw badRequest(fill(texts.unreachable, { reason: reason.slice(0, 200) }));
  } finally {
    await c.end().catch(() => {});
  }
}
