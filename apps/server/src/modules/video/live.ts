import type { Readable } from 'node:stream';

/**
 * The low-latency path of live video (docs/devices.md "Live video", "Low latency"): the camera's one ffmpeg writes,
 * beside its HLS files, fragmented MP4 to its stdout (`liveOutputArgs`); the hub splits it into top-level boxes, keeps
 * the init segment (ftyp+moov) and the fragments (moof+mdat) since the latest key frame, and fans each new fragment out
 * to the stream's WebSocket viewers. A new viewer gets the init segment and the fragments since the latest key frame,
 * then every live fragment. A viewer whose socket does not drain is skipped ahead to the next key frame, and dropped
 * when it still holds too much.
 */

/** Fragmented MP4 to stdout: one frame per fragment (`-frag_duration 1` µs), each written at once. */
export function liveOutputArgs(): string[] {
  return [
    '-map',
    '0:v:0',
    '-an',
    '-c:v',
    'copy',
    '-f',
    'mp4',
    '-movflags',
    'frag_keyframe+empty_moov+default_base_moof',
    '-frag_duration',
    '1',
    '-flush_packets',
    '1',
    'pipe:1',
  ];
}

export type Box = { type: string; data: Buffer };

/**
 * Splits a byte stream into top-level ISO BMFF boxes by their headers (ISO/IEC 14496-12: a 32-bit big-endian size
 * including the header, a 4-character type; size 1: a 64-bit size follows the type). A size that cannot be a box
 * (below its header, or 0 — "to the end of the file", which a live pipe has not) stops the splitter.
 */
export class BoxSplitter {
  private buf: Buffer = Buffer.alloc(0);
  broken = false;

  push(chunk: Buffer): Box[] {
    if (this.broken) return [];
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Box[] = [];
    for (;;) {
      if (this.buf.length < 8) break;
      let size = this.buf.readUInt32BE(0);
      let header = 8;
      if (size === 1) {
        if (this.buf.length < 16) break;
        const big = this.buf.readBigUInt64BE(8);
        if (big > BigInt(MAX_BOX)) return this.fail(out);
        size = Number(big);
        header = 16;
      }
      if (size < header || size > MAX_BOX) return this.fail(out);
      if (this.buf.length < size) break;
      out.push({ type: this.buf.toString('latin1', 4, 8), data: this.buf.subarray(0, size) });
      this.buf = this.buf.subarray(size);
    }
    return out;
  }

  private fail(out: Box[]) {
    this.broken = true;
    this.buf = Buffer.alloc(0);
    return out;
  }
}

/** A box larger than this is not a live video fragment. */
const MAX_BOX = 64 * 1024 * 1024;

/** The children of a container box's payload. */
function* children(data: Buffer, start: number, end: number): Generator<{ type: string; at: number; size: number }> {
  let i = start;
  while (i + 8 <= end) {
    const size = data.readUInt32BE(i);
    if (size < 8 || i + size > end) return;
    yield { type: data.toString('latin1', i + 4, i + 8), at: i, size };
    i += size;
  }
}

/** `sample_is_non_sync_sample` of the sample flags (ISO/IEC 14496-12, 8.8.3.1). */
const NON_SYNC = 0x00010000;

/**
 * Whether a fragment (its moof box) starts with a key frame: the first sample's flags are the trun's
 * first-sample-flags, else its per-sample flags, else the tfhd's default flags; a sync sample has the non-sync bit
 * clear. A fragment whose flags are not written is taken as a key frame only when it is the first of its track run
 * set (ffmpeg writes them; see test/video-live.test.ts).
 */
export function startsWithKey(moof: Buffer): boolean {
  for (const traf of children(moof, 8, moof.length)) {
    if (traf.type !== 'traf') continue;
    let defaults: number | undefined;
    for (const c of children(moof, traf.at + 8, traf.at + traf.size)) {
      const p = c.at + 8; // version (1) + flags (3)
      if (c.type === 'tfhd') {
        const flags = moof.readUInt32BE(p) & 0xffffff;
        let q = p + 8; // after track_ID
        if (flags & 0x01) q += 8; // base_data_offset
        if (flags & 0x02) q += 4; // sample_description_index
        if (flags & 0x08) q += 4; // default_sample_duration
        if (flags & 0x10) q += 4; // default_sample_size
        if (flags & 0x20 && q + 4 <= c.at + c.size) defaults = moof.readUInt32BE(q);
      } else if (c.type === 'trun') {
        const flags = moof.readUInt32BE(p) & 0xffffff;
        let q = p + 8; // after sample_count
        if (flags & 0x01) q += 4; // data_offset
        if (flags & 0x04) return (moof.readUInt32BE(q) & NON_SYNC) === 0; // first_sample_flags
        if (flags & 0x400) {
          if (flags & 0x100) q += 4; // sample_duration
          if (flags & 0x200) q += 4; // sample_size
          return (moof.readUInt32BE(q) & NON_SYNC) === 0;
        }
        return defaults === undefined ? true : (defaults & NON_SYNC) === 0;
      }
    }
  }
  return false;
}

/** What the hub needs of a WebSocket (the `ws` package's socket; tests pass fakes). */
export type LiveSocket = {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: Buffer, cb?: (err?: Error) => void): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  once(event: 'close', fn: () => void): unknown;
};

const OPEN = 1;

export type LiveLimits = {
  /** Above this many unsent bytes a viewer gets no fragments until the next key frame (skipped ahead). */
  skipBytes: number;
  /** Above this many unsent bytes a viewer is dropped (its socket ended). */
  dropBytes: number;
  /** The fragments kept since the latest key frame, at most (a camera with a long GOP keeps its last part). */
  keepBytes: number;
};

