// Run inside a user and mount namespace of its own (`unshare -rm`, test/bad-disk.test.ts): mounts small tmpfs file
// systems, starts the real server on them, and prints what happened as one JSON line. Nothing here outlives the
// namespace: its mounts go with it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, spawnServer, waitReady, type Child } from './server-process.ts';

const root = process.argv[2];
const mount = (dir: string, opts: string) => {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', dir]);
};
type Run = { code: number | null; output: string; left: string[]; ms: number };

/** Starts a server on `dataDir` and waits for it to exit by itself (a start that must fail). */
async function failedStart(dataDir: string, listDir: string): Promise<Run> {
  const t0 = performance.now();
  const child = spawnServer(dataDir, await freePort(), { ATRIUM_MQTT_PORT: '0', LOG_LEVEL: 'warn' });
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), 90_000);
  const { code } = await child.exited;
  clearTimeout(timer);
  return { code, output: child.output(), left: fs.readdirSync(listDir), ms: Math.round(performance.now() - t0) };
}

/** Starts a server on `dataDir`, waits until it answers, stops it; answers how long it took to answer. */
async function goodStart(dataDir: string): Promise<{ readyMs: number; output: string; code: number | null }> {
  const port = await freePort();
  const t0 = performance.now();
  const child: Child = spawnServer(dataDir, port, { ATRIUM_MQTT_PORT: '0', LOG_LEVEL: 'warn' });
  await waitReady(child, `http://127.0.0.1:${port}/api/blade-system/tenant/info?domain=x`);
  const readyMs = Math.round(performance.now() - t0);
  child.proc.kill('SIGTERM');
  const { code } = await child.exited;
  return { readyMs, output: child.output(), code };
}

const full = path.join(root, 'full');
mount(full, 'size=1m');
const freshOnFull = await failedStart(path.join(full, 'data'), full);

const ro = path.join(root, 'ro');
mount(ro, 'ro,size=1m');
const readOnly = await failedStart(path.join(ro, 'data'), ro);

// An existing data dir whose disk fills up: the start fails, names it, and the next start (space freed) is not kept
// out by a lock left behind.
const big = path.join(root, 'big');
mount(big, 'size=256m');
const dataDir = path.join(big, 'data');
const first = await goodStart(dataDir);
try {
  execFileSync('dd', ['if=/dev/zero', `of=${path.join(big, 'fill')}`, 'bs=1M'], { stdio: 'ignore' });
} catch {
  // dd stops at "No space left on device": the disk is full.
}
const existingOnFull = await failedStart(dataDir, dataDir);
fs.rmSync(path.join(big, 'fill'));
const afterFreed = await goodStart(dataDir);

console.log(JSON.stringify({ freshOnFull, readOnly, first, existingOnFull, afterFreed }));
