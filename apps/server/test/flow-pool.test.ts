// docs/workflow.md "Worker threads": a touch's engine run in the pool's worker thread answers what the same run on the
// main thread answers — the waiting task, the state that the next touch recovers — and a refusal in a thread keeps
// its status and text (a script of a model, 400). No database: the pool runs the engine only.
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/platform/errors.ts';
import { parseModel } from '../src/modules/flow/engine/definitions.ts';
import { closeEnginePool, engineThreads, runTouchPooled } from '../src/modules/flow/engine/pool.ts';
import { runTouch } from '../src/modules/flow/engine/run.ts';
import { LEAVE_XML, scriptXml } from './support/flow-fixture.ts';

const saved = process.env.ATRIUM_FLOW_THREADS;
afterAll(async () => {
  await closeEnginePool();
  if (saved === undefined) delete process.env.ATRIUM_FLOW_THREADS;
  else process.env.ATRIUM_FLOW_THREADS = saved;
});

describe('the engine pool', () => {
  it('sizes itself from ATRIUM_FLOW_THREADS: unset one thread less than the cores (at least one), 0 none, else refused', () => {
    expect(engineThreads({})).toBe(Math.max(1, os.availableParallelism() - 1));
    expect(engineThreads({ ATRIUM_FLOW_THREADS: '0' })).toBe(0);
    expect(engineThreads({ ATRIUM_FLOW_THREADS: '3' })).toBe(3);
    for (const bad of ['-1', '1.5', 'two', '65'])
      expect(() => engineThreads({ ATRIUM_FLOW_THREADS: bad })).toThrow(
        'ATRIUM_FLOW_THREADS: a whole number from 0 to 64',
      );
  });

  it('a start and a complete in a thread answer what they answer on the main thread', async () => {
    process.env.ATRIUM_FLOW_THREADS = '1';
    await closeEnginePool();
    const model = await parseModel(LEAVE_XML);
    const variables = { applyUser: '11', taskUser: '22' };
    const here = await runTouch({ model, state: null, variables });
    const there = await runTouchPooled({ model, definitionId: '1', state: null, variables });
    expect(there.waiting.map((w) => [w.id, w.assignee])).toEqual([['manager', '${taskUser}']]);
    expect(there.passed.map((p) => `${p.event}:${p.id}`)).toEqual(here.passed.map((p) => `${p.event}:${p.id}`));
    // The thread's state recovers on the main thread, and the main thread's in the thread.
    const task = there.waiting[0];
    const pass = { ...variables, pass: true, comment: '' };
    const signal = { elementId: task.id, executionId: task.executionId };
    const onMain = await runTouch({ model, state: structuredClone(there.state), variables: pass, signal });
    const hereTask = here.waiting[0];
    const inThread = await runTouchPooled({
      model,
      definitionId: '1',
      state: here.state,
      variables: pass,
      signal: { elementId: hereTask.id, executionId: hereTask.executionId },
    });
    for (const r of [onMain, inThread]) {
      expect(r.waiting.map((w) => [w.id, w.candidateGroups])).toEqual([['hr', 'hr']]);
      expect(r.ended).toBe(false);
    }
    expect(inThread.waitingBefore).toEqual([hereTask.executionId]);
  });

  it("a model's script is refused in a thread with the same 400 and text as on the main thread", async () => {
    process.env.ATRIUM_FLOW_THREADS = '1';
    const model = await parseModel(scriptXml('/tmp/atrium-flow-pool-never-written'));
    const refusal = await runTouchPooled({ model, definitionId: '2', state: null, variables: {} }).catch((e) => e);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal.status).toBe(400);
    expect(refusal.text.en).toBe('The process cannot go on at "Write a file": Atrium runs no script of a model');
  });
});
