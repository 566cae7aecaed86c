/**
 * The low-latency player (docs/devices.md "Low latency"): the stream's fragmented MP4 over a WebSocket, appended to a
 * MediaSource as it comes, the `<video>` kept near the live edge. The server sends the init segment, the fragments
 * since the latest key frame, then each fragment as the camera's ffmpeg writes it. Player.tsx falls back to HLS when
 * this path cannot start.
 */

/** The local setting that makes the player use HLS only (diagnosis; the bench compares both paths with it). */
export const FORCE_HLS_KEY = 'atrium.video.path';

/** A browser that can play this path: Media Source Extensions and WebSocket (and HLS not forced). */
export function liveSupported(): boolean {
  if (typeof window === 'undefined' || typeof window.MediaSource !== 'function' || typeof WebSocket !== 'function')
    return false;
  try {
    return window.localStorage.getItem(FORCE_HLS_KEY) !== 'hls';
  } catch {
    return true;
  }
}

/** How far behind the newest frame the video may fall before it jumps ahead (seconds). */
export const MAX_LAG = 0.5;
/** Where a jump lands, behind the newest frame (seconds): a little to absorb the next fragment's jitter. */
const LAND = 0.15;
/** Buffer kept behind the playhead (seconds); older media is removed. */
const KEEP_BEHIND = 10;
/** Nothing from the socket this long before the first frame: the path is given up (HLS instead). */
export const START_MS = 5000;

/** WebSocket close codes of the server (apps/server/src/modules/video/live.ts `CLOSE`). */
export const CLOSE = { restart: 4000, gone: 4004, slow: 4008 } as const;

/** The RFC 6381 codec of an init segment's H.264 track (`avc1.PPCCLL` from its avcC box), or null. */
export function codecOf(init: Uint8Array): string | null {
  for (let i = 4; i + 8 <= init.length; i++) {
    // 'avcC' then configurationVersion (1), profile, compatibility, level
    if (init[i] === 0x61 && init[i + 1] === 0x76 && init[i + 2] === 0x63 && init[i + 3] === 0x43) {
      const hex = (n: number) => n.toString(16).padStart(2, '0');
      return `avc1.${hex(init[i + 5])}${hex(init[i + 6])}${hex(init[i + 7])}`;
    }
  }
  return null;
}

/** Where to seek to stay live: the new time, or null when the lag is within `MAX_LAG`. */
export function chase(currentTime: number, bufferedEnd: number | null): number | null {
  if (bufferedEnd === null) return null;
  return bufferedEnd - currentTime > MAX_LAG ? Math.max(0, bufferedEnd - LAND) : null;
}

const isType = (b: Uint8Array, type: string) => b.length >= 8 && String.fromCharCode(b[4], b[5], b[6], b[7]) === type;

export type LiveOptions = {
  /** The socket's address (path and query, fresh token): asked at each (re)connect. */
  url: () => string;
  /** The first frame can be shown: the path works. */
  onStart?: () => void;
  /** The path cannot go on (never started, or lost past its reconnects): play HLS instead. */
  onFail: (why: string) => void;
};

/**
 * Plays the socket into `el`; returns the stop function. Before the first frame any failure (socket refused or
 * closed, unknown codec, nothing in `START_MS`) is `onFail`; after it, a closed socket is reconnected up to 3 times
 * in a row (the server closes on a process restart), then `onFail`.
 */
