// A stream process dies with its server (docs/devices.md "No process outlives its server"): the real server as a
// child process plays the test camera, then is killed with SIGKILL alone (as the kernel's OOM killer does — no exit
// hook runs); its ffmpeg must be gone within 2 s. Once with setpriv --pdeathsig (util-linux, the default), once with
// setpriv missing from PATH (the watchdog, with the warning in the log).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveFfmpeg } from '../src/modules/video/ffmpeg.ts';
import { ADMIN_PASSWORD } from './harness.ts';
import { adminTokenOver, freePort, playOver, spawnServer, waitReady, type Child } from './support/server-process.ts';
import { startTestCamera, type TestCamera } from './support/test-camera.ts';

// PGlite and PostgreSQL runs may overlap: each takes its own camera ports (docs/devices.md "Test camera").
const CAMERA_PORT = process.env.DATABASE_URL ? 18380 : 18370;

let cam: TestCamera;
let dataDir: string;
const servers: Child[] = [];

beforeAll(async () => {
  cam = await startTestCamera({ clientPort: CAMERA_PORT, sourcePort: CAMERA_PORT + 1, name: 'deathsig' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-deathsig-'));
}, 60_000);

afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
  await cam?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const gone = async (pid: number, ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      // A zombie waiting for init to reap it is gone too.
      if (/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))) return true;
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
};

/** Starts the server on the shared data dir, signs in, plays the test camera: the server and its ffmpeg's pid. */
async function serverPlaying(env: Record<string, string>, n: number): Promise<{ server: Child; ffmpeg: number }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawnServer(dataDir, port, {
    ATRIUM_ADMIN_PASSWORD: ADMIN_PASSWORD,
    ATRIUM_CAPTCHA: 'off',
    ATRIUM_MQTT_PORT: '0',
    ...env,
  });
  servers.push(server);
  await waitReady(server, `${base}/api/blade-system/tenant/info?domain=x`);
  const token = await adminTokenOver(base, ADMIN_PASSWORD);
  // Development seeds loopback as a camera network (docs/devices.md "Camera addresses"); playOver lists it anyway.
  const played = await playOver(base, token, {
    deviceCode: `110101000013100000${n}1`,
    name: `deathsig ${n}`,
    streamUrl: cam.url,
  });
  expect([played.status, played.body.msg]).toEqual([200, played.body.msg]);
  const dir = path.join(dataDir, 'video', String(played.body.data.streamId));
  const { pid } = JSON.parse(fs.readFileSync(path.join(dir, 'ffmpeg.pid'), 'utf8')) as { pid: number };
  // The stream's process is ffmpeg itself (setpriv ran it in its own place), pulling the camera into the folder.
  const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  expect(path.basename(cmd[0])).toBe('ffmpeg');
  expect(cmd.join(' ')).toContain(dir);
  return { server, ffmpeg: pid };
}

describe('kill -9 of the server', () => {
  it('with setpriv --pdeathsig: the ffmpeg is gone within 2 s', async () => {
    const { server, ffmpeg } = await serverPlaying({}, 0);
    expect(server.output()).not.toContain('setpriv --pdeathsig is not available');
    server.proc.kill('SIGKILL');
    await server.exited;
    expect(await gone(ffmpeg, 2000)).toBe(true);
  }, 180_000);

  it('without setpriv (PATH without it): a logged warning, and the watchdog ends the ffmpeg within 2 s', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-nopath-'));
    const { server, ffmpeg } = await serverPlaying(
      { PATH: empty, ATRIUM_FFMPEG: resolveFfmpeg(process.env.ATRIUM_FFMPEG).path },
      1,
    );
    expect(server.output()).toContain('setpriv --pdeathsig is not available');
    server.proc.kill('SIGKILL');
    await server.exited;
    expect(await gone(ffmpeg, 2000)).toBe(true);
  }, 180_000);
});
