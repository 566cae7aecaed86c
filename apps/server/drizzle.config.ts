import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // System tables, and each module's own tables (docs/resources.md "Tables").
  schema: ['./src/db/schema/index.ts', './src/modules/*/table.ts'],
  out: './src/db/migrations',
});
