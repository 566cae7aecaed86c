/// <reference types="vitest/config" />
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { reporters } from '../../vitest.reporters.ts';

const apiTarget = process.env.ATRIUM_API ?? 'http://localhost:8080';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Text files worth compressing; images other than SVG and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip level 9) beside every compressible file of the
 * build, so the server sends them as they are instead of compressing each answer (docs/web.md "Compressed files").
 * A variant that would not be smaller is not written; the server then sends the file itself.
 */
function precompress(): Plugin {
  let outDir = '';
  const files = async (dir: string): Promise<string[]> =>
    (
      await Promise.all(
        (await fs.readdir(dir, { withFileTypes: true })).map((e) => {
          const file = path.join(dir, e.name);
          return e.isDirectory() ? files(file) : [file];
        }),
      )
    ).flat();
  return {
    name: 'atrium-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle(error?: Error) {
      if (error) return;
      const todo = (await files(outDir)).filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        todo.map(async (file) => {
          const data = await fs.readFile(file);
          const [br, gz] = await Promise.all([
            brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzip(data, { level: 9 }),
          ]);
          if (br.length < data.length) await fs.writeFile(`${file}.br`, br);
          if (gz.length < data.length) await fs.writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  server: { port: 5173, proxy: { '/api': { target: apiTarget, changeOrigin: true, ws: true } } },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 2000,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    // Vitest's default is one worker less than the cores: on a two-core machine one file at a time. Two workers share
    // the suite (each file has its own jsdom), as the server's suite does.
    maxWorkers: 2,
    testTimeout: 30_000,
    reporters: reporters('web'),
  },
});
