// Which ffmpeg live video runs (docs/devices.md "Which ffmpeg"): ATRIUM_FFMPEG, else an ffmpeg on PATH, else the
// static binary of the npm package @ffmpeg-installer/linux-x64 (usable with no install script); its version read once
// at start decides the RTSP timeout option; the log names the binary and its version. No database.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ffmpegVersion,
  npmFfmpeg,
  onPath,
  parseVersion,
  resolveFfmpeg,
  rtspTimeout,
} from '../src/modules/video/ffmpeg.ts';
import { ffmpegArgs, StreamManager } from '../src/modules/video/streams.ts';

const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** A folder holding an executable `ffmpeg` that prints the given version. */
function fakeFfmpeg(version: string): string {
  const dir = tmp('atrium-fakeff-');
  fs.writeFileSync(
    path.join(dir, 'ffmpeg'),
    `#!/bin/sh\necho "ffmpeg version ${version} Copyright (c) the FFmpeg developers"\necho "libavformat    61.  7.100 / 61.  7.100"\n`,
    { mode: 0o755 },
  );
  return dir;
}

function logs() {
  const lines: { level: string; msg: string }[] = [];
  return {
    lines,
    info: (_o: object, msg: string) => lines.push({ level: 'info', msg }),
    warn: (_o: object, msg: string) => lines.push({ level: 'warn', msg }),
  };
}

const manager = (ffmpeg: string | undefined, log: ReturnType<typeof logs>) =>
  new StreamManager({
    dir: tmp('atrium-ffvideo-'),
    ffmpeg,
    maxStreams: 1,
    idleMs: 30_000,
    startMs: 5000,
    restarts: 0,
    now: Date.now,
    log,
  });

describe('which binary', () => {
  it('ATRIUM_FFMPEG first, then an ffmpeg on PATH, then the npm package', () => {
    const onPath = fakeFfmpeg('7.1.1-1+b1');
    const empty = tmp('atrium-nothing-');
    expect(resolveFfmpeg('/opt/elsewhere/ffmpeg', onPath)).toEqual({
      path: '/opt/elsewhere/ffmpeg',
      source: 'ATRIUM_FFMPEG',
      found: false,
    });
    // A bare name is looked up on PATH.
    expect(resolveFfmpeg('ffmpeg', onPath)).toEqual({
      path: path.join(onPath, 'ffmpeg'),
      source: 'ATRIUM_FFMPEG',
      found: true,
    });
    expect(resolveFfmpeg(undefined, `${empty}${path.delimiter}${onPath}`)).toEqual({
      path: path.join(onPath, 'ffmpeg'),
      source: 'PATH',
      found: true,
    });
    // A fresh machine: nothing on PATH, the package's binary.
    const fresh = resolveFfmpeg(undefined, empty);
    expect(fresh.source).toBe('npm');
    expect(fresh.path).toMatch(/node_modules\/@ffmpeg-installer\/linux-x64\/ffmpeg$/);
    expect(fresh.found).toBe(true);
  });

  it('the npm binary runs as installed (no install script): 4.x with libx264 and the hls muxer', async () => {
    const bin = npmFfmpeg()!;
    expect(bin).toBeTruthy();
    expect(fs.statSync(bin).mode & 0o111).not.toBe(0);
    const v = await ffmpegVersion(bin);
    expect(v?.major).toBe(4);
    expect(execFileSync(bin, ['-hide_banner', '-muxers'], { encoding: 'utf8' })).toMatch(/^\s*E\s+hls\s/m);
    expect(execFileSync(bin, ['-hide_banner', '-encoders'], { encoding: 'utf8' })).toMatch(/\slibx264\s/);
  });
});

describe('the version rule', () => {
  it('reads the release from the version, or from libavformat for snapshot builds', () => {
    expect(parseVersion('ffmpeg version 7.1.1-1+b1 Copyright (c) 2000-2025\nlibavformat    61.  7.100')).toEqual({
      version: '7.1.1-1+b1',
      major: 7,
    });
    expect(parseVersion('ffmpeg version n4.4.2 Copyright').major).toBe(4);
    // Debian 12's package.
    expect(parseVersion('ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026').major).toBe(5);
    expect(parseVersion('ffmpeg version 5.0 Copyright').major).toBe(5);
    // The npm package's build names no release.
    const snapshot = 'ffmpeg version N-47683-g0e8eb07980-static https://x\nlibavformat    58. 24.100 / 58. 24.100';
    expect(parseVersion(snapshot)).toEqual({ version: 'N-47683-g0e8eb07980-static', major: 4 });
    expect(parseVersion('ffmpeg version N-120000-gabcdef\nlibavformat    62.  3.100').major).toBe(8);
    expect(parseVersion('not ffmpeg')).toEqual({ version: 'unknown', major: null });
  });

  it('RTSP: -stimeout (µs) before 5.0, -timeout from 5.0; other inputs unchanged', () => {
    expect(rtspTimeout(4)).toEqual(['-stimeout', '5000000']);
    expect(rtspTimeout(5)).toEqual(['-timeout', '5000000']);
    expect(rtspTimeout(7)).toEqual(['-timeout', '5000000']);
    const old = ffmpegArgs('rtsp://127.0.0.1/x', '/tmp/s', { transport: 'tcp', transcode: false, major: 4 });
    expect(old).toContain('-stimeout');
    expect(old).not.toContain('-timeout');
    const now = ffmpegArgs('rtsp://127.0.0.1/x', '/tmp/s', { transport: 'tcp', transcode: false, major: 7 });
    expect(now).toContain('-timeout');
    expect(now).not.toContain('-stimeout');
    const http = ffmpegArgs('http://127.0.0.1/x', '/tmp/s', { transport: 'tcp', transcode: false, major: 4 });
    expect(http.filter((a) => /timeout/.test(a))).toEqual(['-rw_timeout']);
  });
});

describe('the start', () => {
  it('reads the version once and logs which binary runs', async () => {
    const bin = npmFfmpeg()!;
    const log = logs();
    const m = manager(bin, log);
    await m.start();
    expect(m.version).toEqual({ version: 'N-47683-g0e8eb07980-static', major: 4 });
    expect(log.lines).toEqual([
      {
        level: 'info',
        msg: `video: ffmpeg N-47683-g0e8eb07980-static (4.x) from ATRIUM_FFMPEG: ${bin}`,
      },
    ]);
    await m.close();

    // Unset: PATH's when there is one (CI with Debian's ffmpeg), else the package's (a fresh machine).
    const found = logs();
    const unset = manager(undefined, found);
    const system = onPath('ffmpeg', process.env.PATH);
    expect(unset.binary.source).toBe(system ? 'PATH' : 'npm');
    await unset.start();
    expect(found.lines).toHaveLength(1);
    expect(found.lines[0].msg).toMatch(
      system
        ? new RegExp(`^video: ffmpeg \\S+ \\(\\d+\\.x\\) from PATH: ${system}$`)
        : /^video: ffmpeg N-47683-g0e8eb07980-static \(4\.x\) from the npm package @ffmpeg-installer\/linux-x64: \/.+\/ffmpeg$/,
    );
    await unset.close();
  });

  it('a binary that is missing is said at start (plays then answer "ffmpeg missing")', async () => {
    const log = logs();
    const m = manager('/nonexistent/ffmpeg', log);
    await m.start();
    expect(m.version).toBeNull();
    expect(log.lines).toEqual([
      {
        level: 'warn',
        msg: 'video: no runnable ffmpeg (/nonexistent/ffmpeg, from ATRIUM_FFMPEG): cameras will not play',
      },
    ]);
    await m.close();
  });
});
