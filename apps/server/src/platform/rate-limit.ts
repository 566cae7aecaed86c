/**
 * A fixed-window rate limit per key (an IP, a phone …), kept in memory — per process: each server counts its own
 * requests, so N servers behind a balancer allow up to N times the limit (docs/subdomains.md "Rate limit").
 * Good for cheap public checks that must not be hammered; durable limits (SMS sends) count rows in the database.
 */
export type RateLimitResult = { allowed: boolean; remaining: number; retryAfterMs: number };

export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    /** Keys kept at most (oldest windows are dropped first when it is exceeded). */
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts one request of `key` at `now` (ms) and says whether it is within the limit. */
  hit(key: string, now: number): RateLimitResult {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (w) this.windows.delete(key);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > this.maxKeys) this.prune(now);
    }
    w.count++;
    const retryAfterMs = Math.max(0, w.start + this.windowMs - now);
    return w.count <= this.limit
      ? { allowed: true, remaining: this.limit - w.count, retryAfterMs: 0 }
      : { allowed: false, remaining: 0, retryAfterMs };
  }

  /** Drops ended windows; if every window is current, the oldest ones (Map keeps insertion order). */
  private prune(now: number) {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
    for (const k of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break;
      this.windows.delete(k);
    }
  }

  reset(): void {
    this.windows.clear();
  }
}
