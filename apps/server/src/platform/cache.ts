/**
 * In-process cache for hot reads every page makes (menu routes, buttons, permission codes), keyed by
 * tenant so a change in one tenant drops only that tenant's entries. One process owns its cache;
 * a scaled-out deployment would move this to Redis with the same keys.
 */
export class Cache {
  private readonly byTenant = new Map<string, Map<string, { value: unknown; until: number }>>();

  constructor(
    private readonly ttlMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get<T>(tenantId: string, key: string, load: () => Promise<T>): Promise<T> {
    let bucket = this.byTenant.get(tenantId);
    const hit = bucket?.get(key);
    if (hit && hit.until > this.now()) return hit.value as T;
    const value = await load();
    if (!bucket) this.byTenant.set(tenantId, (bucket = new Map()));
    bucket.set(key, { value, until: this.now() + this.ttlMs });
    return value;
  }

  clearTenant(tenantId: string): void {
    this.byTenant.delete(tenantId);
  }

  clearAll(): void {
    this.byTenant.clear();
  }
}
