import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Engine } from 'bpmn-engine';
import { Timers, type IScripts } from 'bpmn-elements';
import { fill } from '@atrium/contract';
import { AppError } from '../../../platform/errors.ts';
import { flowTexts as texts } from '../messages.ts';
import type { ParsedModel } from './definitions.ts';
import { evaluate, ExpressionError, hasExpression } from './expressions.ts';

/**
 * One touch of an instance on bpmn-engine (docs/workflow.md "The engine"): an engine is built for the touch only —
 * from the parsed model, and from the stored state when the instance exists — runs until every path waits, and
 * answers what happened and the state to store. Nothing of it outlives the call: the engine is dropped, not stopped
 * (a stop sends every waiting activity's stop through the brokers, 0.9–2.2 ms of a complete's 7–9 ms of engine time, and the engine
 * holds nothing outside itself — no timer, no subscription — so the garbage collector takes it whole).
 */

/** What the touch does after the engine is rebuilt: start, or signal a waiting activity. */
export type Touch = {
  model: ParsedModel;
  /** The stored state; null to start an instance. */
  state: unknown;
  variables: Record<string, unknown>;
  /** The activity to signal; none with a stored state: a resume only, which fires the timers due (a timer touch). */
  signal?: { elementId: string; executionId: string };
  /**
   * A timer touch's open tasks (their execution ids, read from the task rows): the resume may fire a timer that ends
   * a task before the waiting ones can be read from the engine.
   */
  waitingBefore?: string[];
};

/** An activity the run went through (entered and/or left), in order. */
export type Passed = {
  event: 'start' | 'end' | 'wait';
  id: string;
  type: string;
  name: string | null;
  executionId: string;
};

/** An activity waiting when the run stopped; for a user task its handler, as the model says it. */
export type Waiting = {
  id: string;
  type: string;
  name: string | null;
  executionId: string;
  assignee: string | null;
  candidateGroups: string | null;
  formKey: string | null;
};

/** A timer waiting when the run stopped (docs/workflow.md "Timers"): the timer worker resumes the instance when due. */
export type WaitingTimer = { elementId: string; executionId: string; dueAt: Date };

export type RunResult = {
  state: unknown;
  ended: boolean;
  passed: Passed[];
  waiting: Waiting[];
  timers: WaitingTimer[];
  /** The execution ids of the user tasks waiting in the stored state, before the signal (none for a start). */
  waitingBefore: string[];
};

/** bpmn-engine's version, written in the stored state as its own `getState()` does (its package exports no file). */
const ENGINE_VERSION = (
  JSON.parse(
    readFileSync(
      path.join(path.dirname(createRequire(import.meta.url).resolve('bpmn-engine')), '../package.json'),
      'utf8',
    ),
  ) as { version: string }
).version;

/**
 * No script runner: every script task, and every condition with a script language, gets a "script" that only fails
 * (the touch is refused with a 400 naming the element); nothing of the model's code is read or run.
 */
const SCRIPT_REFUSED = 'script refused';
const refusing = (where: string | null) => ({
  execute(_scope: unknown, callback: (err: Error) => void) {
    callback(new Error(`${SCRIPT_REFUSED}${where ? `:${where}` : ''}`));
  },
});
const noScripts = {
  register: () => undefined,
  getScript: (language: string | undefined, element: { id?: string; type?: string }) => {
    if (element?.type !== 'bpmn:SequenceFlow') return refusing(null);
    return language ? refusing(element.id ?? null) : undefined;
  },
} as unknown as IScripts;

/**
 * Timers that never fire inside a touch: they are only recorded, and the touch answers them with their due times. A
 * timer already due when an instance is resumed completes during the resume (bpmn-elements compares its stored
 * `expireAt` with the clock), so firing a timer is resuming its instance once it is due (the timer worker, timers.ts).
 */
const recordingTimers = () =>
  new Timers({ setTimeout: (() => ({})) as unknown as typeof setTimeout, clearTimeout: () => undefined });

type TimerOwner = { id?: string; executionId?: string; expireAt?: Date | string };

/** The timers registered and not fired, with their due times. */
function waitingTimers(timers: InstanceType<typeof Timers>): WaitingTimer[] {
  const out: WaitingTimer[] = [];
  for (const t of timers.executing as unknown as { owner?: TimerOwner; delay: number }[]) {
    const o = t.owner;
    if (!o?.id || !o.executionId) continue;
    const due = o.expireAt ? new Date(o.expireAt) : new Date(Date.now() + t.delay);
    if (!Number.isNaN(due.getTime())) out.push({ elementId: o.id, executionId: o.executionId, dueAt: due });
  }
  return out;
}

