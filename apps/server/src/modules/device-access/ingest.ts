import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { availabilityOf } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { tenant } from '../../db/schema/index.ts';
import type { Services } from '../../platform/services.ts';
import { oncePerCluster } from '../../platform/singleton.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { BLACK_TYPE, isBlocked } from '../blacklist/index.ts';
import { checkChannels, replaceChannels, cameraDevice } from '../device/index.ts';
import { unseal } from '../../platform/secrets.ts';
import { canonical, TOPIC_PREFIX, verify, verifyConnectPassword, type Channel } from './signing.ts';

/**
 * Device access (docs/devices.md "Device access"): every status message from the broker goes through `receive()`,
 * which checks it against the device's cached secret and keeps the accepted ones in memory; a flush writes them every
 * `flushMs` — per tenant one statement for `last_seen`, the status changes and their `device_status_event` rows —
 * and a sweep takes silent devices offline. Nothing here opens one transaction per message — except a message whose
 * acknowledgement waits for its write (an `online:false` at QoS 1, docs/devices.md "What a PUBACK promises"), written
 * at once on its own. `authenticate()` checks a device's connect password against the same cache.
 */

export type AccessOptions = {
  /** Accepted messages are written this often. */
  flushMs: number;
  /** The offline sweep runs this often. */
  sweepMs: number;
  /** A device silent this long goes offline (3 heartbeat intervals). */
  offlineAfterMs: number;
  /** A message whose ts is further than this from the server's clock is refused. */
  windowMs: number;
  /** One log line per (topic, reason) per this period. */
  refusalLogMs: number;
  /** At most this many refusal lines per `refusalLogMs` / 30 (a flood of distinct topics cannot flood the log). */
  refusalLinesPerBurst: number;
  /** A device read from the database is read again after this long (memory hygiene; writes check its version). */
  deviceTtlMs: number;
  /** An unknown / disabled / blocked device or tenant is looked up again after this long. */
  negativeTtlMs: number;
  /** Devices kept in memory at most. */
  maxCached: number;
  /** Messages waiting for their device to be read at most; more are refused ("overloaded"). */
  maxWaiting: number;
  /** A line of counters this often (info level) when anything happened. */
  statsLogMs: number;
};

export function defaultOptions(heartbeatSeconds: number): AccessOptions {
  return {
    flushMs: 200,
    sweepMs: Math.max(1000, Math.min(30_000, (heartbeatSeconds * 1000) / 4)),
    offlineAfterMs: 3 * heartbeatSeconds * 1000,
    windowMs: 5 * 60_000,
    refusalLogMs: 5 * 60_000,
    refusalLinesPerBurst: 20,
    deviceTtlMs: 5 * 60_000,
    negativeTtlMs: 10_000,
    maxCached: 500_000,
    maxWaiting: 100_000,
    statsLogMs: 60_000,
  };
}

export type Reason =
  | 'bad-topic'
  | 'bad-payload'
  | 'bad-signature'
  | 'stale'
  | 'replay'
  | 'unknown-device'
  | 'disabled'
  | 'blocked'
  | 'no-secret'
  | 'overloaded';

/** The NVR device type (GB/T 28181 type code): only an NVR's message syncs channels. */
export const NVR_TYPE = '118';

type Device = {
  kind: 'device';
  id: string;
  tenantId: string;
  code: string;
  secret: string;
  version: number;
  regionCode: string;
  deviceType: string;
  /** The ts of the last accepted message (ms); the replay guard. */
  lastTs: number;
  loadedAt: number;
  /** Its row changed since it was read (a flush found another version): read it again before the next check. */
  stale: boolean;
};
type Refused = { kind: 'refused'; reason: Reason; until: number };
type Entry = Device | Refused;

type Msg = {
  tenantId: string;
  code: string;
  topic: string;
  ts: number;
  online: boolean;
  channels?: Channel[];
  text: string;
  sig: string;
  receivedAt: number;
  retried: boolean;
  /** Called once the message is written or refused (its PUBACK waits for it); absent for a batched message. */
  done?: () => void;
};

/** What waits for a device to be read: a message to check, or a CONNECT to authenticate. */
type Waiter = (e: Entry) => void;

type Pending = { dev: Device; last: Msg; chan?: Msg; eventId: string };

