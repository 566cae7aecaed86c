// Issue 26 (docs/workflow.md "The engine"): the workflow engine's services on a real database (PGlite, or PostgreSQL
// with DATABASE_URL) — a leave-like process started, handled, claimed, rejected and resubmitted; one claimer and one
// completer win; another tenant's tasks are 404; nothing of a model's scripts runs; kill -9 loses no acknowledged step.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../src/platform/errors.ts';
import { AppError } from '../src/platform/errors.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { setSuspended } from '../src/modules/flow/engine/definitions.ts';
import {
  claimTask,
  completeTask,
  deleteInstance,
  startInstance,
  type FlowServices,
} from '../src/modules/flow/engine/service.ts';
import { flowDefinition, flowHistory, flowInstance, flowTask, INSTANCE, TASK } from '../src/modules/flow/table.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { createTestDb, type TestDb } from './harness.ts';
import { serverDir } from './support/server-process.ts';
import {
  deploy,
  storeUnchecked,
  flowTenant,
  LEAVE_XML,
  scriptConditionXml,
  scriptXml,
  type FlowTenant,
} from './support/flow-fixture.ts';

let t: TestDb;
let s: FlowServices;
let A: FlowTenant;
let B: FlowTenant;
let leaveA: string;
let leaveB: string;

beforeAll(async () => {
  t = await createTestDb();
  s = { db: t.database.db, now: () => new Date() };
  A = await flowTenant(s.db, '810001');
  B = await flowTenant(s.db, '810002');
  leaveA = await deploy(s.db, A.tenantId, 'leave', LEAVE_XML);
  leaveB = await deploy(s.db, B.tenantId, 'leave', LEAVE_XML);
});
afterAll(async () => {
  await t?.close();
});

/** The error a call ends with: its status and its texts. */
async function refusal(p: Promise<unknown>): Promise<{ status: number; zh: string; en: string }> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { status: e.status, zh: render(e.text, 'zh'), en: render(e.text, 'en') };
  }
  throw new Error('the call succeeded');
}

const tasksOf = (tenantId: string, instanceId: string) =>
  withTenant(s.db, tenantId, (tx) =>
    tx
      .select()
      .from(flowTask)
      .where(and(eq(flowTask.tenantId, tenantId), eq(flowTask.instanceId, instanceId)))
      .orderBy(asc(flowTask.createTime), asc(flowTask.id)),
  );
const instanceOf = (tenantId: string, id: string) =>
  withTenant(s.db, tenantId, async (tx) => (await tx.select().from(flowInstance).where(eq(flowInstance.id, id)))[0]);
const todo = (c: { tenantId: string; userId: string }) =>
  withTenant(s.db, c.tenantId, (tx) =>
    tx
      .select()
      .from(flowTask)
      .where(and(eq(flowTask.tenantId, c.tenantId), eq(flowTask.assigneeId, c.userId), eq(flowTask.status, TASK.open))),
  );
const start = (who = A.applicant, def = leaveA) =>
  startInstance(s, who, {
    definitionId: def,
    businessKey: 'leave-1',
    variables: { taskUser: A.manager.userId, days: 3 },
  });

