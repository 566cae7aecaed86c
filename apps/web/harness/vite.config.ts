// Test-only build of the harness page beside the console (docs/workflow.md "Diagram components"): shows the sizes of
// the diagram chunks. `npx vite build -c harness/vite.config.ts --outDir /tmp/…` (never the product's dist).
import path from 'node:path';
import { defineConfig, mergeConfig } from 'vite';
import base from '../vite.config.ts';

export default mergeConfig(
  base,
  defineConfig({
    root: path.resolve(__dirname, '..'),
    build: {
      rollupOptions: {
        input: { index: path.resolve(__dirname, '../index.html'), harness: path.resolve(__dirname, 'flow.html') },
      },
    },
  }),
);