export type AccessStats = {
  received: number;
  accepted: number;
  refused: Partial<Record<Reason, number>>;
  /** Rows of camera_device written by flushes. */
  written: number;
  events: number;
  sweptOffline: number;
  channelSyncs: number;
  /** Accepted messages whose device changed before the write, checked again. */
  rechecked: number;
  flushes: number;
  /** Time spent in flushes (ms, total and longest). */
  flushMs: number;
  flushMaxMs: number;
};

const TENANT_RE = /^\d{6,12}$/;
/** Devices written by one statement. */
const WRITE_CHUNK = 1000;
const CODE_RE = /^[0-9A-Za-z]{1,32}$/;

export class DeviceAccess {
  readonly options: AccessOptions;
  private readonly cache = new Map<string, Entry>();
  private readonly tenants = new Map<string, { ok: boolean; until: number }>();
  /** Keys being read, with what waits for them (in arrival order). */
  private readonly waiting = new Map<string, Waiter[]>();
  private waitingCount = 0;
  private loadQueue: string[] = [];
  private loading: Promise<void> | undefined;
  private pending = new Map<string, Map<string, Pending>>();
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  /** Writes of messages whose acknowledgement waits for them. */
  private readonly urgent = new Set<Promise<void>>();
  private running = false;
  private lastSweep = 0;
  private lastStats = 0;
  private statsAtLast = 0;
  private readonly logged = new Map<string, { at: number; suppressed: number }>();
  private burst = { start: 0, lines: 0, dropped: 0 };
  private errorLoggedAt = 0;
  readonly stats: AccessStats = {
    received: 0,
    accepted: 0,
    refused: {},
    written: 0,
    events: 0,
    sweptOffline: 0,
    channelSyncs: 0,
    rechecked: 0,
    flushes: 0,
    flushMs: 0,
    flushMaxMs: 0,
  };

  constructor(
    private readonly s: Services,
    private readonly log: FastifyBaseLogger,
    options: Partial<AccessOptions> = {},
  ) {
    this.options = { ...defaultOptions(s.config.mqtt.heartbeatSeconds), ...options };
  }

  private now = () => this.s.now().getTime();

  // ——— intake ———————————————————————————————————————————————————————————————————————————————————————————————

  /**
   * One message from the broker. Synchronous for a known device; a device not in memory is read in a batch. With
   * `ack` (the message waits for a PUBACK), an `online:false` answers a promise that resolves once the message is
   * written (or refused); anything else answers undefined at once (docs/devices.md "What a PUBACK promises").
   */
  receive(topic: string, payload: Buffer | string, ack = false): Promise<void> | undefined {
    this.stats.received++;
    const parts = topic.split('/');
    if (
      parts.length !== 4 ||
      parts[0] !== TOPIC_PREFIX ||
      parts[3] !== 'status' ||
      !TENANT_RE.test(parts[1]) ||
      !CODE_RE.test(parts[2])
    ) {
      this.refuse('bad-topic', topic.slice(0, 200));
      return;
    }
    const [, tenantId, code] = parts;
    const msg = parseMessage(payload);
    if (!msg) {
      this.refuse('bad-payload', topic);
      return;
    }
    const now = this.now();
    if (Math.abs(now - msg.ts) > this.options.windowMs) {
      this.refuse('stale', topic);
      return;
    }
    let written: Promise<void> | undefined;
    let done: (() => void) | undefined;
    if (ack && !msg.online) written = new Promise<void>((r) => (done = r));
    this.handle({
      tenantId,
      code,
      topic,
      ts: msg.ts,
      online: msg.online,
      channels: msg.channels,
      text: canonical(topic, msg.ts, msg.online, msg.channels),
      sig: msg.sig,
      receivedAt: now,
      retried: false,
      done,
    });
    return written;
  }

