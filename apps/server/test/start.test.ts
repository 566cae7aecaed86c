// `npm start` as the README runs it (repo root, scripts/start.mjs): once it answers, SIGTERM to the npm process must
// stop the real server — no process of its tree left, the port free (docs/server.md "Start"). The builds are cached:
// when apps/web/dist (or ATRIUM_WEB_DIST) and apps/server/dist are current this takes seconds; a fresh checkout
// builds the console first (about a minute here).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { adminTokenOver, playOver } from './support/server-process.ts';
import { startTestCamera } from './support/test-camera.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The test camera's ports (others' tests use 18310–18385). */
const CAMERA_PORT = 18392;

/** A port nobody listens on now (the kernel's choice). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** pid → parent pid of every live process (zombies count as gone). */
function processTable(): Map<number, number> {
  const table = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z') table.set(Number(name), Number(ppid));
    } catch {
      /* ended meanwhile */
    }
  }
  return table;
}

function descendants(pid: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [p, pp] of table)
      if (pp === parent) {
        found.push(p);
        walk(p);
      }
  };
  walk(pid);
  return found;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

let npm: ChildProcess | undefined;
let tree: number[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-start-test-'));

afterAll(() => {
  // Only what this test started: the npm process and the processes found under it.
  for (const pid of [npm?.pid, ...tree])
    try {
      if (pid) process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('plays a camera, then stops the server and every process under npm start when npm gets SIGTERM', async () => {
  const port = await freePort();
  // The environment of a person's shell: none of the test runner's own variables.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV' && !k.startsWith('VITEST')),
  );
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    ATRIUM_DATA_DIR: dataDir,
    ATRIUM_CAPTCHA: 'off',
    LOG_LEVEL: 'warn',
  });
  npm = spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
  npm.stdout!.on('data', keep);
  npm.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm!.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const url = `http://127.0.0.1:${port}/api/blade-system/tenant/info?domain=x`;
  for (const until = Date.now() + 240_000; ; await sleep(100)) {
    if (npm.exitCode !== null) throw new Error(`npm start ended before answering:\n${output}`);
    if (Date.now() > until) throw new Error(`npm start did not answer in time:\n${output}`);
    const answer = await fetch(url).catch(() => null);
    if (answer && answer.status < 500) break;
  }
  // It plays a camera (the test camera, on whichever ffmpeg it finds: on a fresh machine the npm package's; .ci/run runs
  // this with Debian's ffmpeg and rtsp-server-perl off PATH), and the low-latency path is offered beside HLS.
  const cam = await startTestCamera({ clientPort: CAMERA_PORT, sourcePort: CAMERA_PORT + 1, name: 'start' });
  try {
    const token = await adminTokenOver(`http://127.0.0.1:${port}`, 'admin');
    const played = await playOver(`http://127.0.0.1:${port}`, token, {
      deviceCode: '11010100001310000091',
      name: 'npm start camera',
      streamUrl: cam.url,
    });
    expect([played.status, played.body.msg], output).toEqual([200, played.body.msg]);
    const hls = await fetch(`http://127.0.0.1:${port}${String(played.body.data.hls)}`);
    expect(hls.status).toBe(200);
    expect(await hls.text()).toContain('#EXTINF');
    expect(String(played.body.data.live)).toMatch(/^\/api\/video\/live\//);
  } finally {
    await cam.stop();
  }
  tree = descendants(npm.pid!);
  expect(tree.length, 'the server runs under npm').toBeGreaterThan(0);

  npm.kill('SIGTERM');
  const end = await Promise.race([exited, sleep(15_000).then(() => null)]);
  expect(end, `npm start did not end after SIGTERM:\n${output}`).not.toBeNull();
  // Within a few seconds nothing started by npm start is left, and nothing answers on the port.
  let left = tree;
  for (let i = 0; i < 50 && left.length; i++) {
    await sleep(100);
    const live = processTable();
    left = tree.filter((pid) => live.has(pid));
  }
  expect(left, 'processes left behind').toEqual([]);
  expect(await listening(port), 'the port is still answered').toBe(false);
  expect(end).toEqual({ code: 0, signal: null });
}, 300_000);
