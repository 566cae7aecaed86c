// Live video (docs/devices.md "Live video", BENCH_ONLY=video): the app in this process on an embedded database, the
// test camera of test/support (rtsp-streaming-server fed by ffmpeg's test pattern, real RTSP on loopback), the ffmpeg
// the server picks (ATRIUM_FFMPEG, else PATH, else the npm package's; docs/devices.md "Which ffmpeg"). Measured:
// queryDeviceVideo → the first segment fetched through the HLS address (10 cold starts, the stream stopped between
// them), the CPU share of each running copied stream's ffmpeg (/proc/<pid>/stat over a window), then the user's
// figure in Chromium: click on the camera → first frame shown (bench/video-browser.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { newId } from '../src/db/ids.ts';
import { watchCaptchas } from '../test/support/captchas.ts';
import { seedIfEmpty } from '../src/seed/seed.ts';
import { cameraDevice, cameraNetwork } from '../src/modules/device/table.ts';
import { seal } from '../src/platform/secrets.ts';
import { managers } from '../src/modules/video/module.ts';
import { md5Hex } from '../src/platform/password.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { startTestCamera } from '../test/support/test-camera.ts';
import { BASIC, median, runIfMain, sleep, type Log } from './lib.ts';
import { benchVideoFirstFrame } from './video-browser.ts';

const env = (k: string, d: number) => Number(process.env[`BENCH_VIDEO_${k}`] ?? d);

