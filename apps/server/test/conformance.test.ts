// The conformance suite on one database (test/support/conformance-suite.ts; moved: test/conformance-moved.test.ts).
import { conformanceSuite } from './support/conformance-suite.ts';

await conformanceSuite(false);