  /**
   * Whether `password` is the connect password of device `code` of `tenantId` (docs/devices.md "Who may connect and
   * publish"): the device must exist, be enabled, not blocked, its tenant enabled — the entry a message is checked
   * against, read the same way (cached, many in one query).
   */
  authenticate(tenantId: string, code: string, password: string): Promise<boolean> {
    if (!TENANT_RE.test(tenantId) || !CODE_RE.test(code)) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const queued = this.withEntry(`${tenantId}/${code}`, (e) =>
        resolve(e.kind === 'device' && verifyConnectPassword(e.secret, tenantId, code, password)),
      );
      if (!queued) resolve(false);
    });
  }

  private handle(msg: Msg) {
    if (!this.withEntry(`${msg.tenantId}/${msg.code}`, (e) => this.check(msg, e))) this.drop(msg, 'overloaded');
  }

  /**
   * Calls `use` with the entry of `key`: at once when it is in memory, else once it was read (in a batch, after what
   * already waits for it). False when too many wait already.
   */
  private withEntry(key: string, use: Waiter): boolean {
    const queue = this.waiting.get(key);
    if (!queue) {
      const entry = this.cache.get(key);
      if (entry && this.fresh(entry)) {
        use(entry);
        return true;
      }
    }
    if (this.waitingCount >= this.options.maxWaiting) return false;
    this.waitingCount++;
    if (queue) queue.push(use);
    else {
      this.waiting.set(key, [use]);
      this.loadQueue.push(key);
      this.startLoading();
    }
    return true;
  }

  private fresh(e: Entry): boolean {
    const now = this.now();
    if (e.kind === 'refused') return e.until > now;
    return !e.stale && now - e.loadedAt < this.options.deviceTtlMs;
  }

  private check(msg: Msg, e: Entry) {
    if (e.kind === 'refused') return this.drop(msg, e.reason);
    if (!verify(e.secret, msg.text, msg.sig)) return this.drop(msg, 'bad-signature');
    if (msg.ts <= e.lastTs) return this.drop(msg, 'replay');
    e.lastTs = msg.ts;
    this.stats.accepted++;
    let byTenant = this.pending.get(e.tenantId);
    if (!byTenant) this.pending.set(e.tenantId, (byTenant = new Map()));
    let p = byTenant.get(e.id);
    if (p) {
      p.dev = e;
      p.last = msg;
      if (msg.channels) p.chan = msg;
    } else byTenant.set(e.id, (p = { dev: e, last: msg, chan: msg.channels ? msg : undefined, eventId: newId() }));
    if (!msg.done) return;
    // Its PUBACK waits: the device's entry (with an older heartbeat or channel list not written yet) leaves the batch
    // and is written now, on its own.
    byTenant.delete(e.id);
    if (!byTenant.size) this.pending.delete(e.tenantId);
    this.writeNow(e.tenantId, p);
  }

  private drop(msg: Msg, reason: Reason) {
    this.refuse(reason, msg.topic);
    msg.done?.();
  }

  // ——— reading devices ————————————————————————————————————————————————————————————————————————————————————————

  private startLoading() {
    if (this.loading) return;
    this.loading = (async () => {
      // Let the messages of this turn of the event loop join the batch.
      await new Promise((r) => setImmediate(r));
      while (this.loadQueue.length) {
        const keys = this.loadQueue.splice(0, 2000);
        try {
          await this.load(keys);
        } catch (err) {
          this.logError(err, 'device access: reading devices failed; retrying');
          this.loadQueue.unshift(...keys);
          await new Promise((r) => setTimeout(r, 1000).unref());
        }
      }
    })().finally(() => {
      this.loading = undefined;
      if (this.loadQueue.length) this.startLoading();
    });
  }

  private async load(keys: string[]) {
    const byTenant = new Map<string, string[]>();
    for (const k of keys) {
      const [t, c] = k.split('/');
      const list = byTenant.get(t);
      if (list) list.push(c);
      else byTenant.set(t, [c]);
    }
    const now = this.now();
    const negative = (reason: Reason): Refused => ({
      kind: 'refused',
      reason,
      until: now + this.options.negativeTtlMs,
    });
    for (const [tenantId, codes] of byTenant) {
      const entries = new Map<string, Entry>();
      if (!(await this.tenantOk(tenantId))) {
        for (const c of codes) entries.set(c, negative('unknown-device'));
      } else {
        const rows = await withTenant(this.s.db, tenantId, (tx) =>
          tx
            .select({
              id: cameraDevice.id,
              code: cameraDevice.deviceCode,
              secretSealed: cameraDevice.secretSealed,
              status: cameraDevice.status,
              version: cameraDevice.version,
              regionCode: cameraDevice.regionCode,
              deviceType: cameraDevice.deviceType,
              lastSeen: cameraDevice.lastSeen,
            })
            .from(cameraDevice)
            .where(
              and(
                eq(cameraDevice.tenantId, tenantId),
                eq(cameraDevice.isDeleted, 0),
                inArray(cameraDevice.deviceCode, codes),
              ),
            ),
        );
        const found = new Map(rows.map((r) => [r.code, r]));
        let first = true;
        for (const c of codes) {
          const r = found.get(c);
          if (!r) {
            entries.set(c, negative('unknown-device'));
            continue;
          }
          // The first check of a batch reads the cache epochs, so a blacklist write on another server counts.
          const blocked = await isBlocked(this.s, tenantId, BLACK_TYPE.deviceCode, c, { publicCall: first });
          first = false;
          const secret = r.status === 2 || blocked ? null : unseal(this.s, r.secretSealed);
          if (r.status === 2) entries.set(c, negative('disabled'));
          else if (blocked) entries.set(c, negative('blocked'));
          else if (!secret) entries.set(c, negative('no-secret'));
          else
            entries.set(c, {
              kind: 'device',
              id: r.id,
              tenantId,
              code: c,
              secret,
              version: r.version,
              regionCode: r.regionCode,
              deviceType: r.deviceType,
              lastTs: r.lastSeen ? r.lastSeen.getTime() : 0,
              loadedAt: now,
              stale: false,
            });
        }
      }
      for (const c of codes) {
        const key = `${tenantId}/${c}`;
        const entry = entries.get(c)!;
        // Read again after its time ran out (not because it changed): keep the replay guard of messages accepted
        // but not written yet.
        const before = this.cache.get(key);
        if (entry.kind === 'device' && before?.kind === 'device' && before.id === entry.id && !before.stale)
          entry.lastTs = Math.max(entry.lastTs, before.lastTs);
        this.remember(key, entry);
        const queue = this.waiting.get(key) ?? [];
        this.waiting.delete(key);
        this.waitingCount -= queue.length;
        for (const use of queue) use(entry);
      }
    }
  }

  private remember(key: string, entry: Entry) {
    this.cache.delete(key);
    this.cache.set(key, entry);
    if (this.cache.size > this.options.maxCached) {
      // The oldest read first (Map keeps insertion order).
      const drop = this.cache.size - this.options.maxCached;
      let i = 0;
      for (const k of this.cache.keys()) {
        if (i++ >= drop) break;
        this.cache.delete(k);
      }
    }
  }

  /** Whether a tenant exists, is enabled and has not expired (read from the global tenant table, kept 30 s). */
  private async tenantOk(tenantId: string): Promise<boolean> {
    const now = this.now();
    const known = this.tenants.get(tenantId);
    if (known && known.until > now) return known.ok;
    const [row] = await this.s.db
      .select({ status: tenant.status, expireTime: tenant.expireTime })
      .from(tenant)
      .where(and(eq(tenant.tenantId, tenantId), eq(tenant.isDeleted, 0)));
    const ok = !!row && row.status === 1 && (!row.expireTime || row.expireTime.getTime() > now);
    this.tenants.set(tenantId, { ok, until: now + 30_000 });
    return ok;
  }

  /** Forget what is known of devices and tenants (tests; a device read again at its next message). */
  forget(): void {
    this.cache.clear();
    this.tenants.clear();
  }

  // ——— writing ——————————————————————————————————————————————————————————————————————————————————————————————

  start(): void {
    if (this.running) return;
    this.running = true;
    this.lastSweep = this.lastStats = this.now();
    this.schedule();
  }

  /** Stops the timer and writes what was accepted (messages still waiting for their device first). */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.current?.catch(() => undefined);
    await Promise.all(this.urgent);
    await this.flush();
    // What could not be written by now (the database is down as the server stops) is lost: said, never silent.
    let lost = 0;
    for (const byDevice of this.pending.values()) lost += byDevice.size;
    if (lost)
      this.log.error(
        { devices: lost },
        'device access: heartbeats of these devices could not be written before stopping: lost',
      );
    this.logStats(true);
  }

  private schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), this.options.flushMs);
    this.timer.unref();
  }

  private async tick() {
    if (!this.running || this.current) return;
    // While the database is down (docs/server.md "Database outages") what was accepted waits in memory, newest per
    // device, and is written at the first flush after it is back.
    if (availabilityOf(this.s.db)?.down) return this.schedule();
    this.current = (async () => {
      await this.flushOnce();
      const now = this.now();
      if (now - this.lastSweep >= this.options.sweepMs) {
        this.lastSweep = now;
        await this.sweep();
      }
      if (now - this.lastStats >= this.options.statsLogMs) this.logStats(false);
    })().catch((err: unknown) => this.logError(err, 'device access: a flush failed'));
    await this.current;
    this.current = undefined;
    if (this.running) this.schedule();
  }

  /** Waits for the devices being read, then writes everything accepted so far (tests and shutdown). */
  async flush(): Promise<void> {
    while (this.loading || this.current || this.urgent.size) {
      await this.loading;
      await this.current;
      await Promise.all(this.urgent);
    }
    await this.flushOnce();
  }

  private async flushOnce() {
    if (!this.pending.size) return;
    const t0 = performance.now();
    try {
      await this.flushBatch();
    } finally {
      const ms = Math.round(performance.now() - t0);
      this.stats.flushMs += ms;
      this.stats.flushMaxMs = Math.max(this.stats.flushMaxMs, ms);
    }
  }

  private async flushBatch() {
    const batch = this.pending;
    this.pending = new Map();
    this.stats.flushes++;
    const chunks: [string, Pending[]][] = [];
    for (const [tenantId, byDevice] of batch) {
      const all = [...byDevice.values()];
      // One statement (and transaction) per WRITE_CHUNK devices: on PGlite's single connection, requests get their
      // turn between chunks.
      for (let i = 0; i < all.length; i += WRITE_CHUNK) chunks.push([tenantId, all.slice(i, i + WRITE_CHUNK)]);
    }
    for (const [tenantId, list] of chunks) {
      let applied: Set<string>;
      try {
        applied = await this.write(tenantId, list);
      } catch (err) {
        this.logError(err, 'device access: writing heartbeats failed; retrying');
        this.putBack(tenantId, list);
        continue;
      }
      await this.afterWrite(list, applied);
    }
  }

  private async afterWrite(list: Pending[], applied: Set<string>) {
    for (const p of list) {
      if (applied.has(p.dev.id)) {
        if (p.chan && p.dev.deviceType === NVR_TYPE)
          await this.syncChannels(p.dev, p.chan.channels!, p.chan.receivedAt);
        p.last.done?.();
        continue;
      }
      // The device changed since it was read (edited, disabled, removed) or a newer message was written meanwhile:
      // read it again and check the message against what it is now.
      p.dev.stale = true;
      for (const m of p.chan && p.chan !== p.last ? [p.chan, p.last] : [p.last]) {
        if (m.retried) {
          m.done?.();
          continue;
        }
        this.stats.rechecked++;
        this.handle({ ...m, retried: true });
      }
    }
  }

  /**
   * Writes one device's entry at once (a message whose PUBACK waits for it); a failed write is tried again every
   * second while the server runs — the PUBACK is not sent before it succeeds.
   */
  private writeNow(tenantId: string, p: Pending) {
    const task = (async () => {
      for (;;) {
        try {
          const applied = await this.write(tenantId, [p]);
          await this.afterWrite([p], applied);
          return;
        } catch (err) {
          this.logError(err, 'device access: writing a status change failed; retrying');
          if (!this.running) return;
          await new Promise((r) => setTimeout(r, 1000).unref());
          if (!this.running) return;
        }
      }
    })();
    this.urgent.add(task);
    void task.finally(() => this.urgent.delete(task));
  }

  /** A batch that could not be written goes back, behind anything newer accepted meanwhile. */
  private putBack(tenantId: string, list: Pending[]) {
    let byTenant = this.pending.get(tenantId);
    if (!byTenant) this.pending.set(tenantId, (byTenant = new Map()));
    for (const p of list) if (!byTenant.has(p.dev.id)) byTenant.set(p.dev.id, p);
  }

  /**
   * One tenant's batch in one statement: devices still as they were read (same version, not disabled, not removed)
   * and not already seen later get `last_seen` and their status (0/1, `version` untouched), and each status change
   * its event row. Answers the ids written.
   */
  private async write(tenantId: string, list: Pending[]): Promise<Set<string>> {
    const rows = list.map((p) => ({
      id: p.dev.id,
      ver: p.dev.version,
      // last_seen is the device's ts, never later than the server's clock.
      seen: Math.min(p.last.ts, p.last.receivedAt),
      st: p.last.online ? 1 : 0,
      eid: p.eventId,
      at: p.last.receivedAt,
    }));
    // `for no key update`: a camera naming an NVR holds a key-share lock on it, which a heartbeat need not wait for
    // (docs/devices.md "Links between cameras and channels"). An NVR's status change moves its channels' status in
    // the same statement (trigger `channel_status_follow`, migration 0032).
    const res = await withTenant(this.s.db, tenantId, (tx) =>
      tx.execute(sql`
        with v as (
          select * from json_to_recordset(${JSON.stringify(rows)}::json)
            as v(id bigint, ver int, seen bigint, st int, eid bigint, at bigint)
        ),
        o as (
          select d.id, d.status as from_status, d.device_code, d.region_code, d.device_type, v.seen, v.st, v.eid, v.at
          from camera_device d join v on v.id = d.id
          where d.tenant_id = ${tenantId} and d.is_deleted = 0 and d.status <> 2 and d.version = v.ver
            and (d.last_seen is null or d.last_seen <= to_timestamp(v.seen / 1000.0))
          for no key update of d
        ),
        u as (
          update camera_device d set last_seen = to_timestamp(o.seen / 1000.0), status = o.st
          from o where d.id = o.id and d.tenant_id = ${tenantId}
          returning d.id
        ),
        e as (
          insert into device_status_event
            (id, tenant_id, device_id, device_code, region_code, device_type, from_status, to_status, at)
          select o.eid, ${tenantId}, o.id, o.device_code, o.region_code, o.device_type, o.from_status, o.st,
            to_timestamp(o.at / 1000.0)
          from o where o.from_status <> o.st
          returning 1
        )
        select o.id::text as id, (o.from_status <> o.st) as changed from o`),
    );
    const out = rowsOf<{ id: string; changed: boolean }>(res);
    this.stats.written += out.length;
    this.stats.events += out.filter((r) => r.changed).length;
    return new Set(out.map((r) => r.id));
  }

  private async syncChannels(dev: Device, channels: Channel[], received: number) {
    try {
      await withTenant(this.s.db, dev.tenantId, (tx) =>
        replaceChannels(
          tx,
          dev.tenantId,
          dev.id,
          channels.map((c) => ({ channelNo: c.channelNo, channelCode: c.channelCode ?? null, name: c.name ?? null })),
          { now: new Date(received) },
        ),
      );
      this.stats.channelSyncs++;
    } catch (err) {
      this.logOnce(`${dev.tenantId}/${dev.code}|channels`, () =>
        this.log.warn(
          { tenantId: dev.tenantId, deviceCode: dev.code, err: (err as Error)?.message },
          'device access: channel list not applied',
        ),
      );
    }
  }

  // ——— offline sweep ———————————————————————————————————————————————————————————————————————————————————————

  /**
   * Devices online whose last message is older than `offlineAfterMs` go offline (0), one event each. Runs per
   * tenant under its row-level security, after the pending heartbeats were written; a tenant whose sweep another
   * server is running at this moment is skipped (platform/singleton.ts). Answers how many went offline here.
   */
  async sweep(): Promise<number> {
    const now = this.now();
    const cutoff = new Date(now - this.options.offlineAfterMs);
    const tenants = await this.s.db.select({ tenantId: tenant.tenantId }).from(tenant).where(eq(tenant.isDeleted, 0));
    let total = 0;
    for (const { tenantId } of tenants) {
      // Once per cluster (docs/cluster.md "What runs once"): a tenant another server is sweeping now is left to it.
      const done = await oncePerCluster(this.s.db, 'device-offline-sweep', tenantId, async (tx) => {
        const due = rowsOf<{ id: string }>(
          await tx.execute(sql`
            select id::text as id from camera_device
            where tenant_id = ${tenantId} and is_deleted = 0 and status = 1
              and (last_seen is null or last_seen < ${cutoff.toISOString()}::timestamptz)
            limit 20000`),
        );
        if (!due.length) return 0;
        const rows = due.map((r) => ({ id: r.id, eid: newId() }));
        // An NVR swept offline takes its channels offline in the same statement (trigger, migration 0032).
        const res = await tx.execute(sql`
          with v as (select * from json_to_recordset(${JSON.stringify(rows)}::json) as v(id bigint, eid bigint)),
          o as (
            select d.id, d.device_code, d.region_code, d.device_type, v.eid
            from camera_device d join v on v.id = d.id
            where d.tenant_id = ${tenantId} and d.is_deleted = 0 and d.status = 1
              and (d.last_seen is null or d.last_seen < ${cutoff.toISOString()}::timestamptz)
            for no key update of d
          ),
          u as (update camera_device d set status = 0 from o where d.id = o.id and d.tenant_id = ${tenantId} returning 1),
          e as (
            insert into device_status_event
              (id, tenant_id, device_id, device_code, region_code, device_type, from_status, to_status, at)
            select o.eid, ${tenantId}, o.id, o.device_code, o.region_code, o.device_type, 1, 0,
              ${new Date(now).toISOString()}::timestamptz
            from o
            returning 1
          )
          select count(*)::int as n from o`);
        return rowsOf<{ n: number }>(res)[0]?.n ?? 0;
      });
      if (done.ran) total += done.value;
    }
    this.stats.sweptOffline += total;
    this.stats.events += total;
    return total;
  }

  // ——— logs ——————————————————————————————————————————————————————————————————————————————————————————————————

  private refuse(reason: Reason, topic: string) {
    this.stats.refused[reason] = (this.stats.refused[reason] ?? 0) + 1;
    this.logOnce(`${topic}|${reason}`, (suppressed) =>
      this.log.warn({ topic, reason, suppressed }, 'device access: message refused'),
    );
  }

  /**
   * Runs `write` for `key` at most once per `refusalLogMs` (its next line says how many were not logged), and at
   * most `refusalLinesPerBurst` lines per 1/30 of that period over all keys.
   */
  private logOnce(key: string, write: (suppressed: number) => void) {
    const now = this.now();
    const o = this.options;
    const seen = this.logged.get(key);
    if (seen && now - seen.at < o.refusalLogMs) {
      seen.suppressed++;
      return;
    }
    const burstMs = o.refusalLogMs / 30;
    if (now - this.burst.start >= burstMs) {
      if (this.burst.dropped)
        this.log.warn({ notLogged: this.burst.dropped }, 'device access: more refusals than are logged one by one');
      this.burst = { start: now, lines: 0, dropped: 0 };
    }
    if (this.burst.lines >= o.refusalLinesPerBurst) {
      this.burst.dropped++;
      return;
    }
    this.burst.lines++;
    if (this.logged.size >= 10_000)
      for (const [k, v] of this.logged) if (now - v.at >= o.refusalLogMs) this.logged.delete(k);
    this.logged.set(key, { at: now, suppressed: 0 });
    write(seen?.suppressed ?? 0);
  }

  private logError(err: unknown, msg: string) {
    const now = Date.now();
    if (now - this.errorLoggedAt < 60_000) return;
    this.errorLoggedAt = now;
    this.log.error({ err }, msg);
  }

  private logStats(final: boolean) {
    this.lastStats = this.now();
    if (!final && this.stats.received === this.statsAtLast) return;
    this.statsAtLast = this.stats.received;
    this.log.info({ deviceAccess: this.stats, final }, 'device access: counters');
  }
}