function cpuTicks(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

export async function benchVideo(serverDir: string, print: Log = (l, v) => console.log(l, v)) {
  const runs = env('RUNS', 10);
  const streams = env('STREAMS', 4);
  const windowS = env('WINDOW_SECONDS', 10);
  const port = env('PORT', 18360);
  const cam = await startTestCamera({
    clientPort: port,
    sourcePort: port + 1,
    size: process.env.BENCH_VIDEO_SIZE ?? '640x360',
    // The wall clock in each frame, for the browser's glass-to-glass latency (bench/video-browser.ts).
    clock: true,
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-video-'));
  const database = await openDatabase({ dataDir: 'memory://' });
  const results: Record<string, unknown> = {
    source: `${cam.url} (H.264 ${process.env.BENCH_VIDEO_SIZE ?? '640x360'} 25 fps)`,
  };
  try {
    await database.migrate();
    await seedIfEmpty(database.db, { adminPassword: 'Bench#2026x' });
    const captchas = new Map<string, string>();
    const base = loadConfig({
      NODE_ENV: 'test',
      ATRIUM_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ATRIUM_FFMPEG: process.env.ATRIUM_FFMPEG,
    });
    const { app, services } = await buildApp({
      config: {
        ...base,
        video: {
          ...base.video,
          // One account opens every stream: its shares are the whole cap (docs/devices.md "Fair shares").
          maxStreams: streams + 1,
          maxStreamsPerTenant: streams + 1,
          maxStreamsPerUser: streams + 1,
        },
      },
      db: database.db,
      signingKey: randomBytes(32).toString('hex'),
    });
    watchCaptchas(services, (k, v) => captchas.set(k, v));
    await app.ready();
    const c = (await app.inject({ url: '/api/blade-auth/oauth/captcha' })).json() as { key: string };
    const q = new URLSearchParams({
      tenantId: '000000',
      username: 'admin',
      password: md5Hex('Bench#2026x'),
      grant_type: 'captcha',
      scope: 'all',
      type: 'account',
    });
    const login = await app.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/token?${q}`,
      headers: {
        authorization: BASIC,
        'tenant-id': '000000',
        'captcha-key': c.key,
        'captcha-code': captchas.get(c.key)!,
      },
    });
    const token = (login.json() as { access_token: string }).access_token;
    const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
    // The test camera is on loopback: a camera network of the tenant (docs/devices.md "Camera addresses").
    await withTenant(services.db, '000000', (tx) =>
      tx
        .insert(cameraNetwork)
        .values({ id: newId(), tenantId: '000000', name: 'bench loopback', cidr: '127.0.0.0/8' })
        .onConflictDoNothing(),
    );
    const ids: string[] = [];
    for (let i = 0; i < streams; i++) {
      const id = newId();
      await withTenant(services.db, '000000', (tx) =>
        tx.insert(cameraDevice).values({
          id,
          tenantId: '000000',
          deviceCode: `11010100131${String(i).padStart(9, '0')}`.slice(0, 20),
          name: `bench ${i}`,
          deviceType: '131',
          regionCode: '110101',
          streamUrlSealed: seal(services, cam.url),
          streamUrl: cam.url,
          status: 1,
        }),
      );
      ids.push(id);
    }
    const manager = managers.get(services)!;
    results.ffmpeg = { path: manager.binary.path, from: manager.binary.source, version: manager.version?.version };
    print('video: ffmpeg', results.ffmpeg);

    // First playable segment: answer of queryDeviceVideo, then the playlist and its first segment.
    const first: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const res = await app.inject({ url: `/api/video/queryDeviceVideo?deviceInfoId=${ids[0]}`, headers });
      if (res.statusCode !== 200) throw new Error(`queryDeviceVideo: ${res.body}`);
      const { hls, streamId } = (res.json() as { data: { hls: string; streamId: string } }).data;
      const list = await app.inject({ url: hls });
      const seg = list.body.split('\n').find((l) => l && !l.startsWith('#'))!;
      const segment = await app.inject({ url: `/api/video/hls/${streamId}/${seg}` });
      if (segment.statusCode !== 200 || segment.rawPayload[0] !== 0x47) throw new Error('no playable segment');
      first.push(performance.now() - t0);
      await manager.stop(streamId);
      await sleep(300);
    }
    results.firstSegmentMs = { median: Math.round(median(first)), runs: first.map(Math.round) };
    print('video: queryDeviceVideo → first playable segment (ms)', results.firstSegmentMs);

    // CPU of copied streams: `streams` cameras playing at once, sampled over the window.
    for (const id of ids) {
      const res = await app.inject({ url: `/api/video/queryDeviceVideo?deviceInfoId=${id}`, headers });
      if (res.statusCode !== 200) throw new Error(`queryDeviceVideo: ${res.body}`);
    }
    await sleep(2000);
    const pids = manager.list().map((s) => s.proc!.pid!);
    const hz = 100;
    const before = pids.map(cpuTicks);
    const t0 = performance.now();
    await sleep(windowS * 1000);
    const wall = (performance.now() - t0) / 1000;
    const pcts = pids.map((p, i) => Math.round(((cpuTicks(p) - before[i]) / hz / wall) * 1000) / 10);
    results.cpuPerStreamPct = { median: median(pcts), each: pcts, streams: pids.length, windowSeconds: windowS };
    print('video: CPU per copied stream (% of a core)', results.cpuPerStreamPct);
    const rss = pids.map((p) => {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      return m ? Math.round(Number(m[1]) / 1024) : 0;
    });
    results.rssPerStreamMB = { median: median(rss), each: rss };
    print('video: RSS per stream (MB)', results.rssPerStreamMB);
    await app.close();
    const left = pids.filter(
      (p) => fs.existsSync(`/proc/${p}`) && !/\) Z /.test(fs.readFileSync(`/proc/${p}/stat`, 'utf8')),
    );
    results.processesLeftAfterClose = left.length;
    print('video: ffmpeg processes left after close', left.length);

    // The same camera clicked on the monitoring screen in Chromium → its first frame (bench/video-browser.ts).
    results.firstFrameInBrowser = await benchVideoFirstFrame({
      serverDir,
      camUrl: cam.url,
      print,
      runs,
      port: env('WEB_PORT', port + 2),
    }).catch((err: Error) => {
      console.error(`video: click → first frame in Chromium FAILED: ${err.stack ?? err}`);
      return { error: err.message };
    });
  } finally {
    await database.close();
    await cam.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

runIfMain(import.meta.url, benchVideo);
