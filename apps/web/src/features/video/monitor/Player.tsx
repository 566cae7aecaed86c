import { useEffect, useRef, useState } from 'react';
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { openStream, refusal, touchStream, type WallCamera } from './api';

/** How often a viewer touches its stream (the server stops one untouched for 30 s; docs/devices.md "Live video"). */
export const TOUCH_MS = 10_000;

export type PlayState = { kind: 'starting' | 'playing' | 'restarting' | 'failed'; message?: string };

const withToken = (url: string, token: string) => {
  const u = new URL(url, window.location.origin);
  if (token) u.searchParams.set('token', token);
  return u.toString();
};

/**
 * One cell's video: opens (or joins) the camera's stream, plays its HLS with hls.js — loaded here, on this screen
 * only — and touches the stream every 10 s, taking the fresh token each touch hands out. Unmounting (closing the
 * cell, leaving the screen: a hidden tab's effects are cleaned up too) stops the touches and the player.
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
    void (async () => {
      try {
        const [addr, { default: Hls }] = await Promise.all([openStream(camera.id), import('hls.js')]);
        if (cancelled) return;
        token.current = new URL(addr.hls, window.location.origin).searchParams.get('token') ?? '';
        const el = video.current!;
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
        set({ kind: 'playing' });
        timer = setInterval(() => {
          touchStream(addr.streamId)
            .then((a) => {
              token.current = new URL(a.hls, window.location.origin).searchParams.get('token') ?? token.current;
              set({ kind: a.state === 'restarting' ? 'restarting' : 'playing' });
            })
            .catch((err: unknown) => fail(refusal(err) ?? t('videoMonitor.failed')));
        }, TOUCH_MS);
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
