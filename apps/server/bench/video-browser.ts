/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Live video as the user gets it (docs/devices.md "Live video", part of BENCH_ONLY=video): the built console served by
// the app in this process (embedded database, listening on loopback), headless Chromium driven by Playwright, logged
// in through the form; on the monitoring screen a click on a camera → its cell's <video> presenting its first frame,
// for both paths of the player in the same run, alternating (the low-latency WebSocket + MSE path, and HLS, forced by
// the player's local setting `atrium.video.path=hls`), then the glass-to-glass latency of each frame for a few
// seconds: the test camera draws the wall clock's milliseconds into each frame (test/support/test-camera.ts
// `clockFilter`), the page reads the blocks back from a canvas in requestVideoFrameCallback and compares them with
// the wall clock at the frame's expected display time.
// Timed in the page on one clock (performance.now()): the click event, the Resource Timing of queryDeviceVideo and of
// the first HLS segment, and the video's first requestVideoFrameCallback (beside its `playing` event and its first
// `timeupdate` with currentTime > 0). Each run is a cold start: the cell is closed and the bench waits until the
// server's idle sweep has ended the stream (short idle time, BENCH_VIDEO_IDLE_SECONDS) before the next click.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { newId } from '../src/db/ids.ts';
import { watchCaptchas } from '../test/support/captchas.ts';
import { seedIfEmpty } from '../src/seed/seed.ts';
import { cameraDevice, cameraNetwork } from '../src/modules/device/table.ts';
import { seal } from '../src/platform/secrets.ts';
import { managers } from '../src/modules/video/module.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { fillLoginForm, median, sleep, type Log } from './lib.ts';

const PASSWORD = 'Bench#2026x';
const CAMERA = 'bench first frame';

/** One run, ms after the click (the click event's own timestamp). */
type Run = {
  /** The player's path (the `<video>`'s data-path at the first frame): `live` or `hls`. */
  path: string;
  /** queryDeviceVideo sent (the page's code ran, the call went out). */
  apiSent: number;
  /** queryDeviceVideo answered (the server started the stream and saw its first segment). */
  apiAnswered: number;
  /** The HLS playlist, then its first segment, fetched by hls.js. */
  playlist: number;
  firstSegment: number;
  /** The video's first requestVideoFrameCallback: the frame's presentationTime (submitted for composition). */
  firstFrame: number;
  /** The `playing` event and the first `timeupdate` with currentTime > 0, for comparison. */
  playingEvent: number;
  currentTimeAdvanced: number;
  /** Close of the cell → the server's stream gone (its ffmpeg ended): the idle time plus the sweep. */
  streamEndedAfterCloseMs?: number;
};

type Probe = {
  path: string;
  click: number;
  frame: number;
  playing: number;
  advanced: number;
  resources: { name: string; requestStart: number; responseEnd: number }[];
};

type FirstFrame = {
  __firstFrame: { arm(timeoutMs: number): void; result: Promise<Probe>; latencies(): number[]; skipped(): number };
};

/**
 * Runs in the page before its own scripts (a CDP init script; the console's content policy does not apply):
 * window.__firstFrame.arm() starts a run and answers a promise that settles once the new cell's <video> has shown
 * its first frame, fired `playing` and advanced its clock (or after `timeoutMs`).
 */
