// No escalation inside a tenant, on one database (test/support/escalation-suite.ts; moved: test/escalation-moved.test.ts).
import { escalationSuite } from './support/escalation-suite.ts';

await escalationSuite(false);
