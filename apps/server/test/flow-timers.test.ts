// The workflow's timers (docs/workflow.md "Timers"): a waiting timer is a row of `flow_timer`, written with the touch
// that reached it; the timer worker fires it when due by resuming its instance, from the database alone — so a server
// that never saw the instance (a restart) fires it too, and two workers fire it once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { flowHistory, flowInstance, flowTask } from '../src/modules/flow/index.ts';
import { TimerWorker, completeTask, deleteInstance, startInstance } from '../src/modules/flow/index.ts';
import { flowTimer } from '../src/modules/flow/table.ts';
import { createTestApp, secondInstance, type TestApp } from './harness.ts';
import { deploy, flowTenant, TIMER_XML, type FlowTenant } from './support/flow-fixture.ts';

let t: TestApp;
let T: FlowTenant;
let definitionId: string;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await createTestApp();
  T = await flowTenant(t.services.db, '730001');
  definitionId = await deploy(t.services.db, T.tenantId, 'late', TIMER_XML);
}, 120_000);
afterAll(async () => t?.close());

const timersOf = (instanceId: string) =>
  t.services.db.select().from(flowTimer).where(eq(flowTimer.instanceId, instanceId));
const openTasks = async (instanceId: string) =>
  (
    await t.services.db
      .select({ elementId: flowTask.elementId, status: flowTask.status })
      .from(flowTask)
      .where(eq(flowTask.instanceId, instanceId))
  )
    .filter((x) => x.status === 1)
    .map((x) => x.elementId);
const start = () => startInstance(t.services, T.applicant, { definitionId, variables: { taskUser: T.manager.userId } });

describe('workflow timers', () => {
  it('a waiting timer is a row with its due time; the worker fires it only when due', async () => {
    const { instanceId } = await start();
    const [row] = await timersOf(instanceId);
    expect(row.elementId).toBe('tooLate');
    const wait = row.dueAt.getTime() - Date.now();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(1000);
    const worker = new TimerWorker(t.services);
    // Not yet due: nothing claimed, the task still waits.
    if (wait > 150) expect(await worker.runOnce()).toBe(0);
    expect(await openTasks(instanceId)).toEqual(['task']);
    await sleep(wait + 50);
    expect(await worker.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await openTasks(instanceId)).toEqual(['escalated']);
    expect(await timersOf(instanceId)).toEqual([]);
    const [inst] = await t.services.db.select().from(flowInstance).where(eq(flowInstance.id, instanceId));
    expect(inst.current).toEqual([{ id: 'escalated', name: 'Escalated' }]);
    const steps = await t.services.db
      .select({ elementId: flowHistory.elementId, outcome: flowHistory.outcome, endTime: flowHistory.endTime })
      .from(flowHistory)
      .where(eq(flowHistory.instanceId, instanceId));
    const byId = Object.fromEntries(steps.map((s) => [s.elementId, s]));
    expect(byId.task.outcome).toBe('cancelled');
    expect(byId.tooLate.endTime).not.toBeNull();
    // The escalated task goes on like any other.
    const [escalated] = await t.services.db
      .select({ id: flowTask.id })
      .from(flowTask)
      .where(and(eq(flowTask.instanceId, instanceId), eq(flowTask.elementId, 'escalated')));
    const done = await completeTask(t.services, T.applicant, { taskId: escalated.id, flag: 'ok' });
    expect(done.ended).toBe(true);
  });

  it('a task completed in time takes its timer with it; a deleted instance too', async () => {
    const a = await start();
    await completeTask(t.services, T.manager, { taskId: a.tasks[0].id, flag: 'ok' });
    expect(await timersOf(a.instanceId)).toEqual([]);
    const b = await start();
    await deleteInstance(t.services, T.applicant, { instanceId: b.instanceId, reason: 'test' });
    expect(await timersOf(b.instanceId)).toEqual([]);
  });

  it('fires after a restart: a server that never saw the instance fires it, once across two workers', async () => {
    const ids = [(await start()).instanceId, (await start()).instanceId, (await start()).instanceId];
    // The first server goes away before the timers are due; another one (nothing in memory) finds them.
    const t2 = await secondInstance(t);
    try {
      await sleep(1100);
      const [n1, n2] = await Promise.all([
        new TimerWorker(t2.services).runOnce(),
        new TimerWorker(t2.services).runOnce(),
      ]);
      expect(n1 + n2).toBe(3);
      for (const id of ids) expect(await openTasks(id)).toEqual(['escalated']);
      // Each escalated once: one task per instance, never two.
      const escalated = await t.services.db
        .select({ instanceId: flowTask.instanceId })
        .from(flowTask)
        .where(eq(flowTask.elementId, 'escalated'));
      for (const id of ids) expect(escalated.filter((e) => e.instanceId === id)).toHaveLength(1);
    } finally {
      await t2.close();
    }
  });

  it('a claim of a server that died is taken again after its lease', async () => {
    const { instanceId } = await start();
    const [row] = await timersOf(instanceId);
    // A worker claimed it and died: the lease runs out, then another worker fires it.
    await t.services.db
      .update(flowTimer)
      .set({ lockedUntil: new Date(Date.now() + 1500), lockedBy: 'dead' })
      .where(eq(flowTimer.id, row.id));
    await sleep(1100);
    const worker = new TimerWorker(t.services);
    await worker.runOnce();
    expect(await openTasks(instanceId)).toEqual(['task']);
    await sleep(500);
    await worker.runOnce();
    expect(await openTasks(instanceId)).toEqual(['escalated']);
  });
});