function instrument() {
  type Meta = { presentationTime: number; expectedDisplayTime: number };
  type FrameVideo = HTMLVideoElement & { requestVideoFrameCallback(cb: (now: number, m: Meta) => void): number };
  const s = {
    path: '',
    click: 0,
    frame: 0,
    playing: 0,
    advanced: 0,
    done: () => {},
    result: Promise.resolve({} as Probe),
    latencies: [] as number[],
    unreadable: 0,
  };
  // The clock row of the test camera (test/support/test-camera.ts): 16 blocks of 16 px, bit 0 leftmost.
  const BITS = 16;
  const BLOCK = 16;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  /** The frame's glass-to-glass latency (ms), or null when its clock row cannot be read. */
  const latencyOf = (v: HTMLVideoElement, m: Meta): number | null => {
    // The wall clock when the frame is expected on screen.
    const wall = Date.now() - (performance.now() - m.expectedDisplayTime);
    canvas.width = BITS * BLOCK;
    canvas.height = BLOCK;
    ctx.drawImage(v, 0, 0, BITS * BLOCK, BLOCK, 0, 0, BITS * BLOCK, BLOCK);
    const px = ctx.getImageData(0, 0, BITS * BLOCK, BLOCK).data;
    let stamp = 0;
    for (let k = 0; k < BITS; k++) {
      const i = ((BLOCK >> 1) * BITS * BLOCK + k * BLOCK + (BLOCK >> 1)) * 4;
      const y = (px[i] + px[i + 1] + px[i + 2]) / 3;
      if (y > 96 && y < 160) return null; // neither black nor white: not a clock row
      if (y >= 160) stamp |= 1 << k;
    }
    const lat = ((((Math.floor(wall) % 65536) - stamp) % 65536) + 65536) % 65536;
    return lat < 20_000 ? lat : null;
  };
  const check = () => {
    if (s.frame && s.playing && s.advanced) s.done();
  };
  document.addEventListener(
    'click',
    (e) => {
      if (!s.click && (e.target as Element).closest?.('[data-testid="camera-item"]')) s.click = e.timeStamp;
    },
    true,
  );
  const seen = new WeakSet<Element>();
  const watch = (v: FrameVideo) => {
    if (seen.has(v)) return;
    seen.add(v);
    v.addEventListener('playing', () => {
      s.playing ||= performance.now();
      check();
    });
    v.addEventListener('timeupdate', () => {
      if (v.currentTime > 0) s.advanced ||= performance.now();
      check();
    });
    if (typeof v.requestVideoFrameCallback === 'function') {
      const onFrame = (_now: number, m: Meta) => {
        if (!s.frame) {
          s.frame = m.presentationTime;
          s.path = v.dataset.path ?? '';
          check();
        }
        const lat = latencyOf(v, m);
        if (lat === null) s.unreadable++;
        // From one second after the first frame: the steady state (the first frames are the GOP's start).
        else if (m.presentationTime - s.frame >= 1000) s.latencies.push(lat);
        if (v.isConnected) v.requestVideoFrameCallback(onFrame);
      };
      v.requestVideoFrameCallback(onFrame);
    }
  };
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes) {
        if (!(n instanceof Element)) continue;
        if (n.matches('video[data-testid="cell-video"]')) watch(n as FrameVideo);
        n.querySelectorAll('video[data-testid="cell-video"]').forEach((v) => watch(v as FrameVideo));
      }
  }).observe(document, { childList: true, subtree: true });
  (window as typeof window & { __firstFrame: unknown }).__firstFrame = {
    /** Starts a run; `result` then settles with its timestamps. */
    arm(timeoutMs: number) {
      Object.assign(s, { path: '', click: 0, frame: 0, playing: 0, advanced: 0, latencies: [], unreadable: 0 });
      performance.clearResourceTimings();
      performance.setResourceTimingBufferSize(2000);
      s.result = new Promise<Probe>((resolve) => {
        const t = setTimeout(() => s.done(), timeoutMs);
        s.done = () => {
          clearTimeout(t);
          s.done = () => {};
          resolve({
            path: s.path,
            click: s.click,
            frame: s.frame,
            playing: s.playing,
            advanced: s.advanced,
            resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({
              name: e.name,
              requestStart: e.requestStart,
              responseEnd: e.responseEnd,
            })),
          });
        };
      });
    },
    get result() {
      return s.result;
    },
    /** The latencies (ms) of the frames shown since the first one of this run. */
    latencies: () => s.latencies.slice(),
    skipped: () => s.unreadable,
  };
}

