import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { resourceApi } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { attach } from '../../db/schema/index.ts';
import { newId } from '../../db/ids.ts';
import { fromContract } from '../../platform/contract-route.ts';
import { ok } from '../../platform/envelope.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { fileReader } from '../../platform/file-access.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { extensionsOf, mimeOf, sniff, type FileKind } from './files.ts';
import { resourceTexts as texts } from './messages.ts';
import { activeTarget, storeOfAttachment } from './service.ts';
import { getObject, putObject, removeObject, StorageError } from './storage.ts';

/**
 * Uploads and the files they make (docs/system-api.md "Files"). An upload goes through the tenant's enabled storage
 * configuration (or the server's disk), streamed: its first 8 KiB are read to recognise the type, then the rest flows
 * to the store while it is counted against the size limit. Served at /files/<name> (the server's disk) or
 * /files/<tenant>/<name> (a configuration's store) to the tenant that owns it only: the files cookie or a bearer token
 * names the reader (platform/file-access.ts).
 */

/** The error of a multipart body the parser could not read: its size limit, else a malformed body. */
function malformed(err: { code?: string; statusCode?: number }): never {
  if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(texts.tooLarge);
  if (err instanceof AppError) throw err;
  if (err instanceof StorageError) throw storageFailure(err);
  throw badRequest(texts.badMultipart);
}

/** A store that failed: 503 with what to do, the file not stored. */
const storageFailure = (err: StorageError) =>
  new AppError(503, err.reason === 'refused' ? texts.storageRefused : texts.storageUnreachable);

/** The original name's problem, if any: control characters, a path, too long (refused before anything is stored). */
function nameProblem(name: string) {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return texts.badFileName;
  if (/[/\\]/.test(name) || name.split('.').every((p) => p === '') || name.includes('..')) return texts.badPathName;
  if ([...name].length > 255) return texts.longFileName;
  return null;
}

/** The name's extension when it names a type other than the content's (a PNG called x.pdf, HTML called x.jpg). */
function extensionMismatch(name: string, kind: FileKind) {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return false;
  const ext = name.slice(dot + 1).toLowerCase();
  return !extensionsOf(kind).includes(ext);
}

const HEAD = 8192;

/**
 * Stores the request's one multipart file (field "file") through the tenant's enabled storage and records it as an
 * attachment of `tenantId` (docs/system-api.md "Files"): the name checked, the size limit (the configuration's, the
 * caller's, the server's), the type read from the bytes and checked against the extension, and — when `only` is
 * given — those types alone. Nothing is recorded unless the object is stored; nothing stays stored if the record
 * fails. Answers what put-file answers.
 */
export async function storeUpload(
  s: Services,
  req: FastifyRequest,
  owner: { tenantId: string; userId: string | null; maxBytes?: number; only?: string[] },
) {
  if (!req.isMultipart()) throw badRequest(texts.noFile);
  const target = await activeTarget(s, owner.tenantId);
  const maxBytes = Math.min(owner.maxBytes ?? Infinity, s.config.uploadMaxBytes, target.maxBytes);
  // A body that is not well-formed multipart (no or a wrong boundary, cut short) is the sender's fault: a 400
  // (docs/server.md "Bad input"), whether the parser trips on the first part or while reading the file.
  // preservePath: the name as sent, so that a path in it is refused rather than silently cut off.
  const part = await req.file({ limits: { fileSize: maxBytes, files: 1 }, preservePath: true }).catch(malformed);
  if (!part) throw badRequest(texts.noFile);
  const drain = async () => {
    for await (const _ of part.file);
  };
  const problem = nameProblem(part.filename);
  if (problem) {
    await drain().catch(() => undefined);
    throw badRequest(problem);
  }
  const it = part.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let read = 0;
  let ended = false;
  while (read < HEAD) {
    const r = await it.next().catch(malformed);
    if (r.done) {
      ended = true;
      break;
    }
    chunks.push(r.value);
    read += r.value.length;
  }
  const head = Buffer.concat(chunks);
  if (part.file.truncated) throw badRequest(texts.tooLarge);
  if (!head.length) throw badRequest(texts.noFile);
  const kind = sniff(head, part.filename);
  const refusal =
    !kind || (owner.only && !owner.only.includes(kind.ext))
      ? texts.badType
      : extensionMismatch(part.filename, kind)
        ? texts.extensionMismatch
        : null;
  if (refusal || !kind) {
    await drain().catch(() => undefined);
    throw badRequest(refusal ?? texts.badType);
  }
  let size = 0;
  const tooLarge = badRequest(texts.tooLarge);
  const body = Readable.from(
    (async function* () {
      size += head.length;
      yield head;
      if (!ended)
        for (let r = await it.next(); !r.done; r = await it.next()) {
          size += r.value.length;
          yield r.value;
        }
      if (part.file.truncated) throw tooLarge;
    })(),
  );
  const name = `${randomBytes(16).toString('hex')}.${kind.ext}`;
  const objectKey = target.store.kind === 'local' ? name : `${owner.tenantId}/${name}`;
  await putObject(target.store, objectKey, body, kind.mime).catch(malformed);
  const link = target.store.kind === 'local' ? `/files/${name}` : `/files/${owner.tenantId}/${name}`;
  const attachId = newId();
  try {
    await withTenant(s.db, owner.tenantId, (tx) =>
      tx.insert(attach).values({
        id: attachId,
        tenantId: owner.tenantId,
        link,
        domain: '',
        name,
        originalName: part.filename,
        extension: kind.ext,
        mime: kind.mime,
        attachSize: size,
        ossId: target.ossId,
        ossCode: target.ossCode,
        objectKey,
        createUser: owner.userId,
        createTime: s.now(),
        updateTime: s.now(),
      }),
    );
  } catch (err) {
    await removeObject(target.store, objectKey).catch(() => undefined);
    throw err;
  }
  return { link, domain: '', name, originalName: part.filename, attachId };
}

