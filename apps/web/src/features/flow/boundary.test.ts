// bpmn-js stays out of the entry chunk and the shell (docs/web.md "Bundle budget"): outside features/flow/bpmn/ no
// source file imports it or that folder statically; the components load it with import() only.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../..');
const BPMN_DIR = path.join(SRC, 'features/flow/bpmn');
const BPMN_PACKAGE =
  /^(bpmn-js|bpmn-js-properties-panel|bpmn-moddle|diagram-js|camunda-bpmn-[\w-]+|@bpmn-io\/[\w-]+)(\/|$)/;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return files(file);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** The modules a file imports statically (type-only imports are erased and do not count). */
function staticImports(source: string): string[] {
  const found: string[] = [];
  const re = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(re)) if (!m[1]) found.push(m[2]);
  return found;
}

const offenders = (root: string) =>
  files(root)
    .filter((f) => !f.startsWith(BPMN_DIR + path.sep))
    .flatMap((file) =>
      staticImports(fs.readFileSync(file, 'utf8'))
        .filter((spec) =>
          spec.startsWith('.') ? path.resolve(path.dirname(file), spec).startsWith(BPMN_DIR) : BPMN_PACKAGE.test(spec),
        )
        .map((spec) => `${path.relative(SRC, file)} → ${spec}`),
    );

describe('bpmn-js is a lazy chunk', () => {
  it('no file outside features/flow/bpmn imports bpmn-js or that folder statically', () => {
    expect(offenders(SRC)).toEqual([]);
  });

  it('the components load the modeler and the viewer with import()', () => {
    const lazy = fs.readFileSync(path.join(SRC, 'features/flow/lazy.tsx'), 'utf8');
    expect(lazy).toMatch(/import\('\.\/bpmn\/FlowModeler'\)/);
    expect(lazy).toMatch(/import\('\.\/bpmn\/FlowViewer'\)/);
  });

  it('sees a static import, and not a type-only one or an import()', () => {
    expect(
      staticImports(
        "import Modeler from 'bpmn-js/lib/Modeler';\nimport type { X } from './bpmn/x';\nexport { a } from './bpmn/FlowViewer';\nconst m = import('./bpmn/FlowModeler');\nimport './bpmn/flow.css';",
      ),
    ).toEqual(['bpmn-js/lib/Modeler', './bpmn/FlowViewer', './bpmn/flow.css']);
  });
});
