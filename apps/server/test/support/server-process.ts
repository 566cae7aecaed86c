import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** apps/server, where `src/main.ts` is. */
export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type Child = {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
};

/**
 * The real server as a child process (`src/main.ts` through tsx, as bench/lib.ts spawns it): on the embedded data
 * dir `dataDir` unless `env` names a DATABASE_URL. Its output is collected for the test's messages.
 */
export function spawnServer(dataDir: string, port: number, env: Record<string, string> = {}): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      ATRIUM_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    proc.once('exit', (code) => resolve({ code, at: performance.now() })),
  );
  return { proc, output: () => out, exited };
}

/** Waits until `url` answers below 500 (or throws with the server's output if it exits or takes 90 s). */
export async function waitReady(child: Child, url: string, timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.proc.exitCode !== null) throw new Error(`server exited: ${child.output()}`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server not ready: ${child.output()}`);
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * The platform administrator's access token from a server started with `ATRIUM_CAPTCHA=off`, through the password
 * grant over HTTP (the console's login without the captcha).
 */
export async function adminTokenOver(base: string, password: string): Promise<string> {
  const q = new URLSearchParams({
    tenantId: '000000',
    username: 'admin',
    password: createHash('md5').update(password).digest('hex'),
    grant_type: 'password',
    scope: 'all',
  });
  const res = await fetch(`${base}/api/blade-auth/oauth/token?${q}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'tenant-id': '000000' },
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}

type Answer = { status: number; body: { code?: number; msg: string; data: Record<string, unknown> } };

/**
 * Over HTTP as the console does it: lists loopback as a camera network (a development seed has it already: 400 then),
 * saves a camera whose stream is `streamUrl`, finds it and asks to play it. Answers `queryDeviceVideo`'s answer.
 */
export async function playOver(
  base: string,
  token: string,
  camera: { streamUrl: string; deviceCode: string; name: string },
): Promise<Answer> {
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { 'blade-auth': `bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  };
  const net = await call('POST', '/api/blade-device-access/cameraNetwork/submit', {
    name: 'loopback',
    cidr: '127.0.0.0/8',
  });
  if (net.status !== 200 && net.status !== 400) throw new Error(`camera network: ${JSON.stringify(net)}`);
  const saved = await call('POST', '/api/blade-device-access/cameraDevice/save', {
    ...camera,
    deviceType: '131',
    regionCode: '110101',
    protocol: 'RTSP',
  });
  if (saved.status !== 200) throw new Error(`camera save: ${JSON.stringify(saved)}`);
  const list = await call('GET', `/api/blade-device-access/cameraDevice/list?name=${encodeURIComponent(camera.name)}`);
  // A list answers an array, which Answer (typed for the calls above) has as a record.
  const rows = list.body.data as unknown as { id: string }[];
  if (rows?.length !== 1) throw new Error(`camera list: ${JSON.stringify(list)}`);
  return call('GET', `/api/video/queryDeviceVideo?deviceInfoId=${rows[0].id}`);
}
