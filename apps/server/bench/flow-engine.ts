// The workflow engine's cost (docs/workflow.md "The engine"), services only (the routes come later): a throwaway
// PostgreSQL database (BENCH_PG_URL) migrated, the leave model deployed in one tenant, then
//   1. starts: BENCH_FLOW_STARTS (2000) leave instances by BENCH_FLOW_WORKERS (20) concurrent callers;
//   2. completes: the same callers complete every manager task (pass), one at a time each;
// reporting per phase the calls per second, p50 / p99 of a call, and this process's CPU per call (the engine runs in
// this process: bpmn-engine's own work is the CPU, the database's is PostgreSQL's). Aim (issue 26): >= 200
// completes/s. Alone: `cd apps/server && npx tsx bench/flow-engine.ts`.
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/db/client.ts';
import { completeTask, startInstance } from '../src/modules/flow/engine/service.ts';
import { deploy, flowTenant, LEAVE_XML } from '../test/support/flow-fixture.ts';
import { printFigure, runIfMain, stat, throwawayDb } from './lib.ts';

const STARTS = Number(process.env.BENCH_FLOW_STARTS ?? 2000);
const WORKERS = Number(process.env.BENCH_FLOW_WORKERS ?? 20);

async function phase<T>(items: T[], fn: (item: T) => Promise<void>) {
  const times: number[] = [];
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (next < items.length) {
        const item = items[next++];
        const a = performance.now();
        await fn(item);
        times.push(performance.now() - a);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    perSecond: Math.round(items.length / seconds),
    ...stat(times),
    cpuMsPerCall: Math.round(((cpu.user + cpu.system) / 1000 / items.length) * 100) / 100,
  };
}

export async function benchFlowEngine() {
  const bench = await throwawayDb('flow', 'BENCH_FLOW_PORT', 'BENCH_FLOW_KEEP_DB');
  const database = await openDatabase({ databaseUrl: bench.dbUrl, poolSize: 8 });
  try {
    await database.migrate();
    const s = { db: database.db, now: () => new Date() };
    const f = await flowTenant(database.db, '100001');
    const definitionId = await deploy(database.db, f.tenantId, 'leave', LEAVE_XML);
    const managerTasks: string[] = [];
    const starts = await phase(
      Array.from({ length: STARTS }, (_, i) => i),
      async (i) => {
        const r = await startInstance(s, f.applicant, {
          definitionId,
          businessKey: `b${i}`,
          variables: { taskUser: f.manager.userId },
        });
        managerTasks.push(r.tasks[0].id);
      },
    );
    const completes = await phase(managerTasks, async (taskId) => {
      await completeTask(s, f.manager, { taskId, flag: 'ok', comment: 'ok' });
    });
    const result = { starts: STARTS, workers: WORKERS, start: starts, complete: completes };
    printFigure('flow engine: starts (per s, p50/p99 ms, CPU ms per call)', starts);
    printFigure('flow engine: completes (per s, p50/p99 ms, CPU ms per call)', completes);
    return result;
  } finally {
    await database.close();
    await bench.close();
  }
}

runIfMain(import.meta.url, () => benchFlowEngine());
