// The cell's player (docs/devices.md "Low latency"): the low-latency path (fragmented MP4 over a WebSocket into a
// MediaSource) by default where the browser has MSE, HLS (hls.js) when it has not or when the socket fails; the
// codec read from the init segment; the live-edge rule. jsdom has no MSE and no network: both are faked here.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import '../../../i18n';
import { get } from '../../../api/http';
import Player, { TOUCH_MS } from './Player';
import { chase, codecOf, MAX_LAG } from './live';

vi.mock('../../../api/http', () => ({ get: vi.fn() }));
const mockGet = vi.mocked(get);

const hlsLoaded: string[] = [];
vi.mock('hls.js', () => {
  class Hls {
    static isSupported = () => true;
    static Events = { ERROR: 'error' };
    static ErrorTypes = { NETWORK_ERROR: 'n', MEDIA_ERROR: 'm' };
    on() {}
    loadSource(url: string) {
      hlsLoaded.push(url);
    }
    attachMedia() {}
    destroy() {}
  }
  return { default: Hls };
});

/** A WebSocket that the test drives. */
class FakeSocket {
  static all: FakeSocket[] = [];
  binaryType = 'blob';
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close() {}
}

/** A MediaSource that opens at once and records what is appended. */
const appended: ArrayBuffer[] = [];
const added: string[] = [];
class FakeMediaSource extends EventTarget {
  static isTypeSupported = (t: string) => t.startsWith('video/mp4; codecs="avc1.');
  readyState = 'open';
  addSourceBuffer(type: string) {
    added.push(type);
    const sb = new EventTarget() as EventTarget & Record<string, unknown>;
    Object.assign(sb, {
      updating: false,
      mode: 'segments',
      buffered: { length: 0 },
      appendBuffer: (b: ArrayBuffer) => appended.push(b),
      remove: () => undefined,
    });
    return sb;
  }
}

const ADDRESS = {
  streamId: 'a'.repeat(24),
  hls: `/api/video/hls/${'a'.repeat(24)}/index.m3u8?token=tok1`,
  live: `/api/video/live/${'a'.repeat(24)}?token=tok1`,
  expiresAt: new Date().toISOString(),
  state: 'playing',
};
const CAMERA = {
  id: '42',
  name: 'gate',
  deviceCode: 'x',
  deviceType: '131',
  status: 1,
  ptz: 1,
  regionCode: '110101',
  regionName: null,
};

/** An init segment holding an avcC box (High profile 4.0 → avc1.640028). */
function init(): ArrayBuffer {
  const b = new Uint8Array(40);
  new DataView(b.buffer).setUint32(0, 40);
  b.set([0x66, 0x74, 0x79, 0x70], 4); // ftyp
  b.set([0x61, 0x76, 0x63, 0x43, 1, 0x64, 0x00, 0x28], 20); // avcC, version 1, profile, compat, level
  return b.buffer;
}

const settle = () => act(() => new Promise((r) => setTimeout(r, 20)));

beforeEach(() => {
  FakeSocket.all = [];
  hlsLoaded.length = 0;
  appended.length = 0;
  added.length = 0;
  mockGet.mockReset();
  mockGet.mockImplementation(async () => ADDRESS);
  vi.stubGlobal('WebSocket', FakeSocket);
  URL.createObjectURL = () => 'blob:fake';
  URL.revokeObjectURL = () => undefined;
  HTMLMediaElement.prototype.play = () => Promise.resolve();
  HTMLMediaElement.prototype.load = () => undefined;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete (window as { MediaSource?: unknown }).MediaSource;
});

