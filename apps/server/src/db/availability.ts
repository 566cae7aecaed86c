/**
 * Whether the database can be reached (docs/server.md "Database outages"): which errors mean "the database is not
 * there right now" rather than "this request is wrong", and a state that turns to down at the first such error and
 * back to up once a probe connects again. While down, API calls are answered 503 at once instead of each waiting
 * for a connection that will not come.
 */

/**
 * SQLSTATEs of a database that is not available: class 08 (connection exception), 57P01–57P04 (administrator or
 * crash shutdown, cannot connect now, database dropped), class 53 (insufficient resources: disk full, out of memory,
 * too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-4]|53...)$/;
/** Socket errors of a connection that could not be made or was cut. */
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's own words for a connection that ended or could not be made in time. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Query read timeout)/;

/**
 * Whether `err` (or what it wraps: drizzle puts the driver's error in `cause`; a connection to a name with several
 * addresses fails with an AggregateError) says the database is unreachable or ended the connection.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 6) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATE.test(e.code) || UNAVAILABLE_ERRNO.has(e.code))) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** A short, secret-free description of an unavailability error for a log line: its code and driver message. */
export function describeUnavailable(err: unknown, depth = 0): string {
  if (!err || typeof err !== 'object' || depth > 6) return String(err);
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (e.cause && isDatabaseUnavailable(e.cause)) return describeUnavailable(e.cause, depth + 1);
  if (Array.isArray(e.errors) && e.errors.length) return describeUnavailable(e.errors[0], depth + 1);
  const code = typeof e.code === 'string' ? `${e.code}: ` : '';
  // A driver's connection message and the server's words for class 08 and 57P name no value of a statement; any
  // other SQL error's message might, so only its code is kept.
  const sqlState = typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code);
  const text = typeof e.message === 'string' && (!sqlState || /^(08|57P)/.test(String(e.code))) ? e.message : '';
  return `${code}${text}`.replace(/: $/, '') || 'unknown';
}

export type AvailabilityEvent = { state: 'down'; reason: string } | { state: 'up'; downMs: number; probes: number };

/** How often a down database is probed. */
export const PROBE_EVERY_MS = 250;

/**
 * Up or down. `failed(err)` with an unavailability error turns it down and starts probing (`probe` connects and runs
 * one statement on a connection of its own); the first probe that succeeds turns it up. Probes run one at a time.
 */
export class Availability {
  private downSince: number | null = null;
  private probes = 0;
  private probing = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(e: AvailabilityEvent) => void>();

  constructor(
    private readonly probe: () => Promise<void>,
    private readonly everyMs = PROBE_EVERY_MS,
  ) {}

  get down(): boolean {
    return this.downSince !== null;
  }

  /** Calls `fn` at each change of state; answers a function that stops it. */
  onChange(fn: (e: AvailabilityEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Notes an error; answers whether it was an unavailability (then the state is down until a probe succeeds). */
  failed(err: unknown): boolean {
    if (!isDatabaseUnavailable(err)) return false;
    if (this.closed) return true;
    if (this.downSince === null) {
      this.downSince = Date.now();
      this.probes = 0;
      this.emit({ state: 'down', reason: describeUnavailable(err) });
    }
    if (!this.probing) {
      this.probing = true;
      this.timer = setTimeout(() => void this.tryProbe(), 0);
      this.timer.unref();
    }
    return true;
  }

  private async tryProbe() {
    this.timer = undefined;
    if (this.closed) return;
    this.probes++;
    let ok = false;
    try {
      await this.probe();
      ok = true;
    } catch {
      // Still down: probed again shortly.
    }
    if (this.closed) return;
    if (ok) {
      const downMs = this.downSince === null ? 0 : Date.now() - this.downSince;
      const probes = this.probes;
      this.downSince = null;
      this.probing = false;
      this.emit({ state: 'up', downMs, probes });
      return;
    }
    this.timer = setTimeout(() => void this.tryProbe(), this.everyMs);
    this.timer.unref();
  }

  private emit(e: AvailabilityEvent) {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  /** Stops probing (the database is being closed). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }
}

/**
 * Runs `fn`, and again every `everyMs` while it fails because the database is unavailable, until `forMs` have passed
 * (then its last error is thrown). For background work whose step must not be lost to a short outage — the outbox
 * recording a message it has just sent, so it is not sent twice.
 */
export async function retryWhileUnavailable<T>(fn: () => Promise<T>, forMs: number, everyMs = 500): Promise<T> {
  const until = Date.now() + forMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() + everyMs > until) throw err;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
