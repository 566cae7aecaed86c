import { useEffect, useRef, useState } from 'react';
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { openStream, refusal, touchStream, type StreamAddress, type WallCamera } from './api';
import { liveSupported, playLive } from './live';

/** How often a viewer touches its stream (the server stops one untouched for 30 s; docs/devices.md "Live video"). */
export const TOUCH_MS = 10_000;
/** A touch answered 503 (the stream's server died) is tried again this much later. */
const RETRY_MS = 2_000;

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
          if (data.type === Hls.ErrorTypes.NETWORK_ERROR) hls.startLoad();
          else if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
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
    void (async () => {
      try {
        const live = liveSupported();
        const addr = await openStream(camera.id, live ? 'live' : 'hls');
        if (cancelled) return;
        token.current = tokenOf(addr);
        const el = video.current!;
        if (live && addr.live) {
          el.dataset.path = 'live';
          const liveUrl = addr.live;
          destroy = playLive(el, {
            url: () => withToken(liveUrl, token.current),
            // Cannot start, or lost: HLS from the same stream (the same process writes it).
            onFail: () => {
              if (cancelled) return;
              destroy = undefined;
              playHls(addr).catch(() => fail(t('videoMonitor.playbackError')));
            },
          });
        } else await playHls(addr);
        if (cancelled) return;
        set({ kind: 'playing' });
        const touch = () =>
          touchStream(addr.streamId)
            .then((a) => {
              token.current = tokenOf(a) || token.current;
              set({ kind: a.state === 'restarting' ? 'restarting' : 'playing' });
            })
            .catch((err: unknown) => {
              // 503: the server running the stream died and its lease has not run out yet (docs/cluster.md "Live
              // video across servers"); touched again shortly, the stream starts again on a living server.
              if (statusOf(err) !== 503) return fail(refusal(err) ?? t('videoMonitor.failed'));
              set({ kind: 'restarting' });
              setTimeout(() => {
                if (!cancelled) void touch();
              }, RETRY_MS);
            });
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
