import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * Who a request's database work is done for (docs/server.md "Under load"): the tenant and the user once the token is
 * verified, the client's address before that and for public calls.
 */
export type Lane = { group: string; member: string };

const lanes = new AsyncLocalStorage<Lane>();

/** Runs `fn` (and everything it starts) in `lane`; `setLane` may name the caller more precisely later on. */
export function runInLane<T>(lane: Lane, fn: () => T): T {
  return lanes.run(lane, fn);
}

/** Names the current request's lane once its caller is known (a no-op outside a request). */
export function setLane(group: string, member: string): void {
  const lane = lanes.getStore();
  if (lane) {
    lane.group = group;
    lane.member = member;
  }
}

/** The current request's lane (a copy), undefined outside a request. */
export function currentLane(): Lane | undefined {
  const lane = lanes.getStore();
  return lane && { ...lane };
}

const BACKGROUND: Lane = { group: '', member: '' };

type Waiter = () => void;

/**
 * At most `size` holders at once; when all are taken, waiters are served round-robin: first across groups (tenants),
 * then across members (users) within a group, first come first served within a member. A user firing two hundred
 * requests therefore waits behind their own requests, not in front of everyone else's.
 */
export class FairGate {
  private held = 0;
  /** group → member → waiters */
  private readonly waiting = new Map<string, Map<string, Waiter[]>>();
  /** Groups with waiters, in turn order; within each group its members in turn order (Map keeps insertion order). */
  private readonly turn: string[] = [];

  /**
   * Called with the seconds a waiter spent in line, for each acquisition that had to wait (the metrics' pool waits,
   * docs/deploy.md "Metrics"); one that found a free place is not timed.
   */
  onWait?: (seconds: number) => void;

  constructor(readonly size: number) {}

  get inUse() {
    return this.held;
  }

  get queued() {
    let n = 0;
    for (const members of this.waiting.values()) for (const q of members.values()) n += q.length;
    return n;
  }

  acquire(lane: Lane = lanes.getStore() ?? BACKGROUND): Promise<void> {
    if (this.held < this.size) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise<void>((granted) => {
      const onWait = this.onWait;
      const since = onWait ? performance.now() : 0;
      const resolve = onWait
        ? () => {
            onWait((performance.now() - since) / 1000);
            granted();
          }
        : granted;
      let members = this.waiting.get(lane.group);
      if (!members) {
        members = new Map();
        this.waiting.set(lane.group, members);
        this.turn.push(lane.group);
      }
      const q = members.get(lane.member);
      if (q) q.push(resolve);
      else members.set(lane.member, [resolve]);
    });
  }

  /** Hands the slot to the next waiter in turn, or frees it. */
  release(): void {
    const group = this.turn.shift();
    if (group === undefined) {
      this.held = Math.max(0, this.held - 1);
      return;
    }
    const members = this.waiting.get(group)!;
    const [member, q] = members.entries().next().value as [string, Waiter[]];
    const next = q.shift()!;
    // The member goes to the back of its group's turn; the group to the back of the groups'.
    members.delete(member);
    if (q.length) members.set(member, q);
    if (members.size) this.turn.push(group);
    else this.waiting.delete(group);
    next();
  }
}

/**
 * Puts `pool`'s checkouts (`connect`, and `query`, which checks out through `connect`) behind a fair gate as wide as
 * the pool, so the pool's own first-come queue stays empty and the gate decides who gets the next free connection.
 */
export function gatePool(pool: pg.Pool, size: number): FairGate {
  const gate = new FairGate(size);
  const connect = pool.connect.bind(pool) as (cb: (err: Error | undefined, client?: pg.PoolClient) => void) => void;
  pool.on('release', () => gate.release());
  const gated = (cb?: (err: Error | undefined, client?: pg.PoolClient, done?: () => void) => void) => {
    const got = gate.acquire().then(
      () =>
        new Promise<pg.PoolClient>((resolve, reject) =>
          connect((err, client) => {
            if (err || !client) {
              gate.release();
              reject(err);
            } else resolve(client);
          }),
        ),
    );
    if (!cb) return got;
    got.then(
      (client) => cb(undefined, client, () => client.release()),
      (err: Error) => cb(err),
    );
    return undefined;
  };
  // `gated` answers both of connect's overloads (promise, callback), which TypeScript cannot check one function against.
  (pool as unknown as { connect: typeof gated }).connect = gated;
  return gate;
}
