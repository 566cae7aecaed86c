import { availabilityOf, type Db } from '../db/client.ts';

/**
 * The loop of a background worker (docs/architecture.md "Background work inside the server"): one round at a time, the next one `pollMs`
 * after, or at once when the round says there is more or a `kick` came while it ran; no round while the database is
 * down (looked at again after the usual pause); `stop` lets the round in hand finish. The outbox's delivery, the
 * workflow's timers and the attachment removals run on it.
 */
export class Poller {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<unknown> | undefined;
  private on = false;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly pollMs: number,
    /** One round; answers whether there is more to do now. */
    private readonly round: () => Promise<boolean>,
    private readonly onError: (err: unknown) => void,
  ) {}

  get running(): boolean {
    return this.on;
  }

  start(): void {
    if (this.on) return;
    this.on = true;
    this.schedule(0);
  }

  /** Stops polling and waits for the round in hand. */
  async stop(): Promise<void> {
    this.on = false;
    clearTimeout(this.timer);
    await this.current?.catch(() => undefined);
  }

  /** Look soon (work was just queued in a transaction that is about to commit). */
  kick(): void {
    if (!this.on) return;
    if (this.current) this.again = true;
    else this.schedule(25);
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick() {
    if (!this.on || this.current) return;
    // The database is down (docs/server.md "Database outages"): look again after the usual pause, no round to fail.
    if (availabilityOf(this.db)?.down) return this.schedule(this.pollMs);
    let more = false;
    const run = this.round().then(
      (m) => (more = m),
      (err: unknown) => this.onError(err),
    );
    this.current = run;
    await run;
    this.current = undefined;
    if (!this.on) return;
    const now = more || this.again;
    this.again = false;
    this.schedule(now ? 0 : this.pollMs);
  }
}
