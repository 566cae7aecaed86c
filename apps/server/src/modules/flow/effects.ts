import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import type { NewTask } from './engine/persist.ts';
import { flowDefinition } from './table.ts';

/**
 * Business effects of a process (docs/workflow.md "Business effects"): a module that keeps a business row beside
 * the instances of one process key (the leave module: `leave`) registers what a complete or a delete does to it.
 * The engine calls them inside the touch's transaction, so the row and the instance change together or not at all:
 * an effect that throws (a bad adjusted field: 400) rolls the whole touch back.
 */

export type EffectCaller = Pick<AuthContext, 'tenantId' | 'userId' | 'roleIds'>;

/** The instance a touch is on. */
export type EffectInstance = {
  id: string;
  definitionId: string;
  definitionKey: string;
  businessKey: string | null;
  starterId: string;
};

/** The task being completed. */
export type EffectTask = { id: string; elementId: string; name: string | null; formKey: string | null };

export type CompleteEvent = {
  instance: EffectInstance;
  task: EffectTask;
  /** flag === 'ok'. */
  pass: boolean;
  /** The variables the caller sent (checked: plain JSON values named like identifiers). */
  given: Record<string, unknown>;
};

export type FlowEffect = {
  /**
   * Before the engine runs the complete: may refuse (throw) or answer variables that replace what the caller sent
   * (e.g. the business row's own values, a computed field), which the run and the stored variables then hold.
   */
  beforeComplete?: (tx: Db, ctx: EffectCaller, e: CompleteEvent) => Promise<Record<string, unknown> | void>;
  /** After the run is written: `ended` whether the instance reached an end, `tasks` the tasks now waiting. */
  afterComplete?: (tx: Db, ctx: EffectCaller, e: CompleteEvent & { ended: boolean; tasks: NewTask[] }) => Promise<void>;
  /** After a running instance was deleted (ended by a tracker or a cascade) with `reason`. */
  afterDelete?: (tx: Db, ctx: EffectCaller, e: { instance: EffectInstance; reason: string }) => Promise<void>;
};

declare module '../../platform/services.ts' {
  interface Registry {
    /** Business effects of processes by definition key (docs/server.md "Registries", docs/workflow.md). */
    flowEffects?: Map<string, FlowEffect>;
  }
}

/** A module names what the touches of its process's instances do to its business rows; registered in its plugin. */
export function registerFlowEffect(s: Pick<Services, 'registry'>, definitionKey: string, effect: FlowEffect): void {
  (s.registry.flowEffects ??= new Map()).set(definitionKey, effect);
}

/** The effect of a definition key in this app, if any (services without a registry have none). */
export function flowEffectOf(s: { registry?: Services['registry'] }, definitionKey: string): FlowEffect | undefined {
  return s.registry?.flowEffects?.get(definitionKey);
}

/**
 * Applies the delete effect of an instance's process, if its key has one, in the caller's transaction: call it
 * wherever a running instance is ended without the engine (a tracker's delete, a deployment deleted with cascade).
 */
export async function applyDeleteEffect(
  s: { registry?: Services['registry'] },
  tx: Db,
  ctx: EffectCaller,
  inst: { id: string; definitionId: string; businessKey: string | null; starterId: string },
  reason: string,
): Promise<void> {
  if (!s.registry?.flowEffects?.size) return;
  const [def] = await tx
    .select({ key: flowDefinition.defKey })
    .from(flowDefinition)
    .where(and(eq(flowDefinition.id, inst.definitionId), eq(flowDefinition.tenantId, ctx.tenantId)));
  const effect = def && flowEffectOf(s, def.key);
  if (effect?.afterDelete) await effect.afterDelete(tx, ctx, { instance: effectInstance(inst, def.key), reason });
}

/** What an effect learns of the instance. */
export const effectInstance = (
  inst: { id: string; definitionId: string; businessKey: string | null; starterId: string },
  definitionKey: string,
): EffectInstance => ({
  id: inst.id,
  definitionId: inst.definitionId,
  definitionKey,
  businessKey: inst.businessKey,
  starterId: inst.starterId,
});
