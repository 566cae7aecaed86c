// The server's build (docs/server.md "Start"): esbuild bundles each entry with the code it imports, one file per
// module under modules/ (src/app.ts finds them by listing that folder beside itself), shared chunks, and the
// migrations, the embedded database's worker and the modules' `*.worker.mjs` (with the `*.thread.ts` they load) beside them (src/db/client.ts and src/db/pglite-thread.ts read them
// from there). Packages stay in node_modules, except the workspace's own (TypeScript sources, not runnable by node). Used by `npm start` (scripts/start.mjs) for dist/ and by
// the benches (apps/server/bench/built.mjs), so what a bench times is the code `npm start` runs.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Builds `entries` (`{ in: path under serverDir, out: name in outDir }`) and every module into `outDir`, emptied
 * first. `outDir` must lie under serverDir, where node finds the packages the build leaves out.
 */
export async function buildServerBundle({ serverDir, outDir, entries }) {
  const esbuild = await import(pathToFileURL(createRequire(path.join(serverDir, 'package.json')).resolve('esbuild')));
  const modules = path.join(serverDir, 'src/modules');
  const entryPoints = [
    ...entries,
    ...fs
      .readdirSync(modules)
      .filter((m) => fs.existsSync(path.join(modules, m, 'index.ts')))
      .map((m) => ({ in: `src/modules/${m}/index.ts`, out: `modules/${m}/index` })),
    // A module's worker-thread code (`<name>.thread.ts`, loaded by its `*.worker.mjs` from beside it).
    ...fs.readdirSync(modules).flatMap((m) =>
      fs.statSync(path.join(modules, m)).isDirectory()
        ? fs
            .readdirSync(path.join(modules, m))
            .filter((f) => f.endsWith('.thread.ts'))
            .map((f) => ({ in: `src/modules/${m}/${f}`, out: `modules/${m}/${f.slice(0, -3)}` }))
        : [],
    ),
  ];
  fs.rmSync(outDir, { recursive: true, force: true });
  try {
    await esbuild.build({
      absWorkingDir: serverDir,
      entryPoints,
      outdir: outDir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      sourcemap: true,
      logLevel: 'warning',
      plugins: [
        {
          name: 'external-packages',
          setup(b) {
            b.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith('@atrium/') ? undefined : { external: true }));
          },
        },
      ],
    });
  } finally {
    await esbuild.stop?.();
  }
  fs.cpSync(path.join(serverDir, 'src/db/migrations'), path.join(outDir, 'migrations'), { recursive: true });
  // The embedded database's thread, plain JavaScript that src/db/pglite-thread.ts starts from beside itself.
  fs.cpSync(path.join(serverDir, 'src/db/pglite-worker.mjs'), path.join(outDir, 'pglite-worker.mjs'));
  // The platform's worker threads (`platform/<name>.worker.mjs`, started from `new URL('./<name>.worker.mjs',
  // import.meta.url)` in platform code): platform code that more than one module imports lands in a shared chunk,
  // which esbuild writes at the top of `outDir`, so they go there.
  for (const f of fs.readdirSync(path.join(serverDir, 'src/platform')).filter((n) => n.endsWith('.worker.mjs')))
    fs.cpSync(path.join(serverDir, 'src/platform', f), path.join(outDir, f));
  // A module's worker threads (`<name>.worker.mjs`, plain JavaScript started from `new URL('./<name>.worker.mjs',
  // import.meta.url)` in that module's own code): beside the module's bundle, where that URL leads.
  for (const m of fs.readdirSync(modules)) {
    const dir = path.join(modules, m);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.worker.mjs')))
      fs.cpSync(path.join(dir, f), path.join(outDir, 'modules', m, f));
  }
  // Every worker a built file starts must lie where its URL leads (platform code bundled into one module's file
  // instead of a shared chunk would look for it beside that module): a build that would fail at run time fails here.
  for (const f of fs
    .readdirSync(outDir, { recursive: true })
    .map(String)
    .filter((n) => n.endsWith('.js'))) {
    const text = fs.readFileSync(path.join(outDir, f), 'utf8');
    for (const [, worker] of text.matchAll(/new URL\("\.\/([\w.-]+\.mjs)", import\.meta\.url\)/g))
      if (!fs.existsSync(path.join(outDir, path.dirname(f), worker)))
        throw new Error(`build: ${f} starts ./${worker}, which is not beside it`);
  }
}
