import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Which ffmpeg live video runs (docs/devices.md "Which ffmpeg"): `ATRIUM_FFMPEG` when set, else an `ffmpeg` on PATH,
 * else the static binary inside the npm package below (an optional dependency of the server: present after `npm ci`
 * on Linux x64, with no install script needed — the file is executable in the package). No I/O at import.
 */

/** The npm package shipping a static ffmpeg (4.1, with libx264 and the hls muxer) inside it. */
export const NPM_FFMPEG_PACKAGE = '@ffmpeg-installer/linux-x64';

export type FfmpegSource = 'ATRIUM_FFMPEG' | 'PATH' | 'npm';

export type Ffmpeg = {
  /** What is spawned: an absolute path when found, else the bare name (spawning it fails: "ffmpeg missing"). */
  path: string;
  /** Where it came from. */
  source: FfmpegSource;
  /** False when nothing was found where the source says. */
  found: boolean;
};

export type FfmpegVersion = {
  /** The version as `ffmpeg -version` prints it (e.g. `7.1.1-1+b1`, or a snapshot's `N-47683-g0e8eb07980-static`). */
  version: string;
  /** The release line (4, 5, 6 …): from the version, or from libavformat's major for snapshot builds; null unknown. */
  major: number | null;
};

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first executable `name` in the PATH's folders. */
export function onPath(name: string, envPath: string | undefined): string | undefined {
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    if (executable(file)) return file;
  }
  return undefined;
}

/** The npm package's binary, or undefined when the package is not installed (another platform). */
export function npmFfmpeg(): string | undefined {
  let dir: string;
  try {
    dir = path.dirname(createRequire(import.meta.url).resolve(`${NPM_FFMPEG_PACKAGE}/package.json`));
  } catch {
    return undefined;
  }
  const bin = path.join(dir, 'ffmpeg');
  if (!fs.existsSync(bin)) return undefined;
  if (!executable(bin)) {
    // What the package's own install script does (npm may be told not to run it); a read-only folder stays as it is.
    try {
      fs.chmodSync(bin, 0o755);
    } catch {
      return undefined;
    }
  }
  return bin;
}

/** `configured` is ATRIUM_FFMPEG (a path, or a name looked up on PATH). */
export function resolveFfmpeg(configured: string | undefined, envPath = process.env.PATH): Ffmpeg {
  if (configured) {
    if (configured.includes('/')) return { path: configured, source: 'ATRIUM_FFMPEG', found: executable(configured) };
    const file = onPath(configured, envPath);
    return { path: file ?? configured, source: 'ATRIUM_FFMPEG', found: Boolean(file) };
  }
  const file = onPath('ffmpeg', envPath);
  if (file) return { path: file, source: 'PATH', found: true };
  const bundled = npmFfmpeg();
  if (bundled) return { path: bundled, source: 'npm', found: true };
  return { path: 'ffmpeg', source: 'PATH', found: false };
}

/** Reads `ffmpeg -version`: the version string and its release line. */
export function parseVersion(text: string): FfmpegVersion {
  const version = /ffmpeg version (\S+)/.exec(text)?.[1] ?? 'unknown';
  const release = /^n?(\d+)\.\d+/.exec(version);
  if (release) return { version, major: Number(release[1]) };
  // Snapshot builds (N-…) name no release: libavformat 58 shipped with ffmpeg 4, 59 with 5, … 62 with 8.
  const lavf = /libavformat\s+(\d+)\./.exec(text);
  return { version, major: lavf ? Number(lavf[1]) - 54 : null };
}

const versions = new Map<string, Promise<FfmpegVersion | null>>();

/** `ffmpeg -version`, run once per binary in this process; null when it does not run. */
export function ffmpegVersion(file: string): Promise<FfmpegVersion | null> {
  let v = versions.get(file);
  if (!v) {
    v = new Promise((resolve) => {
      execFile(file, ['-hide_banner', '-version'], { timeout: 10_000 }, (err, stdout) =>
        resolve(err ? null : parseVersion(String(stdout))),
      );
    });
    versions.set(file, v);
  }
  return v;
}

/**
 * The RTSP input's socket timeout (5 s): ffmpeg 5.0 renamed it. Before 5 `-timeout` means "listen for incoming
 * connections" (the stream would wait for a camera to call in) and the socket timeout is `-stimeout`; from 5 on it is
 * `-timeout`. An unknown version gets the current name.
 */
export function rtspTimeout(major: number | null, microseconds = 5_000_000): string[] {
  return [major !== null && major < 5 ? '-stimeout' : '-timeout', String(microseconds)];
}
