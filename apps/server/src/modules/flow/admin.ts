import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { tenant } from '../../db/schema/index.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { parseListQuery, toPage, type ListRules } from '../../platform/paging.ts';
import { PLATFORM_TENANT } from '../../platform/access.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { databaseOfTenant } from '../../platform/tenant-route.ts';
import { bpmnError, validateDefinitions, type ProcessSummary } from './bpmn/validate.ts';
import { deployDefinition, setSuspended } from './engine/definitions.ts';
import type { Services } from '../../platform/services.ts';
import { endInstance } from './engine/end.ts';
import type { EffectCaller } from './effects.ts';
import { flowTexts as texts } from './messages.ts';
import { definitionsById } from './queries.ts';
import { flowDefinition, flowDeployment, flowInstance, flowModel, INSTANCE } from './table.ts';

/**
 * The workflow's administration (docs/workflow.md "Models and deployments"): models saved from the modeler, deployed
 * as new versions of their process, uploaded files deployed, definitions suspended or activated, deployments deleted.
 * Each runs in the caller's tenant transaction; a deployment for other tenants (the platform's `tenantIds`) writes each
 * tenant's copy under that tenant's row-level security context in the same transaction.
 */

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
export type AdminCaller = { tenantId: string; userId: string };

// ——— Models ———

const modelRules: ListRules = {
  filters: {
    modelKey: { column: flowModel.modelKey, op: 'like' },
    name: { column: flowModel.name, op: 'like' },
    category: { column: flowModel.category, op: 'eq' },
  },
  sorts: {
    modelKey: flowModel.modelKey,
    name: flowModel.name,
    createTime: flowModel.createTime,
    updateTime: flowModel.updateTime,
  },
  createTime: flowModel.createTime,
  defaultSort: [desc(flowModel.id)],
};

const deployedVersion = sql<
  number | null
>`(select max(d.def_version) from flow_definition d where d.tenant_id = ${flowModel.tenantId} and d.def_key = ${flowModel.modelKey} and d.is_deleted = 0)`;

const modelColumns = {
  id: flowModel.id,
  modelKey: flowModel.modelKey,
  name: flowModel.name,
  category: flowModel.category,
  description: flowModel.description,
  version: flowModel.version,
  createTime: flowModel.createTime,
  updateTime: flowModel.updateTime,
  deployedVersion,
};
type ModelRow = {
  id: string;
  modelKey: string;
  name: string;
  category: string | null;
  description: string | null;
  version: number;
  createTime: Date;
  updateTime: Date | null;
  deployedVersion: number | null;
};
const modelRecord = (r: ModelRow) => ({
  ...r,
  createTime: iso(r.createTime)!,
  updateTime: iso(r.updateTime),
  deployedVersion: r.deployedVersion == null ? null : Number(r.deployedVersion),
});

export async function modelPage(tx: Db, tenantId: string, query: Record<string, unknown>) {
  const q = parseListQuery(query, modelRules);
  const where = and(eq(flowModel.tenantId, tenantId), eq(flowModel.isDeleted, 0), q.where);
  const rows = (await tx
    .select(modelColumns)
    .from(flowModel)
    .where(where)
    .orderBy(...q.orderBy)
    .limit(q.size)
    .offset((q.current - 1) * q.size)) as ModelRow[];
  const [{ n }] = await tx.select({ n: count() }).from(flowModel).where(where);
  return toPage(rows.map(modelRecord), Number(n), q);
}

async function modelRow(tx: Db, tenantId: string, id: string, lock = false) {
  if (!/^\d{1,19}$/.test(String(id))) throw new AppError(404, texts.modelMissing);
  const q = tx
    .select({ ...modelColumns, xml: flowModel.xml })
    .from(flowModel)
    .where(and(eq(flowModel.tenantId, tenantId), eq(flowModel.id, id), eq(flowModel.isDeleted, 0)));
  const [row] = (lock ? await q.for('update') : await q) as (ModelRow & { xml: string | null })[];
  if (!row) throw new AppError(404, texts.modelMissing);
  return row;
}

export async function modelDetail(tx: Db, tenantId: string, id: string) {
  const row = await modelRow(tx, tenantId, id);
  return { ...modelRecord(row), xml: row.xml ?? '' };
}

export type ModelInput = {
  id?: string;
  modelKey: string;
  name: string;
  category?: string;
  description?: string;
  xml: string;
  version?: number;
};

/** A model is saved only when its XML passes the deploy checks: a 400 names each element that breaks a rule. */
export async function submitModel(tx: Db, by: AdminCaller, input: ModelInput, now: Date) {
  const checked = await validateDefinitions(input.xml);
  if (!checked.ok) throw bpmnError(checked.problems);
  const values = {
    modelKey: input.modelKey,
    name: input.name,
    category: input.category || null,
    description: input.description || null,
    xml: input.xml,
    updateUser: by.userId,
    updateTime: now,
  };
  try {
    if (!input.id) {
      const id = newId();
      await tx
        .insert(flowModel)
        .values({ ...values, id, tenantId: by.tenantId, createUser: by.userId, createTime: now });
      return { id, before: null };
    }
    const before = await modelRow(tx, by.tenantId, input.id, true);
    if (input.version !== undefined && input.version !== before.version) throw new AppError(409, texts.modelStale);
    await tx
      .update(flowModel)
      .set({ ...values, version: sql`${flowModel.version} + 1` })
      .where(and(eq(flowModel.tenantId, by.tenantId), eq(flowModel.id, input.id)));
    return { id: input.id, before };
  } catch (e) {
    if ((e as { code?: string }).code === '23505' || (e as { cause?: { code?: string } }).cause?.code === '23505')
      throw badRequest(texts.modelKeyTaken, [{ field: 'modelKey', message: texts.modelKeyTaken }]);
    throw e;
  }
}

