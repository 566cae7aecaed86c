import { fuzzShard } from './support/fuzz.ts';

fuzzShard(1);