export function playLive(el: HTMLVideoElement, o: LiveOptions): () => void {
  let stopped = false;
  let started = false;
  let ws: WebSocket | undefined;
  let ms: MediaSource | undefined;
  let sb: SourceBuffer | undefined;
  let objectUrl: string | undefined;
  let queue: ArrayBuffer[] = [];
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const fail = (why: string) => {
    if (stopped) return;
    stop();
    o.onFail(why);
  };

  const stop = () => {
    stopped = true;
    clearTimeout(startTimer);
    clearInterval(edgeTimer);
    clearTimeout(retryTimer);
    el.removeEventListener('playing', onPlaying);
    if (ws) {
      ws.onclose = null;
      ws.onmessage = null;
      ws.onerror = null;
      ws.close();
    }
    el.removeAttribute('src');
    el.load?.();
    if (objectUrl) URL.revokeObjectURL(objectUrl);
  };

  const onPlaying = () => {
    if (started) return;
    started = true;
    clearTimeout(startTimer);
    o.onStart?.();
  };

  /** A new media source: at the start and after a process restart (a new init segment, times from zero). */
  const newSource = () => {
    if (objectUrl) URL.revokeObjectURL(objectUrl);
    sb = undefined;
    queue = [];
    ms = new MediaSource();
    objectUrl = URL.createObjectURL(ms);
    el.src = objectUrl;
  };

  const pump = () => {
    if (!sb || sb.updating || !queue.length || !ms || ms.readyState !== 'open') return;
    try {
      // Media behind the playhead is removed from time to time (a viewer left open for hours holds no hours).
      const b = sb.buffered;
      if (b.length && el.currentTime - b.start(0) > KEEP_BEHIND * 2) {
        sb.remove(b.start(0), el.currentTime - KEEP_BEHIND);
        return;
      }
      sb.appendBuffer(queue.shift()!);
    } catch (e) {
      fail(`append: ${(e as Error).name}`);
    }
  };

  const onInit = (init: Uint8Array) => {
    const codec = codecOf(init);
    const type = codec && `video/mp4; codecs="${codec}"`;
    if (!type || !MediaSource.isTypeSupported(type)) return fail(`codec ${codec ?? 'unknown'}`);
    const source = ms!;
    const add = () => {
      if (stopped || source !== ms) return;
      try {
        sb = source.addSourceBuffer(type);
        sb.mode = 'segments';
        sb.addEventListener('updateend', () => {
          pump();
          edge();
        });
        pump();
      } catch (e) {
        fail(`source buffer: ${(e as Error).name}`);
      }
    };
    if (source.readyState === 'open') add();
    else source.addEventListener('sourceopen', add, { once: true });
  };

  /** Stays within MAX_LAG of the newest frame; starts playing once there is something. */
  const edge = () => {
    if (!sb || !sb.buffered.length) return;
    const end = sb.buffered.end(sb.buffered.length - 1);
    const to = chase(el.currentTime, end);
    if (to !== null) el.currentTime = to;
    if (el.paused) void el.play().catch(() => undefined);
  };

  const connect = () => {
    if (stopped) return;
    newSource();
    const url = new URL(o.url(), window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const sock = new WebSocket(url.toString());
    sock.binaryType = 'arraybuffer';
    ws = sock;
    let gotData = false;
    sock.onmessage = (ev: MessageEvent) => {
      if (stopped || sock !== ws || !(ev.data instanceof ArrayBuffer)) return;
      const bytes = new Uint8Array(ev.data);
      if (!gotData) {
        gotData = true;
        if (!isType(bytes, 'ftyp')) return fail('no init segment');
        queue.push(ev.data);
        onInit(bytes);
        return;
      }
      if (started) retries = 0;
      queue.push(ev.data);
      pump();
    };
    sock.onerror = () => undefined; // onclose follows
    sock.onclose = (ev: CloseEvent) => {
      if (stopped || sock !== ws) return;
      if (!started) return fail(`socket closed ${ev.code}`);
      if (ev.code === CLOSE.gone || retries >= 3) return fail(`socket closed ${ev.code}`);
      retries++;
      retryTimer = setTimeout(connect, ev.code === CLOSE.restart ? 300 : 1000);
    };
  };

  el.addEventListener('playing', onPlaying);
  const startTimer = setTimeout(() => {
    if (!started) fail('no frame in time');
  }, START_MS);
  const edgeTimer = setInterval(edge, 250);
  connect();
  return stop;
}
