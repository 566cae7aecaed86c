import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { flowHistory, flowInstance, flowTask, flowTimer, INSTANCE, TASK } from '../table.ts';
import type { Services } from '../../../platform/services.ts';
import { applyDeleteEffect, type EffectCaller } from '../effects.ts';
import { cancelTasks } from './persist.ts';

/**
 * Ends a running instance without the engine (docs/workflow.md "The engine"): its open tasks cancelled, its open
 * steps closed with the reason, the instance marked deleted. Used by follow/delete-process-instance and by deleting a
 * deployment with `cascade`; the caller holds the instance row's lock. The process's delete effect (its business row,
 * docs/workflow.md "Business effects") runs in the same transaction.
 */
export async function endInstance(
  s: { registry?: Services['registry'] },
  tx: Db,
  ctx: EffectCaller,
  inst: { id: string; tenantId: string; definitionId: string; businessKey: string | null; starterId: string },
  reason: string,
  now: Date,
): Promise<number> {
  const open = await tx
    .select({ id: flowTask.id })
    .from(flowTask)
    .where(and(eq(flowTask.tenantId, inst.tenantId), eq(flowTask.instanceId, inst.id), eq(flowTask.status, TASK.open)));
  await cancelTasks(
    tx,
    inst,
    open.map((t) => t.id),
    now,
    reason,
  );
  await tx
    .update(flowHistory)
    .set({ endTime: now, outcome: 'deleted', comment: reason, updateTime: now })
    .where(
      and(eq(flowHistory.tenantId, inst.tenantId), eq(flowHistory.instanceId, inst.id), isNull(flowHistory.endTime)),
    );
  await tx.delete(flowTimer).where(and(eq(flowTimer.tenantId, inst.tenantId), eq(flowTimer.instanceId, inst.id)));
  await tx
    .update(flowInstance)
    .set({
      status: INSTANCE.deleted,
      deleteReason: reason,
      endTime: now,
      current: [],
      updateUser: ctx.userId,
      updateTime: now,
      version: sql`${flowInstance.version} + 1`,
    })
    .where(and(eq(flowInstance.id, inst.id), eq(flowInstance.tenantId, inst.tenantId)));
  await applyDeleteEffect(s, tx, ctx, inst, reason);
  return open.length;
}
