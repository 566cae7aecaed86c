import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fill, flowApi as api, messages } from '@atrium/contract';
import { flowSchemas as schemas } from '@atrium/contract/schemas';
import { declared } from '../../../platform/declared.ts';
import { rawQuery, requireCode, writeAudit } from '../../../platform/crud.ts';
import { ok } from '../../../platform/envelope.ts';
import { AppError, badRequest } from '../../../platform/errors.ts';
import { isPlatformAdmin } from '../../../platform/access.ts';
import { requireAuth } from '../../../platform/guard.ts';
import type { Services } from '../../../platform/services.ts';
import { readTenant, withTenant } from '../../../platform/tenant-db.ts';
import { MAX_BPMN_BYTES } from '../bpmn/parse.ts';
import {
  changeState,
  deleteDeployments,
  deployFiles,
  deployModel,
  modelDetail,
  modelPage,
  removeModels,
  submitModel,
  targetTenants,
  type DeployFile,
} from '../admin.ts';
import { flowTexts as texts } from '../messages.ts';
import { definitionPage } from '../queries.ts';

const tags = ['flow'];
/** At most this many files in one upload (docs/workflow.md "Deployments"). */
export const MAX_DEPLOY_FILES = 10;

/** 模型管理 and 流程部署 (docs/workflow.md "Models and deployments"): services in admin.ts. */
export const adminRoutes: FastifyPluginAsync<{ s: Services }> = async (plain, { s }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  app.route({
    ...declared(api.modelList, schemas.modelList, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      return ok(await readTenant(s.db, auth.tenantId, (tx) => modelPage(tx, auth.tenantId, rawQuery(req))));
    },
  });

  app.route({
    ...declared(api.modelDetail, schemas.modelDetail, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      return ok(await readTenant(s.db, auth.tenantId, (tx) => modelDetail(tx, auth.tenantId, req.query.id)));
    },
  });

  // Saving a model: a new one needs model_add, a change model_edit.
  app.route({
    ...declared(api.modelSubmit, schemas.modelSubmit, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      await requireCode(s, req, req.body.id ? 'model_edit' : 'model_add');
      const out = await withTenant(s.db, auth.tenantId, async (tx) => {
        const saved = await submitModel(tx, auth, req.body, s.now());
        const after = await modelDetail(tx, auth.tenantId, saved.id);
        const { xml, ...summary } = after;
        void xml;
        await writeAudit(s, tx, auth, req.id, 'flow_model', req.body.id ? 'update' : 'insert', saved.id, null, summary);
        return summary;
      });
      return ok(out, req.body.id ? messages.updated : messages.added);
    },
  });

  app.route({
    ...declared(api.modelRemove, schemas.modelRemove, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      await withTenant(s.db, auth.tenantId, async (tx) => {
        await removeModels(tx, auth, req.query.ids, s.now());
        for (const id of new Set(req.query.ids))
          await writeAudit(s, tx, auth, req.id, 'flow_model', 'remove', id, null, null);
      });
      return ok(true, messages.deleted);
    },
  });

  app.route({
    ...declared(api.modelDeploy, schemas.modelDeploy, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const platform = await isPlatformAdmin(s, auth);
      const out = await withTenant(s.db, auth.tenantId, async (tx) => {
        const tenants = await targetTenants(tx, auth, req.body.tenantIds, platform);
        const done = await deployModel(tx, auth, req.body, tenants, s.now(), s.db);
        await writeAudit(s, tx, auth, req.id, 'flow_model', 'deploy', req.body.modelId, null, { tenants, ...done });
        return done;
      });
      return ok(out, texts.deployed);
    },
  });

  app.route({
    ...declared(api.managerList, schemas.managerList, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const page = await readTenant(s.db, auth.tenantId, (tx) =>
        definitionPage(tx, auth.tenantId, 'manager', rawQuery(req)),
      );
      return ok(page);
    },
  });

  app.route({
    ...declared(api.changeState, schemas.changeState, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const { processId, state } = req.query;
      const out = await withTenant(s.db, auth.tenantId, async (tx) => {
        const def = await changeState(tx, auth.tenantId, processId, state);
        await writeAudit(s, tx, auth, req.id, 'flow_definition', state, processId, null, def);
        return def;
      });
      return ok(out, state === 'suspend' ? texts.suspendedDone : texts.activated);
    },
  });

  app.route({
    ...declared(api.deployUpload, schemas.deployUpload, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const form = await uploadedFiles(req);
      const platform = await isPlatformAdmin(s, auth);
      const out = await withTenant(s.db, auth.tenantId, async (tx) => {
        const tenants = await targetTenants(tx, auth, form.tenantIds, platform);
        const done = await deployFiles(tx, auth, form.files, {
          main: s.db,
          category: form.category,
          tenants,
          now: s.now(),
        });
        const files = form.files.map((f) => f.name);
        for (const id of done.deploymentIds)
          await writeAudit(s, tx, auth, req.id, 'flow_deployment', 'upload', id, null, { files, tenants });
        return done;
      });
      return ok(out, texts.deployed);
    },
  });

  app.route({
    ...declared(api.deleteDeployment, schemas.deleteDeployment, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const cascade = req.query.cascade === true || req.query.cascade === 'true';
      const out = await withTenant(s.db, auth.tenantId, async (tx) => {
        const done = await deleteDeployments(s, tx, auth, req.query.deploymentIds, cascade, s.now());
        for (const id of new Set(req.query.deploymentIds))
          await writeAudit(s, tx, auth, req.id, 'flow_deployment', 'remove', id, null, { cascade, ...done });
        return done;
      });
      return ok(out, fill(texts.deploymentsDeleted, { n: out.deployments, ended: out.instancesEnded }));
    },
  });
};

