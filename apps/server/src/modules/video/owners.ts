import { randomBytes } from 'node:crypto';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { jobLockKey } from '../../platform/singleton.ts';
import { newStreamId, StreamError, type Stream, type StreamManager } from './streams.ts';
import { videoServer, videoStream } from './table.ts';

/**
 * Which server runs each camera's stream, cluster-wide (docs/cluster.md "Live video across servers"). Every server
 * running streams holds a row in `video_server` renewed every second (a lease); the owner of a stream holds its
 * camera's row in `video_stream` (one per camera: the primary key). A start is claimed in one transaction under one advisory lock for
 * the whole cluster, which counts the cap and the fair shares over the rows of every living server; a camera whose
 * owner's lease ran out is taken over by the server the next play or touch reaches. On PGlite (one server) the same
 * rows are written and the owner is always this server.
 */

/** The advisory lock every claim and heartbeat takes first: claims are counted one at a time across the cluster. */
const CLAIM_LOCK = String(jobLockKey('video-claim', '*'));

/** A camera's row as another server reads it: who runs the stream and whether that server still lives. */
export type OwnerRow = {
  tenantId: string;
  cameraId: string;
  streamId: string;
  serverId: string;
  url: string;
  alive: boolean;
  viewers: string[];
  failed: boolean;
};

/** What a play finds: the stream started or joined here, or the living server that runs it. */
export type Claim = { kind: 'local'; stream: Stream; takenOver: boolean } | { kind: 'remote'; url: string };

export type OwnersOptions = {
  leaseSeconds: number;
  idleSeconds: number;
  /** ATRIUM_SERVER_NAME, written beside the row for people reading it. */
  name?: string;
  /** Where the other servers reach this one (updated once the port is bound). */
  url: string;
  log?: { warn: (obj: object, msg: string) => void };
};

type RawRow = {
  tenant_id: string;
  camera_id: string;
  stream_id: string;
  server_id: string;
  url: string;
  alive: boolean;
  viewers: string[];
  failed: boolean;
};

const fromRaw = (r: RawRow): OwnerRow => ({
  tenantId: r.tenant_id,
  cameraId: r.camera_id,
  streamId: r.stream_id,
  serverId: r.server_id,
  url: r.url,
  alive: r.alive,
  viewers: r.viewers ?? [],
  failed: r.failed,
});

export class Owners {
  /** This server's id in the cluster: a new one at each start (a restarted server takes its old streams over). */
  readonly id = randomBytes(8).toString('hex');
  private timer?: NodeJS.Timeout;
  private beating?: Promise<void>;
  /** Tests: the server died (no heartbeat, no clean-up, no claims). */
  private dead = false;
  /** This server wrote rows since its last beat found it without streams: the beats renew and tidy them. */
  private active = false;

  constructor(
    private readonly db: Db,
    private readonly manager: StreamManager,
    readonly o: OwnersOptions,
  ) {}

  get url() {
    return this.o.url;
  }

  /** The heartbeat: once a second while this server runs streams (its row is written by its first claim). */
  start() {
    this.timer = setInterval(() => this.setUrl(this.o.url), 1000);
    this.timer.unref();
  }

  /** The address the server was bound to, when ATRIUM_INTERNAL_URL does not say it (written at the next beat). */
  setUrl(url: string) {
    this.o.url = url;
    this.beating ??= this.beat()
      .catch((err: unknown) => this.o.log?.warn({ err }, 'video: heartbeat of the stream owners failed'))
      .finally(() => (this.beating = undefined));
  }

  private lease() {
    return sql`now() + make_interval(secs => ${this.o.leaseSeconds}::int)`;
  }

