import { createRequire } from 'node:module';
import { bpmnError, validateDefinitions } from '../bpmn/validate.ts';
import { and, eq, sql } from 'drizzle-orm';
import * as Elements from 'bpmn-elements';
import BpmnModdle from 'bpmn-moddle';
import serializer, { TypeResolver, type SerializableContext } from 'moddle-context-serializer';
import { fill } from '@atrium/contract';
import type { Db } from '../../../db/client.ts';
import { newId } from '../../../db/ids.ts';
import { AppError, badRequest } from '../../../platform/errors.ts';
import { flowTexts as texts } from '../messages.ts';
import { flowDefinition, flowDeployment, type UserTaskInfo } from '../table.ts';

/**
 * Process definitions for the engine (docs/workflow.md "The engine"): a model's XML read once into the context
 * bpmn-engine runs (kept per definition id: a stored definition never changes), and `deployDefinition`, which stores
 * a new version of a key.
 */

const camunda = createRequire(import.meta.url)('camunda-bpmn-moddle/resources/camunda.json') as object;

/** A model read for the engine. */
export type ParsedModel = {
  sourceContext: SerializableContext;
  processId: string;
  processName: string | null;
  userTasks: UserTaskInfo[];
  /** Whether any element has a timer: a model without one has no `flow_timer` rows to read or rewrite. */
  hasTimers: boolean;
  /** The XML it was read from (what a worker thread of the engine's pool parses for itself, engine/pool.ts). */
  xml: string;
};

type ModdleElement = {
  $type: string;
  id?: string;
  name?: string;
  isExecutable?: boolean;
  assignee?: string;
  candidateGroups?: string;
  formKey?: string;
  eventDefinitions?: ModdleElement[];
  flowElements?: ModdleElement[];
  rootElements?: ModdleElement[];
};

/** Reads a BPMN XML (bpmn-moddle with the camunda extensions); bad XML or no executable process → 400. */
export async function parseModel(xml: string): Promise<ParsedModel> {
  let context: Awaited<ReturnType<BpmnModdle['fromXML']>>;
  try {
    context = await new BpmnModdle({ camunda }).fromXML(xml.trim());
  } catch (e) {
    throw badRequest(fill(texts.badModel, { detail: firstLine(e) }));
  }
  const root = context.rootElement as unknown as ModdleElement;
  const processes = (root.rootElements ?? []).filter((e) => e.$type === 'bpmn:Process' && e.isExecutable !== false);
  if (processes.length !== 1 || !processes[0].id) throw badRequest(texts.noProcess);
  const userTasks: UserTaskInfo[] = [];
  let hasTimers = false;
  const walk = (elements: ModdleElement[] = []) => {
    for (const e of elements) {
      if (e.eventDefinitions?.some((d) => d.$type === 'bpmn:TimerEventDefinition')) hasTimers = true;
      if (e.$type === 'bpmn:UserTask' && e.id)
        userTasks.push({
          id: e.id,
          name: e.name ?? null,
          assignee: e.assignee ?? null,
          candidateGroups: e.candidateGroups ?? null,
          formKey: e.formKey ?? null,
        });
      walk(e.flowElements);
    }
  };
  walk(processes[0].flowElements);
  let sourceContext: SerializableContext;
  try {
    sourceContext = serializer(context, TypeResolver(Elements as Record<string, unknown>));
  } catch (e) {
    throw badRequest(fill(texts.badModel, { detail: firstLine(e) }));
  }
  return {
    sourceContext,
    processId: processes[0].id,
    processName: processes[0].name ?? null,
    userTasks,
    hasTimers,
    xml,
  };
}

const firstLine = (e: unknown) =>
  String((e as Error)?.message ?? e)
    .split('\n')[0]
    .slice(0, 200);

/** Parsed models by definition id: a definition's XML never changes, so an entry never goes stale. */
const parsed = new Map<string, Promise<ParsedModel>>();
const PARSED_KEPT = 500;