export const LIVE_LIMITS: LiveLimits = { skipBytes: 1 << 20, dropBytes: 8 << 20, keepBytes: 8 << 20 };

/** WebSocket close codes the player reads (docs/devices.md "Low latency"). */
export const CLOSE = {
  /** The stream's process started again: a new init segment; reconnect. */
  restart: 4000,
  /** The stream stopped (idle, closed, failed). */
  gone: 4004,
  /** The viewer could not keep up. */
  slow: 4008,
} as const;

type Viewer = { socket: LiveSocket; waitKey: boolean; hasInit: boolean };

export class LiveHub {
  private init?: Buffer;
  private ftyp?: Buffer;
  private gop: Buffer[] = [];
  private gopBytes = 0;
  private pendingMoof?: Buffer;
  private splitter = new BoxSplitter();
  private readonly viewers = new Set<Viewer>();
  private keyResolve?: () => void;
  /** Resolves once the init segment and a key frame fragment are there (each process start). */
  keyReady!: Promise<void>;
  /** Fragments left out for slow viewers and viewers dropped, since the hub was made (the bench and tests read it). */
  skipped = 0;
  dropped = 0;
  private ended = false;

  constructor(private readonly limits: LiveLimits = LIVE_LIMITS) {
    this.reset();
  }

  get viewerCount() {
    return this.viewers.size;
  }

  /** A new process's output: the previous one's state is dropped and its viewers told to reconnect. */
  attach(out: Readable) {
    this.reset();
    for (const v of [...this.viewers]) this.end(v, CLOSE.restart, 'restart');
    const mine = ++this.generation;
    // A replaced process's last bytes are not mixed into the new one's boxes.
    out.on('data', (chunk: Buffer) => {
      if (this.generation === mine) this.write(chunk);
    });
  }

  private generation = 0;

  /** Bytes of the process's stdout. */
  write(chunk: Buffer) {
    if (this.ended) return;
    for (const box of this.splitter.push(chunk)) this.box(box);
  }

  /** A viewer: the init segment and the fragments since the latest key frame now (if there), then live fragments. */
  join(socket: LiveSocket) {
    if (this.ended) return socket.close(CLOSE.gone, 'gone');
    const v: Viewer = { socket, waitKey: true, hasInit: false };
    this.viewers.add(v);
    socket.once('close', () => this.viewers.delete(v));
    if (this.init && this.gop.length) {
      v.waitKey = false;
      v.hasInit = true;
      socket.send(this.init);
      for (const f of this.gop) socket.send(f);
    }
  }

  /** The stream stopped: every viewer's socket is closed. */
  close() {
    this.ended = true;
    for (const v of [...this.viewers]) this.end(v, CLOSE.gone, 'gone');
    this.keyResolve = undefined;
  }

  private reset() {
    this.init = undefined;
    this.ftyp = undefined;
    this.gop = [];
    this.gopBytes = 0;
    this.pendingMoof = undefined;
    this.splitter = new BoxSplitter();
    // One promise until it resolves: a start replaced before its first key frame (UDP, transcoding) settles the one
    // already awaited.
    if (this.keyResolve) return;
    this.keyReady = new Promise<void>((resolve) => {
      this.keyResolve = resolve;
    });
  }

  private box({ type, data }: Box) {
    if (type === 'ftyp') this.ftyp = Buffer.from(data);
    else if (type === 'moov') this.init = Buffer.concat([this.ftyp ?? Buffer.alloc(0), data]);
    else if (type === 'moof') this.pendingMoof = Buffer.from(data);
    else if (type === 'mdat' && this.pendingMoof && this.init) {
      const fragment = Buffer.concat([this.pendingMoof, data]);
      const key = startsWithKey(this.pendingMoof);
      this.pendingMoof = undefined;
      this.fragment(fragment, key);
    }
  }

  private fragment(f: Buffer, key: boolean) {
    if (key) {
      this.gop = [];
      this.gopBytes = 0;
    }
    if (!key && !this.gop.length) return; // no key frame seen yet: nothing a decoder can start from
    this.gop.push(f);
    this.gopBytes += f.length;
    while (this.gopBytes > this.limits.keepBytes && this.gop.length > 1) this.gopBytes -= this.gop.shift()!.length;
    if (key) {
      this.keyResolve?.();
      this.keyResolve = undefined;
    }
    for (const v of [...this.viewers]) {
      const s = v.socket;
      if (s.readyState !== OPEN) continue;
      if (s.bufferedAmount > this.limits.dropBytes) {
        this.dropped++;
        this.end(v, CLOSE.slow, 'slow');
        continue;
      }
      if (s.bufferedAmount > this.limits.skipBytes) {
        // Behind: nothing more until it drained and a key frame comes (it then resumes at the live edge).
        v.waitKey = true;
        this.skipped++;
        continue;
      }
      if (v.waitKey) {
        if (!key) {
          this.skipped++;
          continue;
        }
        // A viewer that joined before the first key frame gets the init segment with it.
        if (!v.hasInit) s.send(this.init!);
        v.hasInit = true;
        v.waitKey = false;
      }
      s.send(f);
    }
  }

  private end(v: Viewer, code: number, reason: string) {
    this.viewers.delete(v);
    try {
      // A slow viewer's socket would not drain a closing handshake either: it is cut.
      if (v.socket.readyState === OPEN && code !== CLOSE.slow) v.socket.close(code, reason);
      else v.socket.terminate();
    } catch {
      v.socket.terminate();
    }
  }
}
