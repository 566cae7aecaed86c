import { describe, expect, it } from 'vitest';
import { Cache, GLOBAL_SCOPE } from '../src/platform/cache.ts';

/**
 * The in-process cache's loads (platform/cache.ts): concurrent misses share one build, and nothing read under an
 * older epoch is served after a newer one has been observed.
 */
const deferred = <T>() => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe('Cache.getBuilt', () => {
  it('concurrent misses each read, the first to finish builds, the others take its value', async () => {
    const cache = new Cache();
    cache.observe('100001', 1n, 1n);
    const reads = [deferred<string[]>(), deferred<string[]>(), deferred<string[]>()];
    let builds = 0;
    const build = (rows: string[]) => ({ built: ++builds, rows });
    const calls = reads.map((r) => cache.getBuilt('100001', 'k', () => r.promise, build));
    reads[1].resolve(['b']);
    reads[0].resolve(['a']);
    reads[2].resolve(['c']);
    const got = await Promise.all(calls);
    expect(builds).toBe(1);
    expect(got.map((g) => g.built)).toEqual([1, 1, 1]);
    // A hit afterwards neither reads nor builds.
    const again = await cache.getBuilt('100001', 'k', () => Promise.reject(new Error('read on a hit')), build);
    expect(again).toBe(got[0]);
  });

  it('a read begun under an older epoch is not served once a newer one is observed; the next miss builds afresh', async () => {
    const cache = new Cache();
    /** What the cache answers for 'k' when a miss would read `read`. */
    const get = (read: () => Promise<string>) => cache.getBuilt('100001', 'k', read, (v) => ({ v }));
    cache.observe('100001', 1n, 1n);
    const old = deferred<string>();
    const first = get(() => old.promise);
    cache.observe('100001', 2n, 1n); // another server's write, seen through a request
    const fresh = get(async () => 'new');
    old.resolve('old');
    expect((await first).v).toBe('old'); // its own caller gets what it read
    expect((await fresh).v).toBe('new');
    expect((await get(async () => 'newer')).v).toBe('new');
    // The global epoch counts for every scope.
    cache.observe(GLOBAL_SCOPE, 0n, 2n);
    cache.observe('100001', 2n, 2n);
    expect((await get(async () => 'global')).v).toBe('global');
  });
});
