/**
 * The boundaries of the code, checked by `npm run lint:deps` (part of `npm run lint`, so CI runs it). What each rule
 * means and why: docs/server.md "Module boundaries". There is no list of exceptions.
 */
const MODULES = '^apps/server/src/modules/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'module-internals',
      comment:
        "A module reaches another module only through its public entry, modules/<name>/index.ts (docs/server.md 'Module boundaries').",
      severity: 'error',
      from: { path: `${MODULES}([^/]+)/`, pathNot: `${MODULES}[^/]+/table\\.ts$` },
      to: {
        path: `${MODULES}([^/]+)/`,
        pathNot: [`${MODULES}$1/`, `${MODULES}[^/]+/index\\.ts$`],
      },
    },
    {
      name: 'module-tables',
      comment:
        "A module's table.ts (its drizzle tables, read by drizzle-kit) may reference another module's table.ts for a foreign key, and nothing else of it.",
      severity: 'error',
      from: { path: `${MODULES}([^/]+)/table\\.ts$` },
      to: { path: `${MODULES}([^/]+)/`, pathNot: [`${MODULES}$1/`, `${MODULES}[^/]+/table\\.ts$`] },
    },
    {
      name: 'outside-module-internals',
      comment:
        'Code above the modules (app.ts, server.ts, the seed) reaches a module only through its public entry; tests, benches and scripts may read internals.',
      severity: 'error',
      from: { path: '^apps/server/src/', pathNot: [`${MODULES}`, '\\.test\\.ts$'] },
      to: { path: `${MODULES}[^/]+/`, pathNot: `${MODULES}[^/]+/index\\.ts$` },
    },
    {
      name: 'no-module-cycle',
      comment:
        'No cycle among modules: every module-to-module edge goes through index.ts, which reaches the whole module, so a cycle of modules is a cycle of files through their index.ts.',
      severity: 'error',
      from: { path: MODULES },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-file-cycle',
      comment:
        'No cycle of files anywhere else in the server (a cycle entered by an import of types only, erased at run time, is not counted).',
      severity: 'error',
      from: { path: '^apps/server/src/', pathNot: MODULES },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'platform-db-no-module',
      comment: 'platform/ and db/ sit below the modules: they import none (modules fill their registries instead).',
      severity: 'error',
      from: { path: '^apps/server/src/(platform|db)/' },
      to: { path: `${MODULES}|^apps/server/src/(app|server|main)\\.ts$|^apps/server/src/seed/` },
    },
    {
      name: 'web-not-server',
      comment: 'The console never imports the server: they share packages/contract only.',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'server-not-web',
      comment: 'The server never imports the console.',
      severity: 'error',
      from: { path: '^apps/server/' },
      to: { path: '^apps/web/' },
    },
    {
      name: 'contract-no-app',
      comment: 'The shared contract imports neither app.',
      severity: 'error',
      from: { path: '^packages/contract/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
