import { useEffect, useRef, useState } from 'react';
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { openStream, refusal, touchStream, type StreamAddress, type WallCamera } from './api';
import { liveSupported, playLive } from './live';

/** How often a viewer touches its stream (the server stops one untouched for 30 s; docs/devices.md "Live video"). */
export const TOUCH_MS = 10_000;
/** A touch answered 503 (the stream's server died) is tried again this much later. */
const RETRY_MS = 2_000;
/** Statuses that say "not now" rather than "no": the stream's server died, or the proxy in front found none. */
const TRANSIENT = new Set([502, 503, 504]);

const statusOf = (err: unknown) => (err as { response?: { status?: unknown } })?.response?.status;

export type PlayState = { kind: 'starting' | 'playing' | 'restarting' | 'failed'; message?: string };

const withToken = (url: string, token: string) => {
  const u = new URL(url, window.location.origin);
  if (token) u.searchParams.set('token', token);
  return u.toString();
};

/**
 * One cell's video: opens (or joins) the camera's stream and plays it — by default the low-latency path (fragmented
 * MP4 over a WebSocket into Media Source Extensions, live.ts), else, or when that path cannot start or is lost, its HLS
 * with hls.js (loaded then, on this screen only) — and touches the stream every 10 s, taking the fresh token each
 * touch hands out. Unmounting (closing the cell, leaving the screen: a hidden tab's effects are cleaned up too) stops
 * the touches and the player. The `<video>` says which path plays in `data-path` (`live` or `hls`).
 */
export default function Player({ camera, onState }: { camera: WallCamera; onState?: (s: PlayState) => void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<PlayState>({ kind: 'starting' });
  const report = useRef(onState);
  report.current = onState;

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    let destroy: (() => void) | undefined;
    const token = { current: '' };
    const set = (s: PlayState) => {
      if (cancelled) return;
      setState(s);
      report.current?.(s);
    };
    const fail = (message: string) => {
      set({ kind: 'failed', message });
      clearInterval(timer);
      destroy?.();
      destroy = undefined;
    };
    set({ kind: 'starting' });
    const tokenOf = (a: StreamAddress) => new URL(a.hls, window.location.origin).searchParams.get('token') ?? '';
    const live = liveSupported();
    let streamId = '';
    /** A touch was answered 503: the next good touch plays the stream again from its new server. */
    let recovering = false;
    /** The picture was lost (the socket, or HLS's network): a touch saying the stream restarts means a new process. */
    let lost = false;
    let lastTouch = 0;
    const playHls = async (addr: StreamAddress) => {
      const { default: Hls } = await import('hls.js');
      if (cancelled) return;
      const el = video.current!;
      el.dataset.path = 'hls';
      if (Hls.isSupported()) {
        const hls = new Hls({
          // The console's content policy allows no blob: workers.
          enableWorker: false,
          liveSyncDurationCount: 2,
          manifestLoadingMaxRetry: 4,
          xhrSetup: (xhr, url) => xhr.open('GET', withToken(url, token.current), true),
        });
        hls.on(Hls.Events.ERROR, (_e, data) => {
          if (!data.fatal) return;
          if (data.type === Hls.ErrorTypes.NETWORK_ERROR) {
            // Its server may have died: a touch now says so (503) instead of at the next round.
            lost = true;
            touchSoon();
            hls.startLoad();
          } else if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
          else fail(t('videoMonitor.playbackError'));
        });
        hls.loadSource(addr.hls);
        hls.attachMedia(el);
        destroy = () => hls.destroy();
      } else if (el.canPlayType('application/vnd.apple.mpegurl')) {
        el.src = addr.hls;
        destroy = () => el.removeAttribute('src');
      } else {
        return fail(t('videoMonitor.playbackError'));
      }
      void el.play().catch(() => undefined);
    };
    /** Opens (or joins) the camera's stream and plays it: at the start, and again after its server died. */
    const begin = async () => {
      const addr = await openStream(camera.id, live ? 'live' : 'hls');
      if (cancelled) return;
      streamId = addr.streamId;
      token.current = tokenOf(addr);
      const el = video.current!;
      if (live && addr.live) {
        el.dataset.path = 'live';
        const liveUrl = addr.live;
        destroy = playLive(el, {
          url: () => withToken(liveUrl, token.current),
          // Cannot start, or lost: HLS from the same stream (the same process writes it), and a touch now in case
          // the stream's server died.
          onFail: () => {
            if (cancelled) return;
            destroy = undefined;
            lost = true;
            touchSoon();
            playHls(addr).catch(() => fail(t('videoMonitor.playbackError')));
          },
        });
      } else await playHls(addr);
      if (!cancelled) set({ kind: 'playing' });
    };
    const again = () => {
      destroy?.();
      destroy = undefined;
      begin().catch((err: unknown) => retryOr(err));
    };
    /**
     * 503 (the stream's server died; docs/cluster.md "Live video across servers"), or 502 / 504 (a proxy in front found
     * no server to answer — nginx says 502 when the one it tried next is the dead one): restarting, touched again soon.
     */
    const retryOr = (err: unknown) => {
      if (cancelled) return;
      if (!TRANSIENT.has(Number(statusOf(err)))) return fail(refusal(err) ?? t('videoMonitor.failed'));
      recovering = true;
      set({ kind: 'restarting' });
      setTimeout(() => {
        if (!cancelled) void touch();
      }, RETRY_MS);
    };
    const touch = () => {
      lastTouch = Date.now();
      return touchStream(streamId)
        .then((a) => {
          if (cancelled) return;
          token.current = tokenOf(a) || token.current;
          // The stream runs on a living server again (after a 503, or taken over by this very touch once the picture
          // was lost): the cell plays it from there at once.
          if (recovering || (lost && a.state === 'restarting')) {
            recovering = false;
            lost = false;
            return again();
          }
          if (a.state !== 'restarting') lost = false;
          set({ kind: a.state === 'restarting' ? 'restarting' : 'playing' });
        })
        .catch(retryOr);
    };
    const touchSoon = () => {
      if (!recovering && Date.now() - lastTouch > RETRY_MS) void touch();
    };
    void (async () => {
      try {
        await begin();
        if (cancelled) return;
        timer = setInterval(() => void touch(), TOUCH_MS);
      } catch (err) {
        if (!cancelled) fail(refusal(err) ?? t('videoMonitor.failed'));
      }
    })();
    return () => {
      cancelled = true;
      clearInterval(timer);
      destroy?.();
    };
  }, [camera.id, t]);

  return (
    <div style={{ position: 'relative', width: '100%', height: '100%', background: '#000' }}>
      <video
        ref={video}
        data-testid="cell-video"
        muted
        autoPlay
        playsInline
        style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }}
      />
      {state.kind !== 'playing' && (
        <div
          role={state.kind === 'failed' ? 'alert' : 'status'}
          style={{
            position: 'absolute',
            inset: 0,
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: 'center',
            color: '#fff',
            gap: 8,
            padding: 12,
            textAlign: 'center',
            background: 'rgba(0,0,0,0.55)',
          }}
        >
          {state.kind === 'failed' ? (
            <span data-testid="cell-error">{state.message ?? t('videoMonitor.failed')}</span>
          ) : (
            <>
              <Spin />
              <span>{t(state.kind === 'starting' ? 'videoMonitor.starting' : 'videoMonitor.restarting')}</span>
            </>
          )}
        </div>
      )}
    </div>
  );
}