describe('the workflow engine (services, durable state)', () => {
  it('a start leaves the manager a task in their todo rows, and the state in the instance row', async () => {
    const r = await start();
    expect(r.ended).toBe(false);
    expect(r.tasks).toEqual([
      expect.objectContaining({ elementId: 'manager', name: 'Manager approval', assigneeId: A.manager.userId }),
    ]);
    const mine = await todo(A.manager);
    expect(mine.map((x) => x.instanceId)).toContain(r.instanceId);
    const inst = await instanceOf(A.tenantId, r.instanceId);
    expect(inst.status).toBe(INSTANCE.running);
    expect(inst.starterId).toBe(A.applicant.userId);
    expect(inst.current).toEqual([{ id: 'manager', name: 'Manager approval' }]);
    // The stored engine state is what a later touch resumes: it holds the user task waiting.
    expect(JSON.stringify(inst.state)).toContain('"manager"');
    expect(inst.variables).toMatchObject({ taskUser: A.manager.userId, applyUser: A.applicant.userId, days: 3 });
    const [task] = await tasksOf(A.tenantId, r.instanceId);
    expect(task.formKey).toBe('leave-handle');
  });

  it('pass → HR claims (a role holder) → pass → ended; the history has every step with its outcome', async () => {
    const r = await start();
    const done = await completeTask(s, A.manager, { taskId: r.tasks[0].id, flag: 'ok', comment: 'fine' });
    expect(done.tasks).toEqual([
      expect.objectContaining({ elementId: 'hr', assigneeId: null, candidateRoles: ['hr'] }),
    ]);
    const hrTask = done.tasks[0].id;
    // Not a role holder: refused, and the task stays unclaimed.
    const notHr = await refusal(claimTask(s, A.outsider, hrTask));
    expect(notHr.status).toBe(403);
    expect(notHr.en).toBe('None of your roles may claim this task');
    // An unclaimed task cannot be completed, even by a role holder.
    expect((await refusal(completeTask(s, A.hr1, { taskId: hrTask, flag: 'ok' }))).status).toBe(403);
    expect(await claimTask(s, A.hr1, hrTask)).toMatchObject({ assigneeId: A.hr1.userId });
    expect((await todo(A.hr1)).map((x) => x.id)).toContain(hrTask);
    const end = await completeTask(s, A.hr1, { taskId: hrTask, flag: 'ok', comment: 'ok by HR' });
    expect(end).toMatchObject({ ended: true, tasks: [] });
    const inst = await instanceOf(A.tenantId, r.instanceId);
    expect(inst.status).toBe(INSTANCE.ended);
    expect(inst.endTime!.getTime()).toBeGreaterThanOrEqual(inst.startTime.getTime());
    expect(inst.current).toEqual([]);
    const tasks = await tasksOf(A.tenantId, r.instanceId);
    expect(tasks.map((x) => [x.elementId, x.status, x.outcome, x.completedBy, x.comment])).toEqual([
      ['manager', TASK.done, 'pass', A.manager.userId, 'fine'],
      ['hr', TASK.done, 'pass', A.hr1.userId, 'ok by HR'],
    ]);
    const history = await withTenant(s.db, A.tenantId, (tx) =>
      tx.select().from(flowHistory).where(eq(flowHistory.instanceId, r.instanceId)).orderBy(asc(flowHistory.id)),
    );
    expect(history.map((h) => [h.elementId, h.outcome, !!h.endTime])).toEqual([
      ['start', null, true],
      ['manager', 'pass', true],
      ['decision', null, true],
      ['hr', 'pass', true],
      ['end', null, true],
    ]);
    expect(history.find((h) => h.elementId === 'hr')).toMatchObject({ assigneeId: A.hr1.userId, comment: 'ok by HR' });
  });

  it('reject returns to the applicant, who resubmits (back to the manager) or cancels (ended)', async () => {
    const r = await start();
    const back = await completeTask(s, A.manager, { taskId: r.tasks[0].id, flag: 'reject', comment: 'too long' });
    expect(back.tasks).toEqual([expect.objectContaining({ elementId: 'applicant', assigneeId: A.applicant.userId })]);
    expect((await instanceOf(A.tenantId, r.instanceId)).variables).toMatchObject({ pass: false, comment: 'too long' });
    // Resubmitted with fewer days: the manager has it again.
    const again = await completeTask(s, A.applicant, {
      taskId: back.tasks[0].id,
      flag: 'ok',
      variables: { days: 2 },
    });
    expect(again.tasks).toEqual([expect.objectContaining({ elementId: 'manager', assigneeId: A.manager.userId })]);
    expect((await instanceOf(A.tenantId, r.instanceId)).variables).toMatchObject({ days: 2, pass: true });
    const back2 = await completeTask(s, A.manager, { taskId: again.tasks[0].id, flag: 'reject', comment: 'no' });
    const cancelled = await completeTask(s, A.applicant, { taskId: back2.tasks[0].id, flag: 'reject' });
    expect(cancelled).toMatchObject({ ended: true, tasks: [] });
    const tasks = await tasksOf(A.tenantId, r.instanceId);
    expect(tasks.map((x) => [x.elementId, x.outcome])).toEqual([
      ['manager', 'reject'],
      ['applicant', 'pass'],
      ['manager', 'reject'],
      ['applicant', 'reject'],
    ]);
    expect((await instanceOf(A.tenantId, r.instanceId)).status).toBe(INSTANCE.ended);
  });

  it('concurrent claims: of two claimers one wins, the other is a 409; each task has one assignee', async () => {
    const hrTasks: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await start();
      hrTasks.push((await completeTask(s, A.manager, { taskId: r.tasks[0].id, flag: 'ok' })).tasks[0].id);
    }
    const rounds = await Promise.all(
      hrTasks.map((id) => Promise.allSettled([claimTask(s, A.hr1, id), claimTask(s, A.hr2, id)])),
    );
    for (const [i, results] of rounds.entries()) {
      const won = results.filter((x) => x.status === 'fulfilled') as PromiseFulfilledResult<{ assigneeId: string }>[];
      const lost = results.filter((x) => x.status === 'rejected') as PromiseRejectedResult[];
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect((lost[0].reason as AppError).status).toBe(409);
      expect(render((lost[0].reason as AppError).text, 'en')).toBe('The task has already been claimed');
      const [task] = await withTenant(s.db, A.tenantId, (tx) =>
        tx.select().from(flowTask).where(eq(flowTask.id, hrTasks[i])),
      );
      expect(task.assigneeId).toBe(won[0].value.assigneeId);
    }
  });

  it('two concurrent completes of one task: one goes through, the other is a 409; one HR task exists', async () => {
    const r = await start();
    const results = await Promise.allSettled([
      completeTask(s, A.manager, { taskId: r.tasks[0].id, flag: 'ok' }),
      completeTask(s, A.manager, { taskId: r.tasks[0].id, flag: 'reject', comment: 'late' }),
    ]);
    expect(results.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((x) => x.status === 'rejected') as PromiseRejectedResult;
    expect((lost.reason as AppError).status).toBe(409);
    expect(render((lost.reason as AppError).text, 'zh')).toBe('任务已办理，不能重复办理');
    const tasks = await tasksOf(A.tenantId, r.instanceId);
    expect(tasks.filter((x) => x.status === TASK.open)).toHaveLength(1);
    expect(tasks).toHaveLength(2);
    // And a later complete of the done task is a 409 as well.
    expect((await refusal(completeTask(s, A.manager, { taskId: r.tasks[0].id, flag: 'ok' }))).status).toBe(409);
  });

  it("tenant B cannot see, claim, complete or delete tenant A's task or instance (404), even by id", async () => {
    const r = await start();
    const hrTask = (await completeTask(s, A.manager, { taskId: r.tasks[0].id, flag: 'ok' })).tasks[0].id;
    expect(await tasksOf(B.tenantId, r.instanceId)).toEqual([]);
    const claim = await refusal(claimTask(s, B.hr1, hrTask));
    expect(claim).toEqual({ status: 404, zh: '任务不存在', en: 'The task does not exist' });
    // B's HR user carries the same role alias; still nothing of A's.
    expect((await refusal(completeTask(s, B.hr1, { taskId: hrTask, flag: 'ok' }))).status).toBe(404);
    expect((await refusal(deleteInstance(s, B.hr1, { instanceId: r.instanceId, reason: 'x' }))).status).toBe(404);
    // Nor start A's definition.
    expect((await refusal(start(B.applicant, leaveA))).status).toBe(404);
    const [, task] = await tasksOf(A.tenantId, r.instanceId);
    expect(task).toMatchObject({ status: TASK.open, assigneeId: null });
    // B's own process works meanwhile.
    const own = await startInstance(s, B.applicant, {
      definitionId: leaveB,
      variables: { taskUser: B.manager.userId },
    });
    expect(own.tasks).toHaveLength(1);
  });

  it('not the assignee: refused (403) and the task stays open', async () => {
    const r = await start();
    const other = await refusal(completeTask(s, A.outsider, { taskId: r.tasks[0].id, flag: 'ok' }));
    expect(other).toEqual({
      status: 403,
      zh: '只有任务的办理人可以办理该任务',
      en: 'Only the assignee of the task can complete it',
    });
    // A claim of an assigned task is a 409 even for a role holder.
    expect((await refusal(claimTask(s, A.hr1, r.tasks[0].id))).status).toBe(409);
    expect((await tasksOf(A.tenantId, r.instanceId))[0].status).toBe(TASK.open);
  });

  it('bad input: flag, comment, variables, an assignee who is not a user of the tenant', async () => {
    const r = await start();
    const taskId = r.tasks[0].id;
    expect((await refusal(completeTask(s, A.manager, { taskId, flag: 'maybe' as 'ok' }))).status).toBe(400);
    expect((await refusal(completeTask(s, A.manager, { taskId, flag: 'ok', comment: 'x'.repeat(501) }))).status).toBe(
      400,
    );
    const proto = await refusal(
      completeTask(s, A.manager, { taskId, flag: 'ok', variables: JSON.parse('{"__proto__":1}') }),
    );
    expect(proto.status).toBe(400);
    expect((await refusal(completeTask(s, A.manager, { taskId, flag: 'ok', variables: [1] }))).status).toBe(400);
    expect((await refusal(completeTask(s, A.manager, { taskId: 'abc', flag: 'ok' }))).status).toBe(404);
    // B's manager picked in A: not a user of A.
    const foreign = await refusal(
      startInstance(s, A.applicant, { definitionId: leaveA, variables: { taskUser: B.manager.userId } }),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.en).toBe(`The assignee "${B.manager.userId}" of "Manager approval" is not a user of this tenant`);
    expect((await tasksOf(A.tenantId, r.instanceId))[0].status).toBe(TASK.open);
  });

  it('a suspended definition: no start, no complete (409, clear message); activated again, both work', async () => {
    const def = await deploy(s.db, A.tenantId, 'leave', LEAVE_XML);
    const r = await start(A.applicant, def);
    await withTenant(s.db, A.tenantId, (tx) => setSuspended(tx, A.tenantId, def, true));
    const noStart = await refusal(start(A.applicant, def));
    expect(noStart.status).toBe(409);
    expect(noStart.en).toBe('The process is suspended: it cannot be started or handled until it is activated');
    expect((await refusal(completeTask(s, A.manager, { taskId: r.tasks[0].id, flag: 'ok' }))).status).toBe(409);
    await withTenant(s.db, A.tenantId, (tx) => setSuspended(tx, A.tenantId, def, false));
    expect((await completeTask(s, A.manager, { taskId: r.tasks[0].id, flag: 'ok' })).tasks).toHaveLength(1);
  });

  it('a second deployment of a key is a new version; the old one keeps running its instances', async () => {
    const r = await start();
    const v2 = await deploy(s.db, A.tenantId, 'leave', LEAVE_XML);
    expect(v2).not.toBe(leaveA);
    expect((await completeTask(s, A.manager, { taskId: r.tasks[0].id, flag: 'ok' })).tasks[0].elementId).toBe('hr');
  });

  it('a path cut by a terminating end: the other waiting task is cancelled, its history step ended "cancelled"', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="cutDefs" targetNamespace="http://atrium">
  <bpmn:process id="cut" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f0" sourceRef="start" targetRef="split" />
    <bpmn:parallelGateway id="split" />
    <bpmn:sequenceFlow id="f1" sourceRef="split" targetRef="a" />
    <bpmn:sequenceFlow id="f2" sourceRef="split" targetRef="b" />
    <bpmn:userTask id="a" name="Decide" camunda:assignee="\${taskUser}" />
    <bpmn:userTask id="b" name="Check" camunda:assignee="\${taskUser}" />
    <bpmn:sequenceFlow id="f3" sourceRef="a" targetRef="stop" />
    <bpmn:endEvent id="stop"><bpmn:terminateEventDefinition /></bpmn:endEvent>
    <bpmn:sequenceFlow id="f4" sourceRef="b" targetRef="done" />
    <bpmn:endEvent id="done" />
  </bpmn:process>
</bpmn:definitions>`;
    const def = await deploy(s.db, A.tenantId, 'cut', xml);
    const r = await startInstance(s, A.applicant, { definitionId: def, variables: { taskUser: A.manager.userId } });
    expect(r.tasks.map((x) => x.elementId).sort()).toEqual(['a', 'b']);
    const taskA = r.tasks.find((x) => x.elementId === 'a')!.id;
    const taskB = r.tasks.find((x) => x.elementId === 'b')!.id;
    expect(await completeTask(s, A.manager, { taskId: taskA, flag: 'ok' })).toMatchObject({ ended: true, tasks: [] });
    expect((await instanceOf(A.tenantId, r.instanceId)).status).toBe(INSTANCE.ended);
    const tasks = await tasksOf(A.tenantId, r.instanceId);
    expect(tasks.map((x) => [x.elementId, x.status]).sort()).toEqual([
      ['a', TASK.done],
      ['b', TASK.cancelled],
    ]);
    // The cancelled task is out of the manager's todo rows and cannot be completed.
    expect((await todo(A.manager)).map((x) => x.id)).not.toContain(taskB);
    expect((await refusal(completeTask(s, A.manager, { taskId: taskB, flag: 'ok' }))).status).toBe(409);
    const history = await withTenant(s.db, A.tenantId, (tx) =>
      tx.select().from(flowHistory).where(eq(flowHistory.instanceId, r.instanceId)),
    );
    const step = (id: string) => history.find((h) => h.elementId === id);
    expect(step('b')).toMatchObject({ taskId: taskB, outcome: 'cancelled' });
    expect(step('b')!.endTime).not.toBeNull();
    expect(step('a')).toMatchObject({ taskId: taskA, outcome: 'pass' });
    expect(history.every((h) => h.endTime !== null)).toBe(true);
  });

  it('delete with a reason: the instance is deleted, its open task cancelled; a second delete is a 409', async () => {
    const r = await start();
    expect((await refusal(deleteInstance(s, A.manager, { instanceId: r.instanceId, reason: ' ' }))).status).toBe(400);
    expect(await deleteInstance(s, A.manager, { instanceId: r.instanceId, reason: 'wrong dates' })).toEqual({
      instanceId: r.instanceId,
      cancelledTasks: 1,
    });
    const inst = await instanceOf(A.tenantId, r.instanceId);
    expect(inst).toMatchObject({ status: INSTANCE.deleted, deleteReason: 'wrong dates', current: [] });
    expect((await tasksOf(A.tenantId, r.instanceId))[0].status).toBe(TASK.cancelled);
    expect((await todo(A.manager)).map((x) => x.id)).not.toContain(r.tasks[0].id);
    expect(await refusal(completeTask(s, A.manager, { taskId: r.tasks[0].id, flag: 'ok' }))).toEqual({
      status: 409,
      zh: '流程实例已结束或已删除',
      en: 'The process instance has ended or was deleted',
    });
    expect((await refusal(deleteInstance(s, A.manager, { instanceId: r.instanceId, reason: 'again' }))).status).toBe(
      409,
    );
  });

  it('a model with a script task or a script condition is refused at deploy, naming the element', async () => {
    const file = path.join(os.tmpdir(), 'atrium-flow-never');
    for (const [key, xml, element] of [
      ['evil', scriptXml(file), 'write'],
      ['evilCondition', scriptConditionXml(file), 'f1'],
    ] as const) {
      const refused = await refusal(deploy(s.db, A.tenantId, key, xml));
      expect(refused.status).toBe(400);
      expect(refused.en).toContain(element);
    }
    const rows = await withTenant(s.db, A.tenantId, (tx) =>
      tx.select().from(flowDefinition).where(eq(flowDefinition.defKey, 'evil')),
    );
    expect(rows).toEqual([]);
  });

  it('a model with a script that slipped past the checks never runs it: refused with a 400 naming it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-flow-'));
    try {
      const file = path.join(dir, 'ran');
      const task = await storeUnchecked(s.db, A.tenantId, 'evil', scriptXml(file));
      const refused = await refusal(startInstance(s, A.applicant, { definitionId: task }));
      expect(refused.status).toBe(400);
      expect(refused.en).toBe('The process cannot go on at "Write a file": Atrium runs no script of a model');
      const condition = await storeUnchecked(s.db, A.tenantId, 'evilCondition', scriptConditionXml(file));
      const byCondition = await refusal(startInstance(s, A.applicant, { definitionId: condition }));
      expect(byCondition).toEqual({
        status: 400,
        zh: '流程在“f1”处无法继续：Atrium 不运行模型中的脚本',
        en: 'The process cannot go on at "f1": Atrium runs no script of a model',
      });
      expect(fs.existsSync(file)).toBe(false);
      // Nothing half-started: no instance of either definition.
      const rows = await withTenant(s.db, A.tenantId, (tx) =>
        tx.select().from(flowInstance).where(eq(flowInstance.definitionId, task)),
      );
      expect(rows).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('kill -9 while instances wait and completes are in flight', () => {
  it('every acknowledged step is kept and every running instance can go on', async () => {
    // PGlite: a data dir of its own, closed while the child holds it. PostgreSQL: a throwaway database of its own.
    const pg = !!process.env.DATABASE_URL;
    const dataDir = pg ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-flow-kill-'));
    const own = pg ? await createTestDb({ seed: false }) : null;
    const open = (): Promise<Database> =>
      own ? Promise.resolve(own.database) : openDatabase({ dataDir, poolSize: 4 });
    let database = await open();
    try {
      if (!pg) await database.migrate();
      const fixture = await flowTenant(database.db, '810009');
      const definitionId = await deploy(database.db, fixture.tenantId, 'leave', LEAVE_XML);
      if (!pg) await database.close();

      const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/flow-driver.ts'], {
        cwd: serverDir,
        env: {
          ...process.env,
          FLOW_DRIVER: JSON.stringify({ databaseUrl: own?.databaseUrl, dataDir, fixture, definitionId }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      // Killed once 40 completes are acknowledged: the other workers are then mid-call.
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (b: Buffer) => {
          out += b.toString();
          if ((out.match(/^complete /gm) ?? []).length >= 40) resolve();
        });
        child.once('exit', (code) => reject(new Error(`the driver exited (${code}): ${err}`)));
        setTimeout(() => reject(new Error(`no progress: ${out}\n${err}`)), 90_000);
      });
      child.kill('SIGKILL');
      await exited;
      const acked = (kind: string) => [...out.matchAll(new RegExp(`^${kind} (\\d+)$`, 'gm'))].map((m) => m[1]);

      database = await open();
      const db = database.db;
      const t9 = fixture.tenantId;
      const [tasks, instances] = await withTenant(
        db,
        t9,
        async (tx) =>
          [
            await tx.select().from(flowTask).where(eq(flowTask.tenantId, t9)),
            await tx.select().from(flowInstance).where(eq(flowInstance.tenantId, t9)),
          ] as const,
      );
      const task = new Map(tasks.map((x) => [x.id, x]));
      const ids = new Set(instances.map((x) => x.id));
      // Every acknowledged start and complete is there.
      expect(acked('start').length).toBeGreaterThan(0);
      for (const id of acked('start')) expect(ids.has(id), `started instance ${id}`).toBe(true);
      for (const id of acked('complete')) expect(task.get(id)?.status, `completed task ${id}`).toBe(TASK.done);
      const hrIds = [fixture.hr1.userId, fixture.hr2.userId];
      for (const id of acked('claim')) expect(hrIds, `claimed task ${id}`).toContain(task.get(id)?.assigneeId);
      // No instance is stuck between steps: each running one waits on open tasks that match its current steps, and
      // its next task can be completed (claimed first when it has no assignee).
      const people = [fixture.applicant, fixture.manager, fixture.hr1, fixture.hr2];
      const running = instances.filter((x) => x.status === INSTANCE.running);
      expect(running.length).toBeGreaterThan(0);
      const after = { db, now: () => new Date() };
      for (const inst of running) {
        const waiting = tasks.filter((x) => x.instanceId === inst.id && x.status === TASK.open);
        expect(waiting.map((x) => x.elementId).sort(), `instance ${inst.id}`).toEqual(
          inst.current.map((c) => c.id).sort(),
        );
        expect(waiting).toHaveLength(1);
        const next = waiting[0];
        let who = people.find((p) => p.userId === next.assigneeId);
        if (!who) {
          who = fixture.hr1;
          await claimTask(after, who, next.id);
        }
        const r = await completeTask(after, who, { taskId: next.id, flag: 'ok' });
        expect(r.instanceId).toBe(inst.id);
      }
      for (const inst of instances.filter((x) => x.status !== INSTANCE.running))
        expect(tasks.filter((x) => x.instanceId === inst.id && x.status === TASK.open)).toEqual([]);
    } finally {
      await (own ?? database).close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
