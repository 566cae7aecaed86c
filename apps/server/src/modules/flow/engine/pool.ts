import fs from 'node:fs';
import os from 'node:os';
import Piscina from 'piscina';
import { AppError } from '../../../platform/errors.ts';
import type { PooledAnswer, PooledTouch } from '../engine.thread.ts';
import { runTouch, type RunResult, type Touch } from './run.ts';

/**
 * Where a touch's engine runs (docs/workflow.md "The engine", "Worker threads"): in a pool of worker threads
 * (piscina) when `ATRIUM_FLOW_THREADS` is above 0 — the stored state goes in, the run comes out, pure CPU; the
 * transaction, its locks and its writes stay on the main thread — or on the main thread itself with 0. Unset: one
 * thread less than the machine's cores, at least one.
 */

/** The pool's size from the environment (0: no pool); a value that is not a whole number from 0 to 64 is refused. */
export function engineThreads(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.ATRIUM_FLOW_THREADS;
  if (text === undefined || text === '') return Math.max(1, (os.availableParallelism?.() ?? os.cpus().length) - 1);
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 64) throw new Error('ATRIUM_FLOW_THREADS: a whole number from 0 to 64');
  return n;
}

/** engine.worker.mjs: beside the module's folder from the sources, beside the module's bundle or a shared chunk built. */
function workerFile(): string {
  const candidates = ['../engine.worker.mjs', './engine.worker.mjs', './modules/flow/engine.worker.mjs'];
  for (const c of candidates) {
    const url = new URL(c, import.meta.url);
    if (fs.existsSync(url)) return url.href;
  }
  throw new Error('flow engine: engine.worker.mjs not found');
}

let pool: Piscina | null | undefined;

function poolOf(): Piscina | null {
  if (pool !== undefined) return pool;
  const threads = engineThreads();
  pool = threads
    ? new Piscina({
        filename: workerFile(),
        minThreads: threads,
        maxThreads: threads,
        // The threads stay (a started thread costs ≈ 0.5 s of reading the engine's code); piscina unreferences
        // idle ones, so they keep no process alive.
        idleTimeout: Infinity,
      })
    : null;
  return pool;
}

/**
 * Starts the pool's threads now rather than at the first touch (the server's start): a thread reads the engine's code
 * before its first run, which the first touches would otherwise wait for.
 */
export function startEnginePool(): void {
  poolOf();
}

/** Runs a touch (run.ts `runTouch`) in the pool, or here when there is none; a refusal keeps its status and text. */
export async function runTouchPooled(touch: Touch & { definitionId: string }): Promise<RunResult> {
  const p = poolOf();
  const { definitionId, ...own } = touch;
  if (!p) return runTouch(own);
  const { model, ...rest } = own;
  const answer = (await p.run({ ...rest, definitionId, xml: model.xml } satisfies PooledTouch)) as PooledAnswer;
  if (answer.ok) return answer.run;
  if (answer.status) throw new AppError(answer.status, answer.text, answer.fields);
  throw new Error(`flow engine thread: ${answer.message}`);
}

/** Ends the pool's threads (the server's shutdown, a test's end); a later touch starts a new pool. */
export async function closeEnginePool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.destroy();
}