const CATEGORY = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The upload's form: `files` (one or more .bpmn / .bpmn20.xml of at most 1 MiB each, at most ten), `category` and
 * `tenantIds` (a comma list). Anything else in it, or a file too large, is a 400 before anything is stored.
 */
async function uploadedFiles(req: FastifyRequest) {
  if (!req.isMultipart()) throw badRequest(texts.noFiles);
  const files: DeployFile[] = [];
  let category: string | null = null;
  let tenantIds: string[] | undefined;
  const parts = req.parts({ limits: { files: MAX_DEPLOY_FILES, fileSize: MAX_BPMN_BYTES, fields: 10 } });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        const name = cleanName(part.filename);
        if (!/\.(bpmn|bpmn20\.xml)$/i.test(name)) {
          part.file.resume();
          throw badRequest(fill(texts.badFileType, { file: name }));
        }
        const buf = await part.toBuffer();
        if (part.file.truncated) throw badRequest(fill(texts.fileTooLarge, { file: name }));
        files.push({ name, xml: buf.toString('utf8') });
      } else {
        const value = typeof part.value === 'string' ? part.value.trim() : '';
        if (part.fieldname === 'category') {
          if (value && !CATEGORY.test(value)) throw badRequest(texts.badCategory);
          category = value || null;
        } else if (part.fieldname === 'tenantIds')
          tenantIds = value
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean)
            .slice(0, 1000);
        else throw badRequest(fill(texts.unknownField, { name: part.fieldname.slice(0, 64) }));
      }
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    const code = (e as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw badRequest(fill(texts.tooManyFiles, { max: MAX_DEPLOY_FILES }));
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(fill(texts.fileTooLarge, { file: '' }));
    throw badRequest(texts.noFiles);
  }
  if (!files.length) throw badRequest(texts.noFiles);
  return { files, category, tenantIds };
}

/** A file name as sent, without a path, control characters or more than 100 characters. */
function cleanName(raw: string | undefined): string {
  const base = String(raw ?? '')
    .split(/[\\/]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return base.slice(-100) || 'file';
}
