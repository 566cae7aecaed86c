import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resourceApi } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { attach } from '../../db/schema/index.ts';
import { newId } from '../../db/ids.ts';
import { fromContract } from '../../platform/contract-route.ts';
import { ok } from '../../platform/envelope.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { mimeOf, sniff } from './files.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { resourceTexts as texts } from './messages.ts';

/**
 * Files are stored under <data dir>/uploads and served at /files/<random name>: the 128-bit random
 * name is the capability (an <img> cannot send the bearer header), and listing is impossible.
 */
/**
 * Stores the request's one multipart file (field "file") under the uploads folder and records it as an attachment
 * of `tenantId` (docs/system-api.md "Files"): the size limit, the type read from the bytes (never the name), and —
 * when `only` is given — those types alone. Answers what put-file answers.
 */
/** The error of a multipart body the parser could not read: its size limit, else a malformed body. */
function malformed(err: { code?: string; statusCode?: number }): never {
  if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(texts.tooLarge);
  if (err instanceof AppError) throw err;
  throw badRequest(texts.badMultipart);
}

export async function storeUpload(
  s: Services,
  req: FastifyRequest,
  owner: { tenantId: string; userId: string | null; maxBytes?: number; only?: string[] },
) {
  const dir = path.join(s.config.dataDir, 'uploads');
  if (!req.isMultipart()) throw badRequest(texts.noFile);
  const maxBytes = Math.min(owner.maxBytes ?? Infinity, s.config.uploadMaxBytes);
  // A body that is not well-formed multipart (no or a wrong boundary, cut short) is the sender's fault: a 400
  // (docs/server.md "Bad input"), whether the parser trips on the first part or while reading the file.
  const part = await req.file({ limits: { fileSize: maxBytes, files: 1 } }).catch(malformed);
  if (!part) throw badRequest(texts.noFile);
  // The name is kept as the file's original name: a control character (a NUL the database refuses) is a 400.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(part.filename)) {
    part.file.resume();
    throw badRequest(texts.badFileName);
  }
  const buf = await part.toBuffer().catch(malformed);
  if (part.file.truncated) throw badRequest(texts.tooLarge);
  if (!buf.length) throw badRequest(texts.noFile);
  const kind = sniff(buf, part.filename);
  if (!kind || (owner.only && !owner.only.includes(kind.ext))) throw badRequest(texts.badType);
  const name = `${randomBytes(16).toString('hex')}.${kind.ext}`;
  await fs.promises.mkdir(dir, { recursive: true });
  await fs.promises.writeFile(path.join(dir, name), buf, { flag: 'wx' });
  const link = `/files/${name}`;
  const attachId = newId();
  await withTenant(s.db, owner.tenantId, (tx) =>
    tx.insert(attach).values({
      id: attachId,
      tenantId: owner.tenantId,
      link,
      domain: '',
      name,
      originalName: part.filename.slice(0, 500),
      extension: kind.ext,
      attachSize: buf.length,
      createUser: owner.userId,
      createTime: s.now(),
    }),
  );
  return { link, domain: '', name, originalName: part.filename, attachId };
}

export function resourceRoutes(app: FastifyInstance, s: Services) {
  const dir = path.join(s.config.dataDir, 'uploads');

  app.route({
    ...fromContract(resourceApi.putFile, apiSchemas.resource.putFile, ['resource']),
    handler: async (req) => {
      const auth = requireAuth(req);
      const stored = await storeUpload(s, req, { tenantId: auth.tenantId, userId: auth.userId });
      return ok(stored, texts.uploaded);
    },
  });

  app.get('/files/:name', { config: { auth: 'none' }, schema: { hide: true } }, async (req, reply) => {
    const { name } = req.params as { name: string };
    const m = /^([0-9a-f]{32})\.([a-z]{2,5})$/.exec(name);
    const kind = m ? mimeOf[m[2]] : undefined;
    if (!m || !kind) throw notFound();
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat) throw notFound();
    reply
      .header('content-type', kind.mime)
      .header('content-length', stat.size)
      .header('cache-control', 'private, max-age=86400');
    if (!kind.inline) reply.header('content-disposition', 'attachment');
    return reply.send(fs.createReadStream(file));
  });
}
