// The workflow engine's cost (docs/workflow.md "The engine"), services only (the routes come later): a throwaway
// PostgreSQL database (BENCH_PG_URL) migrated, the leave model deployed in one tenant, then
//   1. starts: BENCH_FLOW_STARTS (2000) leave instances by BENCH_FLOW_WORKERS (20) concurrent callers;
//   2. completes: the same callers complete every manager task (pass), one at a time each;
// reporting per phase the calls per second, p50 / p99 of a call, and this process's CPU per call (the engine runs in
// this process: bpmn-engine's own work is the CPU, the database's is PostgreSQL's). Aim (issue 26): >= 200
// completes/s. Alone: `cd apps/server && npx tsx bench/flow-engine.ts`.
import fs from 'node:fs';
import os from 'node:os';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { completeTask, startInstance } from '../src/modules/flow/engine/service.ts';
import { deploy, flowTenant, LEAVE_XML } from '../test/support/flow-fixture.ts';
import { printFigure, runIfMain, stat, throwawayDb } from './lib.ts';

const STARTS = Number(process.env.BENCH_FLOW_STARTS ?? 2000);
const WORKERS = Number(process.env.BENCH_FLOW_WORKERS ?? 20);

/**
 * The CPU (user + system, ms) the PostgreSQL backends serving the bench's database have used so far, read from
 * /proc/<pid>/stat (clock ticks of 10 ms); the pool's connections live through a phase, so a difference is the
 * database's CPU for it. WAL writer and checkpointer are not counted. Null where /proc cannot be read.
 */
async function pgCpuMs(admin: pg.Client, dbName: string): Promise<Map<number, number> | null> {
  const { rows } = await admin.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [dbName],
  );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(pid, (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      return null;
    }
  }
  return out;
}

/** ANALYZE of the bench's database (its own connection: the admin one is on another database). */
async function analyze(dbUrl: string) {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  await c.query('analyze');
  await c.end();
}

/** This process's main thread's CPU (user + system, ms) from /proc (clock ticks of 10 ms); null where unreadable. */
function mainThreadCpuMs(): number | null {
  try {
    const f = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}

async function phase<T>(items: T[], fn: (item: T) => Promise<void>, pgCpu: () => ReturnType<typeof pgCpuMs>) {
  const times: number[] = [];
  let next = 0;
  const pg0 = await pgCpu();
  const load = os.loadavg()[0];
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuMs();
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
  const main1 = mainThreadCpuMs();
  const pg1 = await pgCpu();
  let pgMs: number | null = null;
  if (pg0 && pg1) pgMs = [...pg1].reduce((sum, [pid, ms]) => sum + ms - (pg0.get(pid) ?? 0), 0);
  return {
    load: Math.round(load * 10) / 10,
    pgCpuMsPerCall: pgMs === null ? null : Math.round((pgMs / items.length) * 100) / 100,
    perSecond: Math.round(items.length / seconds),
    ...stat(times),
    cpuMsPerCall: Math.round(((cpu.user + cpu.system) / 1000 / items.length) * 100) / 100,
    // The main thread's share (the rest: the engine's worker threads, engine/pool.ts, and V8's helper threads).
    mainThreadMsPerCall:
      main0 === null || main1 === null ? null : Math.round(((main1 - main0) / items.length) * 100) / 100,
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
    const pgCpu = () => pgCpuMs(bench.admin, bench.dbName);
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
      pgCpu,
    );
    // The tables' statistics as autovacuum keeps them in a running system: without them the planner, which took the
    // tables for empty, finds a task by id through the (tenant, instance) index and reads the tenant's every task.
    if (process.env.BENCH_FLOW_ANALYZE !== '0') await analyze(bench.dbUrl);
    // BENCH_FLOW_PROFILE=<file.cpuprofile>: a CPU profile of the complete phase only (open it in Chrome's DevTools).
    const profile = process.env.BENCH_FLOW_PROFILE;
    const session = profile ? new Session() : null;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const completes = await phase(
      managerTasks,
      async (taskId) => {
        await completeTask(s, f.manager, { taskId, flag: 'ok', comment: 'ok' });
      },
      pgCpu,
    );
    if (session) {
      const { profile: p } = await session.post('Profiler.stop');
      fs.writeFileSync(profile!, JSON.stringify(p));
      session.disconnect();
    }
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
