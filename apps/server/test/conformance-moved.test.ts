// The conformance suite again with the writing tenant on a database of its own (PostgreSQL; docs/tenants.md "Tests
// of a moved tenant").
import { describe, it } from 'vitest';
import { conformanceSuite } from './support/conformance-suite.ts';

if (process.env.DATABASE_URL) await conformanceSuite(true);
else describe.skip('resource conformance with a moved tenant (PostgreSQL only)', () => it('needs DATABASE_URL'));