/** Builds what changed into `dist`, as `npm run build` does (scripts/start.mjs --build-only). */
function build(root: string, dist: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs'), '--build-only'], {
      cwd: root,
      env: { ...process.env, ATRIUM_WEB_DIST: dist },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build exited with ${code}`))));
  });
}

function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function login(page: Page, base: string, captchas: Map<string, string>) {
  await page.goto(`${base}/login`);
  const key = (await page.locator('img[data-captcha-key]').getAttribute('data-captcha-key'))!;
  await fillLoginForm(page, 'admin', PASSWORD, captchas.get(key) ?? '');
}

const ms = (x: number) => Math.round(x);

/**
 * The figure: `runs` cold starts of the test camera at `camUrl` clicked on the monitoring screen. Answers the
 * medians (ms after the click) and every run; `{ skipped }` when there is no console build to serve.
 */
export async function benchVideoFirstFrame(o: {
  serverDir: string;
  camUrl: string;
  print: Log;
  runs: number;
  port: number;
}): Promise<Record<string, unknown>> {
  const { serverDir, print } = o;
  const root = path.resolve(serverDir, '../..');
  // Resolved like scripts/start.mjs does (relative to apps/server).
  const dist = path.resolve(serverDir, process.env.ATRIUM_WEB_DIST || '../web/dist');
  if (process.env.BENCH_VIDEO_BUILD !== '0') await build(root, dist);
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    const skipped = `no console build in ${dist} (BENCH_VIDEO_BUILD=0): run ATRIUM_WEB_DIST=${dist} npm run build`;
    print('video: click → first frame in Chromium SKIPPED', skipped);
    return { skipped };
  }
  const idleSeconds = Number(process.env.BENCH_VIDEO_IDLE_SECONDS ?? 8);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-video-web-'));
  const database = await openDatabase({ dataDir: 'memory://' });
  let browser: Browser | undefined;
  let app: Awaited<ReturnType<typeof buildApp>>['app'] | undefined;
  try {
    await database.migrate();
    await seedIfEmpty(database.db, { adminPassword: PASSWORD });
    const captchas = new Map<string, string>();
    const config = loadConfig({
      NODE_ENV: 'test',
      ATRIUM_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ATRIUM_WEB_DIST: dist,
      ATRIUM_STREAM_IDLE_SECONDS: String(idleSeconds),
      ATRIUM_FFMPEG: process.env.ATRIUM_FFMPEG,
    });
    const built = await buildApp({
      config,
      db: database.db,
      signingKey: randomBytes(32).toString('hex'),
    });
    app = built.app;
    const { services } = built;
    watchCaptchas(services, (k, v) => captchas.set(k, v));
    await app.listen({ host: '127.0.0.1', port: o.port });
    const base = `http://127.0.0.1:${o.port}`;
    // The test camera is on loopback: a camera network of the tenant (docs/devices.md "Camera addresses").
    await withTenant(services.db, '000000', (tx) =>
      tx
        .insert(cameraNetwork)
        .values({ id: newId(), tenantId: '000000', name: 'bench loopback', cidr: '127.0.0.0/8' })
        .onConflictDoNothing(),
    );
    await withTenant(services.db, '000000', (tx) =>
      tx.insert(cameraDevice).values({
        id: newId(),
        tenantId: '000000',
        deviceCode: '11010100131000000999',
        name: CAMERA,
        deviceType: '131',
        regionCode: '110101',
        streamUrlSealed: seal(services, o.camUrl),
        streamUrl: o.camUrl,
        status: 1,
      }),
    );
    const manager = managers.get(services)!;

    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
    });
    const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1366, height: 820 } });
    // As source text: tsx (esbuild keepNames) may wrap inner functions in a `__name` helper the page lacks.
    await context.addInitScript({ content: `var __name = (f) => f; (${instrument.toString()})();` });
    const page = await context.newPage();
    await login(page, base, captchas);
    await page.goto(`${base}/video/video_monitor/index`);
    const screen = page.getByTestId('video-monitor').last();
    const item = screen.getByTestId('camera-item').filter({ hasText: CAMERA });
    await item.waitFor({ timeout: 30_000 });

    const runs: Run[] = [];
    const latency: Record<string, number[]> = { live: [], hls: [] };
    let unreadable = 0;
    const latencySeconds = Number(process.env.BENCH_VIDEO_LATENCY_SECONDS ?? 5);
    for (let j = 0; j < o.runs * 2; j++) {
      const i = j >> 1;
      const want = j % 2 === 0 ? 'live' : 'hls';
      // The player's local setting (features/video/monitor/live.ts FORCE_HLS_KEY), read when the cell mounts.
      await page.evaluate((w) => localStorage.setItem('atrium.video.path', w), want);
      // Armed before the click: the click's own timestamp starts the run.
      await page.evaluate((t) => (window as typeof window & FirstFrame).__firstFrame.arm(t), 30_000);
      await item.click();
      const p = await page.evaluate(() => (window as typeof window & FirstFrame).__firstFrame.result);
      const after = (re: RegExp, k: 'requestStart' | 'responseEnd') => {
        const e = p.resources.filter((r) => re.test(new URL(r.name).pathname)).sort((a, b) => a[k] - b[k])[0];
        return e ? e[k] - p.click : NaN;
      };
      const run: Run = {
        path: p.path,
        apiSent: after(/\/api\/video\/queryDeviceVideo$/, 'requestStart'),
        apiAnswered: after(/\/api\/video\/queryDeviceVideo$/, 'responseEnd'),
        playlist: after(/\/api\/video\/hls\/[^/]+\/index\.m3u8$/, 'responseEnd'),
        firstSegment: after(/\/api\/video\/hls\/[^/]+\/s\d+\.ts$/, 'responseEnd'),
        firstFrame: p.frame ? p.frame - p.click : NaN,
        playingEvent: p.playing ? p.playing - p.click : NaN,
        currentTimeAdvanced: p.advanced ? p.advanced - p.click : NaN,
      };
      if (!p.click || !p.frame) {
        const state = await screen
          .getByTestId('cell-0')
          .innerText()
          .catch(() => '?');
        throw new Error(`run ${i + 1}: no first frame within 30 s (click seen: ${!!p.click}; cell: ${state})`);
      }
      if (p.path !== want) throw new Error(`run ${i + 1}: asked for ${want}, played ${p.path}`);
      // Glass to glass while it plays.
      await sleep(latencySeconds * 1000);
      latency[want].push(
        ...(await page.evaluate(() => (window as typeof window & FirstFrame).__firstFrame.latencies())),
      );
      unreadable += await page.evaluate(() => (window as typeof window & FirstFrame).__firstFrame.skipped());
      // Cold start for the next run: close the cell, then wait for the idle sweep to end the server's stream.
      const pids = manager.list().map((s) => s.proc?.pid);
      const closed = performance.now();
      await screen.getByTestId('cell-close-0').click();
      await screen.getByTestId('cell-0').getByTestId('cell-video').waitFor({ state: 'detached' });
      const until = closed + (idleSeconds + 15) * 1000;
      while (manager.list().length || pids.some(alive)) {
        if (performance.now() > until)
          throw new Error(`run ${i + 1}: the stream still runs ${idleSeconds + 15} s after close`);
        await sleep(100);
      }
      run.streamEndedAfterCloseMs = performance.now() - closed;
      runs.push(run);
    }

    const col = (path: string, k: Exclude<keyof Run, 'path'>) =>
      ms(median(runs.filter((r) => r.path === path).map((r) => r[k] ?? NaN)));
    const pct = (xs: number[], q: number) => {
      const sorted = [...xs].sort((x, y) => x - y);
      return sorted.length ? ms(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]) : NaN;
    };
    const out: Record<string, unknown> = {
      signal:
        'first frame: requestVideoFrameCallback presentationTime, from the click event timeStamp; latency: wall clock ' +
        'drawn by the test camera into each frame (before encoding) vs the wall clock at the frame’s expectedDisplayTime',
      idleSeconds,
      latencyWindowSeconds: latencySeconds,
      unreadableFrames: unreadable,
    };
    for (const path of ['live', 'hls']) {
      const mine = runs.filter((r) => r.path === path);
      const firstFrameMs = { median: col(path, 'firstFrame'), runs: mine.map((r) => ms(r.firstFrame)) };
      const breakdownMs = {
        queryDeviceVideoSent: col(path, 'apiSent'),
        queryDeviceVideoAnswered: col(path, 'apiAnswered'),
        ...(path === 'hls'
          ? { playlistFetched: col(path, 'playlist'), firstSegmentFetched: col(path, 'firstSegment') }
          : {}),
        firstFrame: col(path, 'firstFrame'),
        playingEvent: col(path, 'playingEvent'),
        currentTimeAdvanced: col(path, 'currentTimeAdvanced'),
      };
      const lat = latency[path];
      const latencyMs = {
        p50: pct(lat, 0.5),
        p90: pct(lat, 0.9),
        min: pct(lat, 0),
        max: pct(lat, 1),
        frames: lat.length,
      };
      print(`video [${path}]: click → first frame in Chromium (ms)`, firstFrameMs);
      print(`  [${path}] medians after the click (ms)`, breakdownMs);
      print(`  [${path}] glass-to-glass latency (ms)`, latencyMs);
      out[path] = { firstFrameMs, breakdownMs, latencyMs };
    }
    print('  close → stream ended, median (s)', Math.round(median(runs.map((r) => r.streamEndedAfterCloseMs!))) / 1000);
    print('  frames whose clock row could not be read', unreadable);
    out.runs = runs.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? ms(v) : v])),
    );
    return out;
  } finally {
    await browser?.close();
    await app?.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
