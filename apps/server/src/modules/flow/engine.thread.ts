import { AppError } from '../../platform/errors.ts';
import { parseModel, type ParsedModel } from './engine/definitions.ts';
import { runTouch, type RunResult, type Touch } from './engine/run.ts';

/**
 * The touch a worker thread of the engine's pool runs (engine/pool.ts; docs/workflow.md "Worker threads"): the
 * stored state in, the run out — pure CPU, no database. Each thread keeps the parsed model per definition id, as the
 * main thread does (a stored definition never changes).
 */

export type PooledTouch = Omit<Touch, 'model'> & { definitionId: string; xml: string };
export type PooledAnswer =
  | { ok: true; run: RunResult }
  | { ok: false; status: AppError['status']; text: AppError['text']; fields?: AppError['fields'] }
  | { ok: false; status: 0; message: string };

const models = new Map<string, Promise<ParsedModel>>();
const KEPT = 500;

function modelOf(definitionId: string, xml: string) {
  let m = models.get(definitionId);
  if (!m) {
    m = parseModel(xml);
    m.catch(() => models.delete(definitionId));
    models.set(definitionId, m);
    if (models.size > KEPT) models.delete(models.keys().next().value!);
  }
  return m;
}

/** A refusal (AppError) comes back as data: an error crossing threads keeps only its message. */
export default async function touch(t: PooledTouch): Promise<PooledAnswer> {
  try {
    const { definitionId, xml, ...rest } = t;
    return { ok: true, run: await runTouch({ ...rest, model: await modelOf(definitionId, xml) }) };
  } catch (e) {
    if (e instanceof AppError) return { ok: false, status: e.status, text: e.text, fields: e.fields };
    return { ok: false, status: 0, message: String((e as Error)?.stack ?? e) };
  }
}
