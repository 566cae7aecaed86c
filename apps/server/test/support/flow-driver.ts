// The child of the kill -9 test of test/flow-engine.test.ts: opens the database (the embedded data dir or PostgreSQL),
// then three workers start leave instances and claim and complete their tasks without end. Each line it prints is
// written after the call's commit (stdout is a pipe: synchronous on Linux), so a printed line is an acknowledged step.
import { openDatabase } from '../../src/db/client.ts';
import { claimTask, completeTask, startInstance, type FlowCaller } from '../../src/modules/flow/engine/service.ts';
import type { FlowTenant } from './flow-fixture.ts';

type Config = { databaseUrl?: string; dataDir?: string; fixture: FlowTenant; definitionId: string };
const config = JSON.parse(process.env.FLOW_DRIVER ?? '{}') as Config;
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 4 });
const s = { db: database.db, now: () => new Date() };
const f = config.fixture;
const people = [f.applicant, f.manager, f.hr1, f.hr2];
const callerOf = (userId: string): FlowCaller => people.find((p) => p.userId === userId)!;

type Open = { id: string; elementId: string; assigneeId: string | null };
const queue: Open[] = [];
let n = 0;
const say = (line: string) => process.stdout.write(`${line}\n`);

async function step(): Promise<void> {
  if (queue.length < 6) {
    const r = await startInstance(s, f.applicant, {
      definitionId: config.definitionId,
      businessKey: `k${n++}`,
      variables: { taskUser: f.manager.userId },
    });
    say(`start ${r.instanceId}`);
    queue.push(...r.tasks);
    return;
  }
  const task = queue.shift()!;
  let who = task.assigneeId ? callerOf(task.assigneeId) : null;
  if (!who) {
    who = n++ % 2 ? f.hr1 : f.hr2;
    await claimTask(s, who, task.id);
    say(`claim ${task.id}`);
  }
  const reject = task.elementId === 'manager' ? n++ % 3 === 0 : task.elementId === 'applicant' && n++ % 5 === 0;
  const r = await completeTask(s, who, { taskId: task.id, flag: reject ? 'reject' : 'ok', comment: `c${n}` });
  say(`complete ${task.id}`);
  queue.push(...r.tasks);
}

say('ready');
await Promise.all(
  [0, 1, 2].map(async () => {
    for (;;) await step();
  }),
);
