import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { redactCredentials } from '../../platform/logging.ts';
import { deathGuard, spawnGuarded, type DeathGuard } from './deathsig.ts';
import {
  ffmpegVersion,
  NPM_FFMPEG_PACKAGE,
  resolveFfmpeg,
  rtspTimeout,
  type Ffmpeg,
  type FfmpegVersion,
} from './ffmpeg.ts';
import { LiveHub, liveOutputArgs } from './live.ts';

/**
 * The stream manager (docs/devices.md "Live video"): one ffmpeg per camera, pulling its RTSP or HTTP source into
 * HLS files of a folder of its own, shared by every viewer of that camera, stopped when nobody touched it for the
 * idle time. No I/O at import; one manager per app.
 */

export type StreamState = 'starting' | 'playing' | 'restarting' | 'failed';

/** Why a stream does not play; the module turns each into a text for the viewer. */
export type StreamFailure =
  | 'full'
  | 'fullTenant'
  | 'fullUser'
  | 'ffmpegMissing'
  | 'unreachable'
  | 'unauthorized'
  | 'notFound'
  | 'timeout'
  | 'noVideo'
  | 'dropped'
  | 'httpNeedsFfmpeg5'
  | 'failed';

export class StreamError extends Error {
  constructor(readonly reason: StreamFailure) {
    super(reason);
  }
}

export type ManagerOptions = {
  /** The folder holding one sub-folder per stream (created). */
  dir: string;
  /** ATRIUM_FFMPEG; unset: an ffmpeg on PATH, else the npm package's (ffmpeg.ts). */
  ffmpeg?: string;
  maxStreams: number;
  /** Streams one tenant may have running (docs/devices.md "Fair shares"); unset or above the cap: the cap. */
  maxPerTenant?: number;
  /** Streams charged to one user; unset or above the tenant's share: the tenant's share. */
  maxPerUser?: number;
  idleMs: number;
  startMs: number;
  restarts: number;
  /** The clock of the touch timing (tests move it). */
  now: () => number;
  log?: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
};

export type Stream = {
  id: string;
  key: string;
  tenantId: string;
  cameraId: string;
  dir: string;
  state: StreamState;
  /** Users who asked for it: only they may touch it or read its files. */
  viewers: Set<string>;
  /** The user who started it (the process). */
  startedBy: string;
  lastTouch: number;
  /** Resolves when the first playlist with a segment is written (each start or restart). */
  ready: Promise<void>;
  failure?: StreamFailure;
  proc?: ChildProcess;
  /** The low-latency output's fan-out to WebSocket viewers (live.ts). */
  live: LiveHub;
};

type Internal = Stream & {
  /** Each viewer's last touch (or join): who still watches, for the user share. */
  touchedBy: Map<string, number>;
  source: string;
  transport: 'tcp' | 'udp';
  transcode: boolean;
  restartsUsed: number;
  stderr: string[];
  spawnedAt: number;
  settle?: { resolve: () => void; reject: (e: StreamError) => void };
  poll?: NodeJS.Timeout;
  backoff?: NodeJS.Timeout;
  /** The process is being replaced (transport or codec change): its exit is expected. */
  replacing?: boolean;
  stopped?: boolean;
};

/** Every ffmpeg this process started, across managers: killed when the process exits, whatever the reason. */
const children = new Set<ChildProcess>();
/** Stream folders of live managers in this process (the leftover sweep never touches them). */
const liveStreams = new Set<string>();
let exitHooked = false;
function hookExit() {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const c of children) if (c.exitCode === null && c.pid) safeKill(c.pid, 'SIGKILL');
  });
}