/** The parsed model of a stored definition, read from `xml` the first time this process needs it. */
export function parsedDefinition(definitionId: string, xml: () => Promise<string>): Promise<ParsedModel> {
  const hit = parsed.get(definitionId);
  if (hit) {
    // Most recently used last, so the oldest is dropped first.
    parsed.delete(definitionId);
    parsed.set(definitionId, hit);
    return hit;
  }
  const p = xml().then(parseModel);
  p.catch(() => parsed.delete(definitionId));
  parsed.set(definitionId, p);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
  return p;
}

export type DeployInput = {
  key: string;
  name: string;
  xml: string;
  category?: string | null;
  /** The deployment it belongs to; a deployment of its own is made when none is given. */
  deploymentId?: string | null;
  userId?: string | null;
};

const KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * Checks the model (docs/workflow.md "Checks at save and deploy": a 400 naming each element that breaks a rule) and
 * stores it as a new version of the definition `key` in the caller's tenant transaction.
 */
export async function deployDefinition(
  tx: Db,
  tenantId: string,
  input: DeployInput,
): Promise<{ id: string; version: number; deploymentId: string }> {
  const checked = await validateDefinitions(input.xml);
  if (!checked.ok) throw bpmnError(checked.problems);
  return storeDefinition(tx, tenantId, input);
}

/**
 * Stores a new version of the definition `key`, checked or not: the version is the highest of the key + 1, taken
 * under a transaction lock on the key so two deployments of one key get two versions. The engine runs what is stored
 * with no script runner and the safe expressions only, so a model stored without the checks still runs no code.
 */
export async function storeDefinition(
  tx: Db,
  tenantId: string,
  input: DeployInput,
): Promise<{ id: string; version: number; deploymentId: string }> {
  if (!KEY.test(input.key)) throw badRequest(texts.badKey);
  const name = input.name?.trim();
  if (!name) throw badRequest(texts.nameRequired);
  const model = await parseModel(input.xml);
  const now = new Date();
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`flow_definition:${tenantId}:${input.key}`}))`);
  const [{ last }] = await tx
    .select({ last: sql<number | null>`max(${flowDefinition.defVersion})` })
    .from(flowDefinition)
    .where(and(eq(flowDefinition.tenantId, tenantId), eq(flowDefinition.defKey, input.key)));
  const version = Number(last ?? 0) + 1;
  let deploymentId = input.deploymentId ?? null;
  if (!deploymentId) {
    deploymentId = newId();
    await tx.insert(flowDeployment).values({
      id: deploymentId,
      tenantId,
      // A deployment is named after its resource (what manager/list answers as `resourceName`).
      name: `${input.key}.bpmn`,
      category: input.category ?? null,
      deployTime: now,
      createUser: input.userId ?? null,
      createTime: now,
      updateTime: now,
    });
  }
  const id = newId();
  await tx.insert(flowDefinition).values({
    id,
    tenantId,
    deploymentId,
    defKey: input.key,
    name: name.slice(0, 100),
    defVersion: version,
    category: input.category ?? null,
    processId: model.processId,
    xml: input.xml,
    userTasks: model.userTasks,
    createUser: input.userId ?? null,
    createTime: now,
    updateTime: now,
  });
  return { id, version, deploymentId };
}

/** Suspends or activates a definition: a suspended one cannot be started and its tasks cannot be completed. */
export async function setSuspended(tx: Db, tenantId: string, definitionId: string, suspended: boolean) {
  const rows = await tx
    .update(flowDefinition)
    .set({ suspended: suspended ? 1 : 0, updateTime: new Date(), version: sql`${flowDefinition.version} + 1` })
    .where(and(eq(flowDefinition.id, definitionId), eq(flowDefinition.tenantId, tenantId)))
    .returning({ id: flowDefinition.id });
  if (!rows.length) throw new AppError(404, texts.definitionMissing);
}