describe('the player', () => {
  it('without Media Source Extensions plays HLS', async () => {
    const { getByTestId } = render(<Player camera={CAMERA} />);
    await settle();
    expect(mockGet.mock.calls[0][1]).toEqual({ deviceInfoId: '42', wait: 'hls' });
    expect(FakeSocket.all).toHaveLength(0);
    expect(hlsLoaded).toEqual([ADDRESS.hls]);
    expect(getByTestId('cell-video').dataset.path).toBe('hls');
  });

  it('with MSE opens the socket (same token), reads the codec from the init segment and appends the fragments', async () => {
    (window as { MediaSource?: unknown }).MediaSource = FakeMediaSource;
    const { getByTestId } = render(<Player camera={CAMERA} />);
    await settle();
    expect(mockGet.mock.calls[0][1]).toEqual({ deviceInfoId: '42', wait: 'live' });
    expect(FakeSocket.all).toHaveLength(1);
    const ws = FakeSocket.all[0];
    expect(ws.url).toMatch(/^ws:\/\/[^/]+\/api\/video\/live\/a{24}\?token=tok1$/);
    expect(getByTestId('cell-video').dataset.path).toBe('live');
    ws.onmessage!({ data: init() });
    ws.onmessage!({ data: new Uint8Array(16).buffer });
    expect(added).toEqual(['video/mp4; codecs="avc1.640028"']);
    expect(appended.length).toBeGreaterThan(0);
    expect(hlsLoaded).toEqual([]);
  });

  it('a touch answered 503 (the server running the stream died) reads restarting and is tried again soon', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const states: string[] = [];
      let touches = 0;
      mockGet.mockImplementation(async (_url, params) => {
        if ((params as { streamId?: string }).streamId === undefined) return ADDRESS;
        touches++;
        // The dead server's lease has not run out yet: every touch is refused (the server's 503, or the 502 of a proxy
        // whose other server is the dead one).
        const status = touches === 1 ? 503 : 502;
        throw Object.assign(new Error(`status ${status}`), { response: { status, data: { msg: 'moving' } } });
      });
      render(<Player camera={CAMERA} onState={(s) => states.push(s.kind)} />);
      await settle();
      await act(() => vi.advanceTimersByTimeAsync(TOUCH_MS));
      expect([touches, states.at(-1)]).toEqual([1, 'restarting']);
      await act(() => vi.advanceTimersByTimeAsync(2_000));
      expect([touches, states.at(-1)]).toEqual([2, 'restarting']);
      expect(states).not.toContain('failed');
    } finally {
      vi.useRealTimers();
    }
  });

  it('once a touch succeeds after a 503, the cell opens the stream again and plays it from its new server', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const states: string[] = [];
      let touches = 0;
      let plays = 0;
      mockGet.mockImplementation(async (_url, params) => {
        if ((params as { streamId?: string }).streamId === undefined) {
          plays++;
          return ADDRESS;
        }
        touches++;
        if (touches === 1)
          throw Object.assign(new Error('status 503'), { response: { status: 503, data: { msg: 'moving' } } });
        return ADDRESS;
      });
      render(<Player camera={CAMERA} onState={(s) => states.push(s.kind)} />);
      await settle();
      expect(plays).toBe(1);
      await act(() => vi.advanceTimersByTimeAsync(TOUCH_MS));
      expect([touches, states.at(-1)]).toEqual([1, 'restarting']);
      await act(() => vi.advanceTimersByTimeAsync(2_000));
      await settle();
      expect([touches, plays, states.at(-1)]).toEqual([2, 2, 'playing']);
      expect(hlsLoaded).toEqual([ADDRESS.hls, ADDRESS.hls]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the socket lost, a touch at once; answered "restarting" (taken over by that touch), the cell plays the stream again', async () => {
    (window as { MediaSource?: unknown }).MediaSource = FakeMediaSource;
    let plays = 0;
    let touches = 0;
    mockGet.mockImplementation(async (_url, params) => {
      if ((params as { streamId?: string }).streamId === undefined) {
        plays++;
        return ADDRESS;
      }
      touches++;
      return { ...ADDRESS, state: touches === 1 ? 'restarting' : 'playing' };
    });
    render(<Player camera={CAMERA} />);
    await settle();
    expect([plays, touches, FakeSocket.all.length]).toEqual([1, 0, 1]);
    FakeSocket.all[0].onclose!({ code: 1006 });
    await settle();
    await settle();
    // No 10 s wait: touched at once, and opened again on the low-latency path.
    expect([plays, touches, FakeSocket.all.length]).toEqual([2, 1, 2]);
  });

  it('falls back to HLS when the socket closes before the first frame', async () => {
    (window as { MediaSource?: unknown }).MediaSource = FakeMediaSource;
    const { getByTestId } = render(<Player camera={CAMERA} />);
    await settle();
    FakeSocket.all[0].onclose!({ code: 1006 });
    await settle();
    expect(hlsLoaded).toEqual([ADDRESS.hls]);
    expect(getByTestId('cell-video').dataset.path).toBe('hls');
  });
});

describe('live edge and codec', () => {
  it('jumps ahead only when the video lags the newest frame by more than half a second', () => {
    expect(MAX_LAG).toBe(0.5);
    expect(chase(10, 10.4)).toBeNull();
    expect(chase(10, 12)).toBeCloseTo(11.85);
    expect(chase(0, 5)).toBeCloseTo(4.85); // a stream whose times do not start at zero
    expect(chase(3, null)).toBeNull();
  });

  it('reads avc1.PPCCLL from the avcC box, null without one', () => {
    expect(codecOf(new Uint8Array(init()))).toBe('avc1.640028');
    expect(codecOf(new Uint8Array(40))).toBeNull();
  });
});