  /**
   * Renews the lease; brings this server's rows in line with its streams (who each is charged to, its viewers,
   * failed, last touch; rows of streams it no longer runs removed; streams whose row another server took stopped);
   * removes servers dead for longer than the idle time, with their rows.
   */
  async beat() {
    // A server without streams (none now, none written since its last beat) has nothing to renew: no statement.
    if (this.dead || (!this.active && this.manager.size === 0)) return;
    const synced = await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK}::bigint)`);
      await this.renew(tx);
      const n = await this.syncOwn(tx);
      await tx.execute(
        sql`delete from video_server where lease_until < now() - make_interval(secs => ${this.o.idleSeconds}::int)`,
      );
      return n;
    });
    // Whether the table holds rows of this server as of this sync — not the manager's size now: a stream stopped
    // while the sync ran has its row still, and the next beat must remove it.
    this.active = synced > 0;
  }

  /**
   * A server at `url` refused a passed-on request's connection: nothing listens there, so its lease ends now (a
   * server still alive renews it at its next beat) and the next play or touch takes its streams over instead of
   * waiting out the lease (docs/cluster.md "Live video across servers"). The address is one the servers wrote.
   */
  async refused(url: string) {
    if (this.dead || url === this.o.url) return;
    await this.db
      .update(videoServer)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(and(eq(videoServer.url, url), sql`${videoServer.leaseUntil} > now()`));
  }

  /** This server's row with a fresh lease (and its address). */
  private async renew(tx: Db) {
    await tx
      .insert(videoServer)
      .values({ id: this.id, url: this.o.url, name: this.o.name ?? null, leaseUntil: this.lease() })
      .onConflictDoUpdate({ target: videoServer.id, set: { url: this.o.url, leaseUntil: this.lease() } });
  }

  /** This server's rows as its manager has them (called under the claim lock); answers how many it kept. */
  private async syncOwn(tx: Db): Promise<number> {
    const local = this.manager.list();
    const ids = local.map((s) => s.id);
    await tx
      .delete(videoStream)
      .where(and(eq(videoStream.serverId, this.id), ids.length ? notInArray(videoStream.streamId, ids) : undefined));
    if (!local.length) return 0;
    const rows = local.map((s) => ({
      id: s.id,
      u: this.manager.chargedTo(s),
      v: [...s.viewers],
      f: s.state === 'failed',
      at: s.lastTouch,
    }));
    const kept = await rowsOf<{ stream_id: string }>(
      tx,
      sql`update video_stream r
             set charged_to = x.u,
                 viewers = array(select jsonb_array_elements_text(x.v)),
                 failed = x.f,
                 touched_at = to_timestamp(x.at / 1000.0)
            from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id text, u text, v jsonb, f boolean, at double precision)
           where r.stream_id = x.id and r.server_id = ${this.id}
       returning r.stream_id`,
    );
    const mine = new Set(kept.map((r) => r.stream_id));
    for (const s of local)
      if (!mine.has(s.id)) {
        // Another server took the camera over (this one missed its lease) or the row is gone: one process per camera.
        this.o.log?.warn({ camera: s.cameraId }, 'video: stream taken over by another server; stopped here');
        void this.manager.stop(s.id);
      }
    return local.length;
  }

  /** The row of a stream by its id, with its owner's address and whether the owner lives. */
  async lookup(streamId: string): Promise<OwnerRow | undefined> {
    const [row] = await rowsOf<RawRow>(
      this.db,
      sql`select r.tenant_id, r.camera_id, r.stream_id, r.server_id, s.url, s.lease_until > now() as alive,
                 r.viewers, r.failed
            from video_stream r join video_server s on s.id = r.server_id
           where r.stream_id = ${streamId}`,
    );
    return row && fromRaw(row);
  }

  /**
   * The camera's stream for this viewer: joined here when this server runs it (never refused); the living owner's
   * address when another server runs it; else started here — a new stream, or a dead owner's taken over under the
   * same id and viewers — once the cap and the shares, counted over every living server's rows, allow it (refused
   * with `fullUser`, `fullTenant`, `full`, in that order).
   */
  async claim(a: { tenantId: string; cameraId: string; source: string; userId: string }): Promise<Claim> {
    if (this.dead) throw new StreamError('failed');
    const here = this.manager.joinable(a.tenantId, a.cameraId, a.source);
    if (here) {
      const known = here.viewers.has(a.userId);
      const stream = this.manager.acquire(a);
      // A new viewer is written at once, so a take-over after this server's death still lets them in.
      if (!known)
        await this.db
          .update(videoStream)
          .set({ viewers: sql`array_append(${videoStream.viewers}, ${a.userId}::text)` })
          .where(and(eq(videoStream.streamId, stream.id), eq(videoStream.serverId, this.id)));
      return { kind: 'local', stream, takenOver: false };
    }
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK}::bigint)`);
      await this.renew(tx);
      this.active = true;
      await this.syncOwn(tx);
      const [raw] = await rowsOf<RawRow>(
        tx,
        sql`select r.tenant_id, r.camera_id, r.stream_id, r.server_id, s.url, s.lease_until > now() as alive,
                   r.viewers, r.failed
              from video_stream r join video_server s on s.id = r.server_id
             where r.tenant_id = ${a.tenantId} and r.camera_id = ${a.cameraId}`,
      );
      const row = raw && fromRaw(raw);
      if (row && row.alive && row.serverId !== this.id) return { kind: 'remote', url: row.url } as const;
      // Started here meanwhile (a play that waited for the lock): joined.
      if (this.manager.joinable(a.tenantId, a.cameraId, a.source))
        return { kind: 'local', stream: this.manager.acquire(a), takenOver: false } as const;
      const [n] = await rowsOf<{ server: number; tenant: number; user: number }>(
        tx,
        sql`select count(*)::int as server,
                   (count(*) filter (where r.tenant_id = ${a.tenantId}))::int as tenant,
                   (count(*) filter (where r.tenant_id = ${a.tenantId} and r.charged_to = ${a.userId}))::int as user
              from video_stream r join video_server s on s.id = r.server_id
             where not r.failed and (s.lease_until > now() or s.id = ${this.id})
               and not (r.tenant_id = ${a.tenantId} and r.camera_id = ${a.cameraId})`,
      );
      const shares = this.manager.shares;
      if (n.user >= shares.user) throw new StreamError('fullUser');
      if (n.tenant >= shares.tenant) throw new StreamError('fullTenant');
      if (n.server >= shares.server) throw new StreamError('full');
      const takenOver = !!row && row.serverId !== this.id;
      const id = takenOver ? row.streamId : newStreamId();
      const viewers = takenOver ? row.viewers : [];
      const stream = this.manager.acquire({ ...a, claimed: { id, viewers } });
      const values = {
        streamId: id,
        serverId: this.id,
        chargedTo: a.userId,
        viewers: [...stream.viewers],
        failed: false,
        startedAt: sql`now()`,
        touchedAt: sql`now()`,
      };
      await tx
        .insert(videoStream)
        .values({ tenantId: a.tenantId, cameraId: a.cameraId, ...values })
        .onConflictDoUpdate({ target: [videoStream.tenantId, videoStream.cameraId], set: values });
      return { kind: 'local', stream, takenOver } as const;
    });
  }

  /** The server stops: its row goes, and its streams' rows with it (their processes are ended by the manager). */
  async close() {
    clearInterval(this.timer);
    await this.beating;
    if (this.dead) return;
    this.dead = true;
    await this.db.delete(videoServer).where(eq(videoServer.id, this.id));
  }

  /** Tests: the server dies as with SIGKILL — no more heartbeat, its rows left for the lease to expire. */
  die() {
    this.dead = true;
    clearInterval(this.timer);
  }
}
