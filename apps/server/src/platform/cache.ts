/** The scope of what every tenant reads (platform menus, system dictionaries, parameters). */
export const GLOBAL_SCOPE = '*';

type Entry = { value: unknown; epoch: bigint | undefined; globalEpoch: bigint | undefined };

/** Entries kept per scope at most (dictionary codes are the caller's choice); the oldest goes first. */
const MAX_ENTRIES = 2000;

/**
 * In-process cache for hot reads every page makes (menu routes, buttons, permission codes, scopes, dictionaries), kept
 * per scope (a tenant id, or GLOBAL_SCOPE). Coherence across every server sharing the database comes from the cache
 * epochs (docs/server.md "Live state and cache epochs"): each request's live-state query reads its tenant's epoch and
 * the global one and hands them to `observe`; an entry is answered only while both epochs are those it was loaded
 * under. There is no time-to-live: nothing is served after a write that another server has committed and this one
 * has seen through a request.
 */
export class Cache {
  private readonly byScope = new Map<string, Map<string, Entry>>();
  /** The newest epoch seen per scope. A scope never seen (no request yet) caches under "unknown" until it is. */
  private readonly epochs = new Map<string, bigint>();

  /** The epochs read by a request's live-state query; newer ones drop what was loaded under older ones. */
  observe(tenantId: string, tenantEpoch: bigint, globalEpoch: bigint): void {
    const g = this.epochs.get(GLOBAL_SCOPE);
    if (g === undefined || globalEpoch > g) {
      if (g !== undefined) this.byScope.clear();
      this.epochs.set(GLOBAL_SCOPE, globalEpoch);
    }
    const e = this.epochs.get(tenantId);
    if (e === undefined || tenantEpoch > e) {
      if (e !== undefined) this.byScope.delete(tenantId);
      this.epochs.set(tenantId, tenantEpoch);
    }
  }

  /** The epochs this server holds for a tenant and for the global scope; undefined until it has seen both. */
  epochsOf(tenantId: string): { tenant: bigint; global: bigint } | undefined {
    const tenant = this.epochs.get(tenantId);
    const global = this.epochs.get(GLOBAL_SCOPE);
    return tenant === undefined || global === undefined ? undefined : { tenant, global };
  }

  async get<T>(scope: string, key: string, load: () => Promise<T>): Promise<T> {
    return this.getBuilt(scope, key, load, (value) => value);
  }

  /**
   * `get` for a value that is costly to build from what is read (the blacklist's word automaton): concurrent misses
   * each read (through their own transaction, so none waits on another's connection), and the first to finish builds;
   * the others find its entry, loaded under the same epochs, and build nothing.
   */
  async getBuilt<R, T>(scope: string, key: string, read: () => Promise<R>, build: (read: R) => T): Promise<T> {
    // Taken before the read: a write committed while reading leaves the entry under the older epoch, so it is not used.
    const epoch = this.epochs.get(scope);
    const globalEpoch = this.epochs.get(GLOBAL_SCOPE);
    const current = (): Entry | undefined => {
      const hit = this.byScope.get(scope)?.get(key);
      return hit && hit.epoch === epoch && hit.globalEpoch === globalEpoch ? hit : undefined;
    };
    const hit = current();
    if (hit) return hit.value as T;
    const loaded = await read();
    const meanwhile = current();
    if (meanwhile) return meanwhile.value as T;
    const value = build(loaded);
    // Read under epochs older than the newest observed meanwhile: its caller gets it, the cache keeps what it has.
    if (this.epochs.get(scope) !== epoch || this.epochs.get(GLOBAL_SCOPE) !== globalEpoch) return value;
    let bucket = this.byScope.get(scope);
    if (!bucket) this.byScope.set(scope, (bucket = new Map()));
    bucket.delete(key);
    if (bucket.size >= MAX_ENTRIES) bucket.delete(bucket.keys().next().value!);
    bucket.set(key, { value, epoch, globalEpoch });
    return value;
  }

  /** Drops a scope's entries here (the epoch bump tells the other servers). */
  clear(scope: string): void {
    if (scope === GLOBAL_SCOPE) this.byScope.clear();
    else this.byScope.delete(scope);
  }

  clearTenant(tenantId: string): void {
    this.clear(tenantId);
  }

  clearAll(): void {
    this.byScope.clear();
  }
}
