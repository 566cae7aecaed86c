import { randomBytes } from 'node:crypto';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import ipaddr from 'ipaddr.js';
import { checkAddress } from '../../platform/addresses.ts';

/**
 * Where files are stored (docs/system-api.md "Files"): the server's own disk, or an S3-compatible service reached
 * through one kept client (@aws-sdk/client-s3, multipart uploads streamed by @aws-sdk/lib-storage). Nothing here
 * buffers a whole file.
 */
export type Store =
  | { kind: 'local'; dir: string }
  /** `spool`: where an upload is written on its way to the bucket (docs/system-api.md "Files"). */
  | { kind: 's3'; client: S3Client; bucket: string; spool: string };

/** Why a store failed: it could not be reached (down, refused address), or it refused the keys or the bucket. */
export class StorageError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'refused',
    message: string,
  ) {
    super(message);
  }
}

/** An address the server may not connect to (docs/devices.md "Camera addresses" rules; no tenant networks). */
export function refusedAddress(address: string, networks: string[]): string | null {
  const r = checkAddress(address, networks);
  return r ? ('address' in r ? r.address : address) : null;
}

/** dns.lookup that refuses private, loopback and link-local answers outside `networks` — checked at every connect. */
function guardedLookup(networks: string[]): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err, '', 0);
      const bad = found.map((f) => refusedAddress(f.address, networks)).find(Boolean);
      if (bad || !found.length) {
        const e = Object.assign(new Error(`address ${bad ?? hostname} is not allowed`), { code: 'EADDRNOTALLOWED' });
        return callback(e, '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, found);
      callback(null, found[0].address, found[0].family);
    });
  };
}

/** The endpoint's host when it is an address literal (a literal skips the lookup, so it is checked here). */
export function literalHost(endpoint: string): string | null {
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) ? host : null;
}

/**
 * The refused address of an endpoint, if any: its literal address, or one its name resolves to now. A name that does
 * not resolve now passes: every connection checks the addresses again (the guarded lookup).
 */
export async function endpointRefusal(endpoint: string, networks: string[]): Promise<string | null> {
  const literal = literalHost(endpoint);
  if (literal) return refusedAddress(literal, networks);
  const host = new URL(endpoint).hostname;
  const found = await dns.promises.lookup(host, { all: true }).catch(() => null);
  if (!found?.length) return null;
  return found.map((f) => refusedAddress(f.address, networks)).find(Boolean) ?? null;
}

export type S3Settings = {
  endpoint: string;
  region: string | null;
  bucket: string;
  accessKey: string;
  secretKey: string;
};

/** A client for one configuration: path-style addressing (MinIO, s3rver), the guarded lookup, short timeouts. */
export function s3Store(cfg: S3Settings, networks: string[], spool: string): Store {
  const literal = literalHost(cfg.endpoint);
  const bad = literal && refusedAddress(literal, networks);
  const lookup = guardedLookup(networks);
  const client = new S3Client({
    endpoint: bad ? 'http://0.0.0.0:9' : cfg.endpoint,
    region: cfg.region || 'us-east-1',
    forcePathStyle: true,
    maxAttempts: 2,
    // A plain body of known length (no aws-chunked trailer): every S3-compatible service takes it.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: cfg.accessKey, secretAccessKey: cfg.secretKey },
    requestHandler: {
      httpAgent: new http.Agent({ keepAlive: true, lookup }),
      httpsAgent: new https.Agent({ keepAlive: true, lookup }),
      connectionTimeout: 5000,
      requestTimeout: 60_000,
    },
  });
  return { kind: 's3', client, bucket: cfg.bucket, spool };
}

/** An S3 failure in the terms the user gets: the keys or the bucket refused, else the service unreachable. */
function explain(err: unknown): StorageError {
  const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const refused =
    ['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'NoSuchBucket', 'InvalidBucketName'].includes(
      e.name ?? '',
    ) ||
    status === 403 ||
    status === 404;
  return new StorageError(refused ? 'refused' : 'unreachable', `${e.name ?? e.code ?? 'Error'}: ${e.message ?? ''}`);
}

/** Stores the stream under `key`; on any failure nothing stays stored (a partial file or multipart is removed). */
export async function putObject(store: Store, key: string, body: Readable, mime: string): Promise<void> {
  if (store.kind === 'local') {
    await fs.promises.mkdir(store.dir, { recursive: true });
    const file = path.join(store.dir, key);
    try {
      await pipeline(body, fs.createWriteStream(file, { flags: 'wx' }));
    } catch (err) {
      await fs.promises.rm(file, { force: true });
      throw err;
    }
    return;
  }
  // Spooled to the server's disk first, then sent as one PUT of known length: a multipart upload holds each part
  // (5 MB at least) in memory, which 20 uploads at once turn into half a gigabyte (bench/oss.ts).
  await fs.promises.mkdir(store.spool, { recursive: true });
  const spooled = path.join(store.spool, `${randomBytes(16).toString('hex')}.part`);
  try {
    await pipeline(body, fs.createWriteStream(spooled, { flags: 'wx' }));
    const { size } = await fs.promises.stat(spooled);
    await store.client
      .send(
        new PutObjectCommand({
          Bucket: store.bucket,
          Key: key,
          Body: fs.createReadStream(spooled),
          ContentLength: size,
          ContentType: mime,
        }),
      )
      .catch((err: unknown) => {
        throw explain(err);
      });
  } finally {
    await fs.promises.rm(spooled, { force: true });
  }
}

/** The stored object as a stream and its size, or null when it is gone. */
export async function getObject(store: Store, key: string): Promise<{ body: Readable; size: number } | null> {
  if (store.kind === 'local') {
    const file = path.join(store.dir, key);
    const stat = await fs.promises.stat(file).catch(() => null);
    return stat ? { body: fs.createReadStream(file), size: stat.size } : null;
  }
  try {
    const out = await store.client.send(new GetObjectCommand({ Bucket: store.bucket, Key: key }));
    return { body: out.Body as Readable, size: Number(out.ContentLength ?? 0) };
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchKey') return null;
    throw explain(err);
  }
}

/** Removes the stored object (already gone: nothing to do). */
export async function removeObject(store: Store, key: string): Promise<void> {
  if (store.kind === 'local') return fs.promises.rm(path.join(store.dir, key), { force: true });
  try {
    await store.client.send(new DeleteObjectCommand({ Bucket: store.bucket, Key: key }));
  } catch (err) {
    throw explain(err);
  }
}