/** Removes models of the tenant (every id must be one: another tenant's is a 404); deployed versions stay. */
export async function removeModels(tx: Db, by: AdminCaller, ids: string[], now: Date) {
  const unique = [...new Set(ids)];
  if (!unique.length) throw badRequest(texts.chooseModels);
  const rows = await tx
    .update(flowModel)
    .set({ isDeleted: 1, updateUser: by.userId, updateTime: now, version: sql`${flowModel.version} + 1` })
    .where(and(eq(flowModel.tenantId, by.tenantId), inArray(flowModel.id, unique), eq(flowModel.isDeleted, 0)))
    .returning({ id: flowModel.id });
  if (rows.length !== unique.length) throw new AppError(404, texts.modelMissing);
  return rows.length;
}

// ——— Deployments ———

/**
 * The tenants a deployment is for: the caller's own, or — the platform only — the tenants named (each must exist).
 * Another tenant named by anyone else is refused.
 */
export async function targetTenants(tx: Db, by: AdminCaller, tenantIds: string[] | undefined, platformAdmin: boolean) {
  const wanted = [...new Set((tenantIds ?? []).map((t) => t.trim()).filter(Boolean))];
  if (!wanted.length) return [by.tenantId];
  if (wanted.some((t) => !/^\d{6,12}$/.test(t))) throw badRequest(texts.badTenantIds);
  if (wanted.every((t) => t === by.tenantId)) return [by.tenantId];
  if (by.tenantId !== PLATFORM_TENANT || !platformAdmin) throw new AppError(403, texts.tenantIdsPlatformOnly);
  const found = await tx
    .select({ tenantId: tenant.tenantId })
    .from(tenant)
    .where(and(inArray(tenant.tenantId, wanted), eq(tenant.isDeleted, 0)));
  const known = new Set(found.map((r) => r.tenantId));
  const missing = wanted.filter((t) => !known.has(t));
  if (missing.length) throw badRequest(fill(texts.unknownTenants, { ids: missing.slice(0, 10).join(', ') }));
  return wanted;
}

/** Runs `fn` as `tenantId` inside the caller's transaction (its row-level security context), then returns to the caller's. */
async function asTenant<T>(tx: Db, caller: string, tenantId: string, fn: () => Promise<T>): Promise<T> {
  if (tenantId === caller) return fn();
  await tx.execute(sql`select set_config('app.tenant_id', ${tenantId}, true)`);
  try {
    return await fn();
  } finally {
    await tx.execute(sql`select set_config('app.tenant_id', ${caller}, true)`);
  }
}

export type DeployFile = { name: string; xml: string };

/**
 * Deploys files (each one a BPMN document with one executable process) under a category in every target tenant:
 * one deployment per file and tenant, named after the file. Every file is checked before anything is stored, so a
 * bad one leaves nothing deployed (a 400 naming the file and the problem).
 */
export async function deployFiles(
  tx: Db,
  by: AdminCaller,
  files: DeployFile[],
  opts: { main: Db; category?: string | null; tenants: string[]; now: Date; key?: string; name?: string },
) {
  if (!files.length) throw badRequest(texts.noFiles);
  const processes: ProcessSummary[] = [];
  for (const f of files) {
    const checked = await validateDefinitions(f.xml);
    if (!checked.ok) throw fileError(f.name, bpmnError(checked.problems));
    if (checked.processes.length !== 1) throw fileError(f.name, badRequest(texts.noProcess));
    processes.push(checked.processes[0]);
  }
  const deploymentIds: string[] = [];
  const ours: string[] = [];
  const deployIn = async (on: Db, t: string) => {
    for (const [i, f] of files.entries()) {
      const proc = processes[i];
      const deploymentId = newId();
      await on.insert(flowDeployment).values({
        id: deploymentId,
        tenantId: t,
        name: f.name.slice(0, 100),
        category: opts.category ?? null,
        deployTime: opts.now,
        createUser: by.userId,
        createTime: opts.now,
        updateTime: opts.now,
      });
      const def = await deployDefinition(on, t, {
        key: opts.key ?? proc.key,
        name: opts.name ?? proc.name ?? f.name.replace(/(\.bpmn20\.xml|\.bpmn)$/i, ''),
        xml: f.xml,
        category: opts.category ?? null,
        deploymentId,
        userId: by.userId,
      }).catch((e: unknown) => {
        throw e instanceof AppError ? fileError(f.name, e) : e;
      });
      deploymentIds.push(deploymentId);
      if (t === by.tenantId) ours.push(def.id);
    }
  };
  const dbOf = (t: string) => databaseOfTenant(opts.main, t);
  for (const t of opts.tenants) {
    // A tenant on another database than the caller's (a moved one: docs/tenants.md "Routing") gets its copy in a
    // transaction of its own there; the others in the caller's, as writes into another tenant.
    if (dbOf(t) !== dbOf(by.tenantId)) await withTenant(opts.main, t, (on) => deployIn(on, t));
    else await asTenant(tx, by.tenantId, t, () => deployIn(tx, t));
  }
  return { deploymentIds, definitions: await definitionsById(tx, by.tenantId, ours) };
}