function safeKill(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const PID_FILE = 'ffmpeg.pid';
/** A new stream's id: 24 hex digits (the address and the cluster's row name it). */
export const newStreamId = () => randomBytes(12).toString('hex');
export const PLAYLIST = 'index.m3u8';
export const SEGMENT = /^s\d{6}\.ts$/;

/** What ffmpeg wrote on stderr, read as one reason. */
export function classify(lines: string[]): StreamFailure {
  const text = lines.join('\n');
  if (/401 Unauthorized|403 Forbidden/i.test(text)) return 'unauthorized';
  if (/404 Not Found|Stream not found|No such file/i.test(text)) return 'notFound';
  if (/Connection refused|No route to host|Network is unreachable|Name or service not known|Host is down/i.test(text))
    return 'unreachable';
  if (/timed out|Connection timed out|timeout/i.test(text)) return 'timeout';
  if (/does not contain any stream|matches no streams|Output file #0 does not contain/i.test(text)) return 'noVideo';
  return 'failed';
}

/** The server refused RTSP over TCP (interleaved): the camera wants UDP. */
const refusedTcp = (lines: string[]) =>
  /(400 Bad Request|461 Unsupported Transport|Unsupported transport)/i.test(lines.join('\n'));

/** The first video stream ffmpeg found in the input: codec and pixel format. */
export function inputVideo(lines: string[]): { codec: string; pixFmt: string } | null {
  for (const l of lines) {
    const m = /Stream #0:\d+[^:]*: Video: (\w+)[^,]*,\s*(\w+)/.exec(l);
    if (m) return { codec: m[1], pixFmt: m[2] };
  }
  return null;
}

/** A browser plays H.264 in 4:2:0; anything else is transcoded (a pixel format the short probe left unknown is kept). */
const needsTranscode = (v: { codec: string; pixFmt: string }) =>
  v.codec !== 'h264' || !['yuv420p', 'yuvj420p', 'none'].includes(v.pixFmt);

/** Whether an ffmpeg of this release line takes `-max_redirects` (5.0 and later); unknown counts as no. */
export const followsNoRedirect = (major: number | null) => major !== null && major >= 5;

export function ffmpegArgs(
  source: string,
  dir: string,
  o: { transport: 'tcp' | 'udp'; transcode: boolean; major: number | null },
): string[] {
  const rtsp = /^rtsps?:/i.test(source);
  // The RTSP socket timeout's name depends on the ffmpeg release (ffmpeg.ts `rtspTimeout`).
  const input = rtsp
    ? ['-rtsp_transport', o.transport, ...rtspTimeout(o.major)]
    : // No redirect is followed: the address checked is the only one connected to (docs/devices.md "Camera addresses").
      // `-max_redirects` exists from ffmpeg 5.0; an older one is never given an HTTP source (`spawn`).
      ['-rw_timeout', '5000000', '-reconnect', '0', '-max_redirects', '0'];
  const video = o.transcode
    ? [
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-tune',
        'zerolatency',
        '-pix_fmt',
        'yuv420p',
        '-force_key_frames',
        'expr:gte(t,n_forced*1)',
      ]
    : ['-c:v', 'copy'];
  return [
    '-hide_banner',
    '-nostdin',
    '-nostats',
    '-loglevel',
    'info',
    // Only network inputs: a stream URL can never make ffmpeg read a local file.
    '-protocol_whitelist',
    'tcp,udp,rtp,rtsp,rtsps,http,https,tls,crypto,httpproxy',
    ...input,
    '-fflags',
    'nobuffer',
    // A short probe (the SDP names the codec; hls.js reads the rest from the stream): about a second sooner.
    '-analyzeduration',
    '100000',
    '-probesize',
    '32768',
    '-i',
    source,
    '-map',
    '0:v:0',
    '-an',
    ...video,
    '-f',
    'hls',
    '-hls_time',
    '1',
    '-hls_list_size',
    '6',
    '-hls_flags',
    'delete_segments+temp_file+independent_segments+omit_endlist',
    '-hls_segment_filename',
    path.join(dir, 's%06d.ts'),
    path.join(dir, PLAYLIST),
    // The same process's second output: fragmented MP4 on stdout for the WebSocket viewers (live.ts); not when
    // transcoding (one encode per camera: those play HLS).
    ...(o.transcode ? [] : liveOutputArgs()),
  ];
}

export class StreamManager {
  private readonly byKey = new Map<string, Internal>();
  private readonly byId = new Map<string, Internal>();
  /** Cameras found to refuse RTSP over TCP: asked over UDP from the start next time. */
  private readonly learned = new Map<string, 'udp'>();
  private sweeper?: NodeJS.Timeout;
  private closed = false;
  /** The binary every stream runs (chosen once, at construction). */
  readonly binary: Ffmpeg;
  /** Its version, read once by `start` (null: it does not run, or `start` has not run). */
  version: FfmpegVersion | null = null;
  /** How its processes die with the server (deathsig.ts), chosen by `start`: the watchdog until then. */
  guard: DeathGuard = { kind: 'watchdog' };

  constructor(readonly o: ManagerOptions) {
    hookExit();
    this.binary = resolveFfmpeg(o.ffmpeg);
  }

  /**
   * Reads the binary's version once (the RTSP options depend on it) and logs which one runs; creates the folder and
   * ends what a killed server left behind (its ffmpeg processes and files).
   */
  async start() {
    fs.mkdirSync(this.o.dir, { recursive: true });
    this.cleanLeftovers();
    this.sweeper = setInterval(() => this.sweep(), 1000);
    this.sweeper.unref();
    this.version = this.binary.found ? await ffmpegVersion(this.binary.path) : null;
    this.guard = await deathGuard();
    if (this.guard.kind === 'watchdog')
      this.o.log?.warn(
        { guard: 'watchdog' },
        'video: setpriv --pdeathsig is not available (util-linux 2.33 or later): a watchdog process ends the streams when the server dies',
      );
    const from = this.binary.source === 'npm' ? `the npm package ${NPM_FFMPEG_PACKAGE}` : this.binary.source;
    if (this.version)
      this.o.log?.info(
        {
          ffmpeg: this.binary.path,
          from: this.binary.source,
          version: this.version.version,
          major: this.version.major,
        },
        `video: ffmpeg ${this.version.version} (${this.version.major ?? '?'}.x) from ${from}: ${this.binary.path}`,
      );
    else
      this.o.log?.warn(
        { ffmpeg: this.binary.path, from: this.binary.source },
        `video: no runnable ffmpeg (${this.binary.path}, from ${from}): cameras will not play`,
      );
  }

  /**
   * Leftovers: a stream folder whose pid file names a server that is gone (or this process, when no manager of it
   * owns the folder). Its ffmpeg is killed only if its command line still names the folder (the pid may be reused).
   */
  cleanLeftovers(): number {
    let killed = 0;
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(this.o.dir, { withFileTypes: true });
    } catch {
      return 0;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const dir = path.join(this.o.dir, e.name);
      if (liveStreams.has(dir)) continue;
      let info: { pid?: number; server?: number } = {};
      try {
        info = JSON.parse(fs.readFileSync(path.join(dir, PID_FILE), 'utf8')) as typeof info;
      } catch {
        // No pid file: a folder whose process never started.
      }
      if (info.server && info.server !== process.pid && alive(info.server)) continue; // another server's stream
      if (info.pid && alive(info.pid)) {
        let cmd = '';
        try {
          cmd = fs.readFileSync(`/proc/${info.pid}/cmdline`, 'utf8');
        } catch {
          // Not readable: leave it.
        }
        if (cmd.includes('ffmpeg') && cmd.includes(dir) && safeKill(info.pid, 'SIGKILL')) killed++;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
    if (killed) this.o.log?.warn({ killed }, 'video: ended ffmpeg processes left by a previous server');
    return killed;
  }

  get size() {
    return this.byKey.size;
  }

  list(): Stream[] {
    return [...this.byKey.values()];
  }

  get(id: string): Stream | undefined {
    return this.byId.get(id);
  }

  /**
   * The user a stream is charged to (docs/devices.md "Fair shares"): its starter while they still touch it; once the
   * starter stopped watching (untouched for the idle time) while others keep it alive, the viewer who touched it last.
   */
  chargedTo(stream: Stream): string {
    const s = stream as Internal;
    const now = this.o.now();
    const starter = s.touchedBy.get(s.startedBy);
    if (starter !== undefined && now - starter <= this.o.idleMs) return s.startedBy;
    let user = s.startedBy;
    let last = -Infinity;
    for (const [u, at] of s.touchedBy)
      if (at > last) {
        last = at;
        user = u;
      }
    return user;
  }

  /** The shares in force: a tenant's never above the cap, a user's never above the tenant's. */
  get shares(): { server: number; tenant: number; user: number } {
    const server = this.o.maxStreams;
    const tenant = Math.min(this.o.maxPerTenant ?? server, server);
    return { server, tenant, user: Math.min(this.o.maxPerUser ?? tenant, tenant) };
  }

  /**
   * The camera's stream for this viewer: joined when it runs — never refused, whatever the shares —, else started;
   * a start is refused (429-worthy) when the user's share, the tenant's or the server's cap is reached, named in
   * that order (`fullUser`, `fullTenant`, `full`). The caller awaits `waitReady`.
   */
  acquire(a: {
    tenantId: string;
    cameraId: string;
    source: string;
    userId: string;
    /**
     * Set by the cluster's claim (owners.ts), which counted the shares across servers in the database: the stream's
     * id (a dead owner's, kept when taken over), the viewers it had, and no count here.
     */
    claimed?: { id: string; viewers: string[] };
  }): Stream {
    if (this.closed) throw new StreamError('failed');
    const key = `${a.tenantId}:${a.cameraId}`;
    const now = this.o.now();
    const had = this.joinable(a.tenantId, a.cameraId, a.source) as Internal | undefined;
    if (had) {
      had.viewers.add(a.userId);
      had.touchedBy.set(a.userId, now);
      had.lastTouch = now;
      return had;
    }
    const old = this.byKey.get(key);
    if (old) this.stop(old.id);
    if (!a.claimed) {
      // A failed stream holds no process: it counts against no share.
      const running = [...this.byKey.values()].filter((x) => x.state !== 'failed');
      const ofTenant = running.filter((x) => x.tenantId === a.tenantId);
      const shares = this.shares;
      if (ofTenant.filter((x) => this.chargedTo(x) === a.userId).length >= shares.user)
        throw new StreamError('fullUser');
      if (ofTenant.length >= shares.tenant) throw new StreamError('fullTenant');
      if (running.length >= shares.server) throw new StreamError('full');
    }
    const id = a.claimed?.id ?? newStreamId();
    const dir = path.join(this.o.dir, id);
    const s: Internal = {
      id,
      key,
      tenantId: a.tenantId,
      cameraId: a.cameraId,
      dir,
      source: a.source,
      state: 'starting',
      viewers: new Set([...(a.claimed?.viewers ?? []), a.userId]),
      startedBy: a.userId,
      touchedBy: new Map([[a.userId, now]]),
      lastTouch: now,
      ready: Promise.resolve(),
      live: new LiveHub(),
      transport: this.learned.get(key) ?? 'tcp',
      transcode: false,
      spawnedAt: 0,
      restartsUsed: 0,
      stderr: [],
    };
    this.byKey.set(key, s);
    this.byId.set(id, s);
    liveStreams.add(dir);
    fs.mkdirSync(dir, { recursive: true });
    this.spawn(s);
    return s;
  }

  /** The camera's running stream from this source, which a viewer joins (none: failed, another source, or not here). */
  joinable(tenantId: string, cameraId: string, source: string): Stream | undefined {
    const had = this.byKey.get(`${tenantId}:${cameraId}`);
    return had && had.source === source && had.state !== 'failed' ? had : undefined;
  }

  /** Waits for the first playable segment; on failure or after `startMs` the stream is stopped and the reason thrown. */
  async waitReady(stream: Stream): Promise<void> {
    const s = stream as Internal;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StreamError('timeout')), this.o.startMs);
    });
    try {
      await Promise.race([s.ready, timeout]);
    } catch (e) {
      const reason = e instanceof StreamError ? e.reason : 'failed';
      // A stream that never played is not kept (nothing to restart); a playing one that dropped keeps its record.
      if (s.state !== 'playing' && !s.stopped) this.stop(s.id);
      throw new StreamError(reason === 'timeout' && s.failure ? s.failure : reason);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A viewer's heartbeat: false when the stream is gone or not theirs. */
  touch(id: string, tenantId: string, userId: string): Stream | undefined {
    const s = this.byId.get(id);
    if (!s || s.tenantId !== tenantId || !s.viewers.has(userId)) return undefined;
    s.lastTouch = this.o.now();
    s.touchedBy.set(userId, s.lastTouch);
    return s;
  }

  /** Stops streams untouched for the idle time (called every second; tests call it after moving the clock). */
  sweep() {
    const now = this.o.now();
    for (const s of [...this.byKey.values()]) if (now - s.lastTouch > this.o.idleMs) this.stop(s.id);
  }

  /** Ends the process (TERM, then KILL after 2 s) and removes the folder; resolves when both are done. */
  stop(id: string): Promise<void> {
    const s = this.byId.get(id);
    if (!s) return Promise.resolve();
    s.stopped = true;
    this.byId.delete(id);
    if (this.byKey.get(s.key) === s) this.byKey.delete(s.key);
    clearInterval(s.poll);
    clearTimeout(s.backoff);
    s.settle?.reject(new StreamError(s.failure ?? 'failed'));
    s.settle = undefined;
    s.live.close();
    const proc = s.proc;
    const done = proc ? endProcess(proc) : Promise.resolve();
    return done.then(() => {
      fs.rmSync(s.dir, { recursive: true, force: true });
      liveStreams.delete(s.dir);
    });
  }

  /** Every stream ended (the app's close). */
  async close() {
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.all([...this.byId.keys()].map((id) => this.stop(id)));
  }

  private spawn(s: Internal) {
    // One promise per start: a replacement process (UDP, transcoding) settles the one viewers already await.
    if (!s.settle) {
      s.ready = new Promise<void>((resolve, reject) => {
        s.settle = { resolve, reject };
      });
      // Nobody may be awaiting it yet (a restart): an unobserved rejection is not an error.
      s.ready.catch(() => {});
    }
    s.stderr = [];
    s.replacing = false;
    s.spawnedAt = Date.now();
    for (const f of fs.readdirSync(s.dir)) if (f !== PID_FILE) fs.rmSync(path.join(s.dir, f), { force: true });
    // Nothing to run (setpriv would start, then fail to run it).
    if (!this.binary.found) return this.fail(s, 'ffmpegMissing');
    // An ffmpeg before 5.0 cannot be told not to follow an HTTP redirect (no `-max_redirects`): a source could send it
    // to an address never checked, so HTTP sources are not played on it (docs/devices.md "Camera addresses").
    if (/^https?:/i.test(s.source) && !followsNoRedirect(this.version?.major ?? null))
      return this.fail(s, 'httpNeedsFfmpeg5');
    let proc: ChildProcess;
    try {
      const args = ffmpegArgs(s.source, s.dir, { ...s, major: this.version?.major ?? null });
      // Dies with the server even when it is killed with SIGKILL (deathsig.ts); stdout carries the low-latency output.
      proc = spawnGuarded(this.guard, this.binary.path, args, s.dir, { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch {
      return this.fail(s, 'ffmpegMissing');
    }
    s.proc = proc;
    children.add(proc);
    s.live.attach(proc.stdout!);
    proc.once('error', (err: NodeJS.ErrnoException) => {
      children.delete(proc);
      if (s.proc === proc && !s.stopped) this.fail(s, err.code === 'ENOENT' ? 'ffmpegMissing' : 'failed');
    });
    if (proc.pid)
      fs.writeFileSync(
        path.join(s.dir, PID_FILE),
        JSON.stringify({ pid: proc.pid, server: process.pid, camera: s.cameraId }),
      );
    let buf = '';
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (chunk: string) => {
      buf += chunk;
      const lines = buf.split(/\r?\n|\r/);
      buf = lines.pop() ?? '';
      for (const l of lines) {
        if (!l || l.startsWith('[hls @')) continue;
        // ffmpeg names its input with the URL's user:password: never kept, so never logged (docs/server.md "Logs").
        s.stderr.push(redactCredentials(l));
        if (s.stderr.length > 60) s.stderr.shift();
        // Not H.264 4:2:0: start again, transcoding.
        if (!s.transcode && s.proc === proc && /Stream #0:\d+.*: Video: /.test(l)) {
          const v = inputVideo([l]);
          if (v && needsTranscode(v)) {
            s.transcode = true;
            s.replacing = true;
            this.o.log?.info({ camera: s.cameraId, codec: v.codec, pixFmt: v.pixFmt }, 'video: transcoding');
            proc.kill('SIGKILL');
          }
        }
      }
    });
    proc.once('exit', () => {
      children.delete(proc);
      if (s.proc !== proc || s.stopped || this.closed || s.state === 'failed') return;
      clearInterval(s.poll);
      this.exited(s);
    });
    // The first playlist holding a segment means the stream plays.
    s.poll = setInterval(() => {
      if (s.proc !== proc) return;
      let text = '';
      try {
        text = fs.readFileSync(path.join(s.dir, PLAYLIST), 'utf8');
      } catch {
        return;
      }
      if (!text.includes('#EXTINF')) return;
      clearInterval(s.poll);
      s.state = 'playing';
      s.failure = undefined;
      s.settle?.resolve();
      s.settle = undefined;
    }, 100);
  }

  private exited(s: Internal) {
    if (s.replacing) return this.spawn(s);
    if (s.state === 'starting' && s.transport === 'tcp' && /^rtsps?:/i.test(s.source) && refusedTcp(s.stderr)) {
      // Cameras (and small RTSP servers) that refuse interleaved TCP are asked over UDP.
      s.transport = 'udp';
      this.learned.set(s.key, 'udp');
      return this.spawn(s);
    }
    // setpriv could not run the binary (gone since the start): as when spawning it fails.
    if (s.stderr.some((l) => l.startsWith('setpriv: failed to execute'))) return this.fail(s, 'ffmpegMissing');
    let reason = classify(s.stderr);
    // ffmpeg gave up after its socket timeout (5 s) without naming it: the source did not answer.
    if (reason === 'failed' && Date.now() - s.spawnedAt >= 4500) reason = 'timeout';
    if (s.state === 'starting') return this.fail(s, reason);
    // It played, then the source dropped: a bounded number of restarts, 1 s, 2 s, 4 s … apart.
    if (s.restartsUsed < this.o.restarts) {
      const wait = 1000 * 2 ** s.restartsUsed;
      s.restartsUsed++;
      s.state = 'restarting';
      s.failure = reason;
      this.o.log?.warn({ camera: s.cameraId, reason, attempt: s.restartsUsed }, 'video: source dropped, restarting');
      s.backoff = setTimeout(() => {
        if (!s.stopped) this.spawn(s);
      }, wait);
      s.backoff.unref();
      return;
    }
    this.fail(s, 'dropped');
  }

  /** The stream cannot play: its process is gone, its files removed; the record stays for touches to report. */
  private fail(s: Internal, reason: StreamFailure) {
    s.state = 'failed';
    s.failure = reason;
    clearInterval(s.poll);
    s.settle?.reject(new StreamError(reason));
    s.settle = undefined;
    s.proc = undefined;
    s.live.close();
    for (const f of safeList(s.dir)) fs.rmSync(path.join(s.dir, f), { force: true });
    this.o.log?.warn({ camera: s.cameraId, reason, stderr: s.stderr.slice(-5) }, 'video: stream failed');
  }
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** TERM, then KILL after 2 s; resolves when the process has exited. */
function endProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null || !proc.pid) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => proc.kill('SIGKILL'), 2000);
    proc.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}
