import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import type { Db } from '../../db/client.ts';
import { unseal } from '../../platform/secrets.ts';
import { getObject, s3Store, StorageError, type Store } from './storage.ts';
import { ossConfig } from './table.ts';

/** What an upload goes through (docs/system-api.md "Files"): a store, the configuration's id, code and size limit. */
export type Target = { store: Store; ossId: string | null; ossCode: string | null; maxBytes: number };

type OssRow = typeof ossConfig.$inferSelect;

/**
 * The server's own disk (ATRIUM_UPLOAD_DIR, shared by the servers of a cluster): uploads without an enabled
 * configuration, and local-disk configurations.
 */
export const localStore = (s: Services): Store => ({ kind: 'local', dir: s.config.uploadDir });

/** One client per configuration version (a saved change makes a new one; docs/system-api.md "Files"). */
const clients = new WeakMap<Services, Map<string, Store>>();

/** The store of a configuration row (enabled or not, removed or not: files stored earlier stay readable). */
export function storeOf(s: Services, row: OssRow): Store {
  if (row.category !== 2) return localStore(s);
  let cache = clients.get(s);
  if (!cache) clients.set(s, (cache = new Map()));
  const key = `${row.id}:${row.version}`;
  let store = cache.get(key);
  if (!store) {
    const secretKey = unseal(s, row.secretKeySealed);
    if (secretKey === null) throw new StorageError('refused', 'the secret key cannot be opened; enter it again');
    store = s3Store(
      {
        endpoint: row.endpoint ?? '',
        region: row.region,
        bucket: row.bucketName ?? '',
        accessKey: row.accessKey ?? '',
        secretKey,
      },
      s.config.ossPrivateNetworks,
      path.join(s.config.uploadDir, '.spool'),
    );
    for (const k of cache.keys()) if (k.startsWith(`${row.id}:`)) cache.delete(k);
    cache.set(key, store);
  }
  return store;
}

/** The tenant's enabled configuration as a target; without one, the server's disk under the server's limit. */
export async function activeTarget(s: Services, tenantId: string): Promise<Target> {
  const [row] = await withTenant(s.db, tenantId, (tx) =>
    tx
      .select()
      .from(ossConfig)
      .where(and(eq(ossConfig.tenantId, tenantId), eq(ossConfig.status, 2), eq(ossConfig.isDeleted, 0))),
  );
  if (!row) return { store: localStore(s), ossId: null, ossCode: null, maxBytes: s.config.uploadMaxBytes };
  return { store: storeOf(s, row), ossId: row.id, ossCode: row.ossCode, maxBytes: row.maxSizeKb * 1024 };
}

/** The store an attachment lies in: its configuration's (read in the caller's transaction), else the disk. */
export async function storeOfAttachment(s: Services, tx: Db, tenantId: string, ossId: string | null): Promise<Store> {
  if (!ossId) return localStore(s);
  const [row] = await tx
    .select()
    .from(ossConfig)
    .where(and(eq(ossConfig.tenantId, tenantId), eq(ossConfig.id, ossId)));
  if (!row) throw new StorageError('unreachable', 'the storage configuration is gone');
  return storeOf(s, row);
}

/**
 * An attachment's stored object as a stream (e-mail attachments, docs/outbox.md), read from the configuration it was
 * stored through; null when it is gone. Opens its own transaction: call it outside one.
 */
export async function openAttachment(
  s: Services,
  tenantId: string,
  file: { ossId: string | null; objectKey: string | null; name: string },
) {
  const store = await withTenant(s.db, tenantId, (tx) => storeOfAttachment(s, tx, tenantId, file.ossId));
  const got = await getObject(store, file.objectKey ?? file.name);
  return got?.body ?? null;
}
