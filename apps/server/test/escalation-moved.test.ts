// No escalation inside a tenant, again with the tenant on a database of its own (PostgreSQL; docs/tenants.md "Tests of
// a moved tenant").
import { describe, it } from 'vitest';
import { escalationSuite } from './support/escalation-suite.ts';

if (process.env.DATABASE_URL) await escalationSuite(true);
else describe.skip('no escalation with a moved tenant (PostgreSQL only)', () => it('needs DATABASE_URL'));