/**
 * Sends a stored object with the headers that keep it from running in the console's origin. A stored name never
 * changes content, so the name is its ETag; `no-cache` makes the browser ask again each time (answered 304 once the
 * reader is checked), so a signed-out browser no longer shows a cached file (docs/system-api.md "Files").
 */
function send(reply: FastifyReply, kind: FileKind, file: { body: Readable; size: number }, etag: string) {
  reply
    .header('etag', etag)
    .header('content-type', kind.mime)
    .header('content-length', file.size)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
    .header('cache-control', 'private, no-cache');
  if (!kind.inline) reply.header('content-disposition', 'attachment');
  return reply.send(file.body);
}

const NAME = /^([0-9a-f]{32})\.([a-z]{2,5})$/;

export function resourceRoutes(app: FastifyInstance, s: Services) {
  app.route({
    ...fromContract(resourceApi.putFile, apiSchemas.resource.putFile, ['resource']),
    handler: async (req) => {
      const auth = requireAuth(req);
      const stored = await storeUpload(s, req, { tenantId: auth.tenantId, userId: auth.userId });
      return ok(stored, texts.uploaded);
    },
  });

  // A file is served to its own tenant only: the reader is the files cookie's or the bearer token's session, and its
  // record is looked for in the reader's tenant (row-level security), never across tenants; anything else is a 404,
  // whatever the link (docs/system-api.md "Files").
  const serve = async (req: FastifyRequest, reply: FastifyReply, inLink: string | null, name: string) => {
    const m = NAME.exec(name);
    const kind = m ? mimeOf[m[2]] : undefined;
    if (!m || !kind || (inLink !== null && !/^\d{1,12}$/.test(inLink))) throw notFound();
    const reader = await fileReader(req, s.tokens, app.access);
    if (!reader || (inLink !== null && inLink !== reader)) throw notFound();
    const file = await withTenant(s.db, reader, async (tx) => {
      const [row] = await tx
        .select({ ossId: attach.ossId, objectKey: attach.objectKey, link: attach.link })
        .from(attach)
        .where(and(eq(attach.tenantId, reader), eq(attach.name, name), eq(attach.isDeleted, 0)));
      // The server's disk serves its own links, a configuration's store those naming the tenant.
      if (!row || row.link !== (inLink === null ? `/files/${name}` : `/files/${inLink}/${name}`)) return null;
      return { store: await storeOfAttachment(s, tx, reader, row.ossId), key: row.objectKey ?? name };
    }).catch((err: unknown) => {
      if (err instanceof StorageError) throw storageFailure(err);
      throw err;
    });
    if (!file) throw notFound();
    const etag = `"${name}"`;
    if (req.headers['if-none-match'] === etag) {
      return reply.code(304).header('etag', etag).header('cache-control', 'private, no-cache').send();
    }
    const got = await getObject(file.store, file.key).catch((err: unknown) => {
      throw err instanceof StorageError ? storageFailure(err) : err;
    });
    if (!got) throw notFound();
    return send(reply, kind, got, etag);
  };

  app.get('/files/:name', { config: { auth: 'none' }, schema: { hide: true } }, async (req, reply) =>
    serve(req, reply, null, (req.params as { name: string }).name),
  );
  // A file in a configuration's store, read through the configuration it was stored with, enabled or not.
  app.get('/files/:tenant/:name', { config: { auth: 'none' }, schema: { hide: true } }, async (req, reply) => {
    const { tenant, name } = req.params as { tenant: string; name: string };
    return serve(req, reply, tenant, name);
  });
}

export { storageFailure };