function rowsOf<T>(res: unknown): T[] {
  return ((res as { rows?: T[] }).rows ?? (res as T[])) as T[];
}

/** The message's fields, or null when anything is missing or malformed. */
function parseMessage(
  payload: Buffer | string,
): { online: boolean; ts: number; sig: string; channels?: Channel[] } | null {
  if (payload.length > 256 * 1024) return null;
  let body: unknown;
  try {
    body = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  if (typeof b.online !== 'boolean' || !Number.isSafeInteger(b.ts) || (b.ts as number) <= 0) return null;
  if (typeof b.sig !== 'string' || b.sig.length > 100) return null;
  if (b.channels === undefined) return { online: b.online, ts: b.ts as number, sig: b.sig };
  if (!Array.isArray(b.channels)) return null;
  const channels: Channel[] = [];
  for (const c of b.channels as unknown[]) {
    if (!c || typeof c !== 'object') return null;
    const { channelNo, channelCode, name } = c as Record<string, unknown>;
    const text = (v: unknown) => v === undefined || v === null || typeof v === 'string';
    if (typeof channelNo !== 'number' || !text(channelCode) || !text(name)) return null;
    channels.push({
      channelNo,
      channelCode: (channelCode as string | null | undefined) ?? null,
      name: (name as string | null | undefined) ?? null,
    });
  }
  // The rules of saveNvrChannelInfo (numbers 1–9999 and unique, codes of 20 digits, names ≤ 64, at most 1024).
  try {
    checkChannels(channels);
  } catch {
    return null;
  }
  return { online: b.online, ts: b.ts as number, sig: b.sig, channels };
}
