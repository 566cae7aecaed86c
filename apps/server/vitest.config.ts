import { defineConfig } from 'vitest/config';
import { reporters } from '../../vitest.reporters.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Migrates and seeds one database image per run; each test file starts from a copy of it.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    // Every statement the fast renderer makes is rendered by drizzle too and compared (src/db/render.ts).
    env: { ATRIUM_CHECK_RENDER: '1' },
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: reporters('server'),
  },
});
