// A worker thread of the workflow engine's pool (engine/pool.ts; docs/workflow.md "The engine"): it answers
// engine.thread.ts's touch. Built (dist/modules/flow/), that file is beside this one as engine.thread.js; from the
// sources (tsx, the tests), tsx's loader reads the TypeScript.
import fs from 'node:fs';

const built = new URL('./engine.thread.js', import.meta.url);
const thread = fs.existsSync(built)
  ? await import(built.href)
  : await (await import('tsx/esm/api')).tsImport('./engine.thread.ts', import.meta.url);

export default thread.default;
