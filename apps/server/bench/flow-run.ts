// The engine's own CPU per touch, without the database (docs/workflow.md "The engine"): the leave model started once,
// then BENCH_FLOW_RUNS (2000) completes of the manager's task, each from the stored state as the database answers it
// (JSON text parsed again), timing the run's parts. Measures Node's share of a complete apart from PostgreSQL's and
// the driver's, so two builds (or two settings of one) compare on a shared machine: run them in turn.
// `cd apps/server && npx tsx bench/flow-run.ts`.
import { performance } from 'node:perf_hooks';
import { parseModel } from '../src/modules/flow/engine/definitions.ts';
import { runTouch } from '../src/modules/flow/engine/run.ts';
import { LEAVE_XML } from '../test/support/flow-fixture.ts';
import { round, runIfMain } from './lib.ts';

const RUNS = Number(process.env.BENCH_FLOW_RUNS ?? 2000);
const WARM = Number(process.env.BENCH_FLOW_WARM ?? 300);

export async function benchFlowRun() {
  const model = await parseModel(LEAVE_XML);
  const variables = { applyUser: '1', taskUser: '2' };
  const started = await runTouch({ model, state: null, variables });
  const stored = JSON.stringify(started.state);
  const task = started.waiting[0];
  const touch = () =>
    runTouch({
      model,
      state: JSON.parse(stored),
      variables: { ...variables, pass: true, comment: 'ok' },
      signal: { elementId: task.id, executionId: task.executionId },
    });
  for (let i = 0; i < WARM; i++) await touch();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) bytes += JSON.stringify((await touch()).state).length;
  const cpu = process.cpuUsage(cpu0);
  return {
    runs: RUNS,
    storedBytes: stored.length,
    bytesAfter: Math.round(bytes / RUNS),
    wallMsPerTouch: round((performance.now() - t0) / RUNS),
    cpuMsPerTouch: round((cpu.user + cpu.system) / 1000 / RUNS),
  };
}

runIfMain(import.meta.url, () => benchFlowRun());