/** A file's problem, named with the file. */
function fileError(file: string, e: AppError): AppError {
  const name = file.slice(0, 100);
  const text = typeof e.text === 'string' ? { zh: e.text, en: e.text } : e.text;
  return new AppError(
    e.status,
    {
      zh: fill(texts.fileProblem, { file: name, detail: text.zh }).zh,
      en: fill(texts.fileProblem, { file: name, detail: text.en }).en,
    },
    e.fields,
  );
}

/** Deploys a model as a new version of its process (key = the model key) in the target tenants. */
export async function deployModel(
  tx: Db,
  by: AdminCaller,
  input: { modelId: string; category?: string | null },
  tenants: string[],
  now: Date,
  main: Db,
) {
  const model = await modelRow(tx, by.tenantId, input.modelId);
  if (!model.xml) throw badRequest(texts.modelEmpty);
  const category = input.category || model.category;
  const file = { name: `${model.modelKey}.bpmn`, xml: model.xml };
  const out = await deployFiles(tx, by, [file], {
    main,
    category,
    tenants,
    now,
    key: model.modelKey,
    name: model.name,
  });
  return { deploymentId: out.deploymentIds[0], definitions: out.definitions };
}

/** Suspends (`suspend`) or activates (`active`) a definition of the tenant; answers it as the list shows it. */
export async function changeState(tx: Db, tenantId: string, definitionId: string, state: 'active' | 'suspend') {
  await setSuspended(tx, tenantId, definitionId, state === 'suspend');
  const [def] = await definitionsById(tx, tenantId, [definitionId]);
  return def;
}

/**
 * Deletes deployments of the tenant with their definitions. Running instances of them are ended only with `cascade`
 * (each marked deleted with the reason, its open tasks cancelled); without it a 409 says how many run.
 */
export async function deleteDeployments(
  s: { registry?: Services['registry'] },
  tx: Db,
  by: EffectCaller,
  ids: string[],
  cascade: boolean,
  now: Date,
) {
  const unique = [...new Set(ids)];
  if (!unique.length) throw badRequest(texts.chooseDeployments);
  const found = await tx
    .select({ id: flowDeployment.id })
    .from(flowDeployment)
    .where(
      and(
        eq(flowDeployment.tenantId, by.tenantId),
        inArray(flowDeployment.id, unique),
        eq(flowDeployment.isDeleted, 0),
      ),
    )
    .for('update');
  if (found.length !== unique.length) throw new AppError(404, texts.deploymentMissing);
  // Locks in the order a complete takes them: definitions, then their running instances (engine/service.ts).
  const defs = await tx
    .select({ id: flowDefinition.id })
    .from(flowDefinition)
    .where(and(eq(flowDefinition.tenantId, by.tenantId), inArray(flowDefinition.deploymentId, unique)))
    .orderBy(flowDefinition.id)
    .for('update');
  const defIds = defs.map((d) => d.id);
  const running = defIds.length
    ? await tx
        .select({
          id: flowInstance.id,
          definitionId: flowInstance.definitionId,
          businessKey: flowInstance.businessKey,
          starterId: flowInstance.starterId,
        })
        .from(flowInstance)
        .where(
          and(
            eq(flowInstance.tenantId, by.tenantId),
            inArray(flowInstance.definitionId, defIds),
            eq(flowInstance.status, INSTANCE.running),
          ),
        )
        .orderBy(flowInstance.id)
        .for('update')
    : [];
  if (running.length && !cascade) throw new AppError(409, fill(texts.deploymentRunning, { n: running.length }));
  const reason = `${texts.deploymentDeleted.zh} / ${texts.deploymentDeleted.en}`;
  for (const inst of running) await endInstance(s, tx, by, { ...inst, tenantId: by.tenantId }, reason, now);
  const live = (c: SQL) => and(eq(flowDefinition.tenantId, by.tenantId), c);
  if (defIds.length)
    await tx
      .update(flowDefinition)
      .set({ isDeleted: 1, updateUser: by.userId, updateTime: now, version: sql`${flowDefinition.version} + 1` })
      .where(live(inArray(flowDefinition.id, defIds)));
  await tx
    .update(flowDeployment)
    .set({ isDeleted: 1, updateUser: by.userId, updateTime: now, version: sql`${flowDeployment.version} + 1` })
    .where(and(eq(flowDeployment.tenantId, by.tenantId), inArray(flowDeployment.id, unique)));
  return { deployments: unique.length, instancesEnded: running.length };
}