/** `${…}` expressions of the model, evaluated by `evaluate` over the process variables only. */
const expressions = {
  resolveExpression(text: string, context: { environment?: { variables?: Record<string, unknown> } }) {
    return evaluate(text, context?.environment?.variables ?? {});
  },
  isExpression: (text: string) => /^\s*[$#]\{[^}]*\}\s*$/.test(text ?? ''),
  hasExpression: (text: string) => hasExpression(text),
};

/** The engine's own logging is off (its failures reach the touch as errors); the debug logger costs time per element. */
const quiet = () => ({ debug() {}, error() {}, warn() {} });

type ActivityApi = {
  id: string;
  type: string;
  name?: string;
  executionId: string;
  owner?: { behaviour?: Record<string, unknown>; environment?: { assignVariables(v: object): void } };
};

/** Runs one touch; a model that cannot go on (a script, a bad expression, no outgoing flow) is a 400 naming where. */
export async function runTouch(touch: Touch): Promise<RunResult> {
  const passed: Passed[] = [];
  let failedAt: string | null = null;
  let failure: unknown = null;
  const listener = {
    emit(name: string, api: ActivityApi) {
      const event = /^activity\.(start|end|wait|error)$/.exec(name)?.[1];
      if (!event || !api?.id) return;
      if (event === 'error') {
        failedAt ??= api.name || api.id;
        return;
      }
      passed.push({
        event: event as Passed['event'],
        id: api.id,
        type: api.type,
        name: api.name ?? null,
        executionId: api.executionId,
      });
    },
  };
  const timers = recordingTimers();
  const engine = new Engine({
    name: touch.model.processId,
    sourceContext: touch.model.sourceContext,
    scripts: noScripts,
    timers,
    expressions,
    listener,
    Logger: quiet,
    // Elements that hold nothing (not entered, or done with) stay out of the stored state: a smaller state to write,
    // read and recover (the leave model's 7.8 → 6.1 KB); a recovered element without a state starts idle.
    settings: { disableTrackState: true },
  });
  engine.on('error', (err: unknown) => (failure ??= err));
  let execution;
  const waitingBefore: string[] = [];
  try {
    if (touch.state === null) {
      execution = await engine.execute({ variables: { ...touch.variables } });
    } else {
      // The stored state is the caller's own copy, read for this touch (recover keeps parts of it).
      engine.recover(touch.state as Parameters<Engine['recover']>[0]);
      execution = await engine.resume();
      // A resume emits `wait` again for every activity still waiting; what it runs (a timer that fell due) is kept.
      const ran = passed.filter((p) => p.event !== 'wait');
      passed.length = 0;
      passed.push(...ran);
      if (touch.signal) {
        // bpmn-engine types a postponed activity as its element API without the owner and signal it has.
        const postponed = execution.getPostponed() as unknown as (ActivityApi & { signal(m?: object): void })[];
        for (const a of postponed) if (a.type === 'bpmn:UserTask') waitingBefore.push(a.executionId);
        const target = postponed.find(
          (a) => a.id === touch.signal!.elementId && a.executionId === touch.signal!.executionId,
        );
        if (!target) throw new AppError(409, texts.stale);
        target.owner?.environment?.assignVariables({ ...touch.variables });
        target.signal({});
      } else waitingBefore.push(...(touch.waitingBefore ?? []));
    }
    // The run is synchronous; a turn of the event loop lets anything queued settle before the state is read.
    await new Promise((r) => setImmediate(r));
  } catch (e) {
    if (e instanceof AppError) throw e;
    failure ??= e;
  }
  if (failure || engine.state === 'error' || failedAt) throw stuck(failedAt ?? touch.model.processId, failure);
  const waiting = execution!.getPostponed().map((a) => waitingOf(a as unknown as ActivityApi));
  const pending = waitingTimers(timers);
  return { state: stateOf(engine), ended: waiting.length === 0, passed, waiting, waitingBefore, timers: pending };
}

type EngineExecution = {
  state: string;
  stopped: boolean;
  environment: { getState(): unknown };
  definitions: { getState(): object }[];
};

/**
 * bpmn-engine's `getState()` without the model's source (its own serializes the whole model into each definition's
 * state, which we dropped after): the stored state is the model's definition id plus this.
 */
function stateOf(engine: Engine) {
  // bpmn-engine's types leave the execution's environment and definitions out (they are plain properties of it).
  const execution = engine.execution as unknown as EngineExecution;
  return {
    name: engine.name,
    state: execution.state,
    stopped: execution.stopped,
    engineVersion: ENGINE_VERSION,
    environment: execution.environment.getState(),
    definitions: execution.definitions.map((d) => d.getState()),
  };
}

function waitingOf(a: ActivityApi): Waiting {
  const b = a.owner?.behaviour ?? {};
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
  return {
    id: a.id,
    type: a.type,
    name: a.name ?? null,
    executionId: a.executionId,
    assignee: str(b.assignee),
    candidateGroups: str(b.candidateGroups),
    formKey: str(b.formKey),
  };
}

function stuck(element: string, err: unknown): AppError {
  const inner = (err as { inner?: unknown })?.inner;
  const cause = inner instanceof ExpressionError ? inner : err;
  const detail = String((cause as Error)?.message ?? cause ?? '')
    .split('\n')[0]
    .slice(0, 200);
  const refused = new RegExp(`${SCRIPT_REFUSED}(?::(\\S+))?`).exec(detail);
  if (refused) return new AppError(400, fill(texts.scriptRefused, { element: refused[1] ?? element }));
  return new AppError(400, fill(texts.elementFailed, { element, detail }));
}
