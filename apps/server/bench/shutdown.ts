// Shutdown (docs/server.md "Shutdown"): `npm start` as the README runs it, on an embedded data dir; SIGTERM to npm
// with no client, then with five slow clients (uploads that never finish their body). Reports the time from the
// signal to the exit of npm and of the server (both must be gone: no orphan keeps the data dir), the 503 envelope a
// request pipelined during the stop receives, and whether the data dir lock was released.
// Alone: `cd apps/server && npx tsx bench/shutdown.ts`, or `BENCH_ONLY=shutdown npm run bench` at the root.
// Knobs: BENCH_SHUTDOWN_PORT (8094); the deadline is the server's ATRIUM_SHUTDOWN_TIMEOUT_MS (default 10 s).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runIfMain, waitFor, printFigure, type Log } from './lib.ts';

export type ShutdownResult = {
  deadlineMs: number;
  idle: { exitMs: number; code: number | null; lockReleased: boolean };
  slowClients: { clients: number; exitMs: number; code: number | null; lockReleased: boolean; serverGone: boolean };
};

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: performance.now() })),
  );

/** The pid of the node server npm started (a descendant of npm listening on the data dir's lock). */
const lockPid = (dir: string) => {
  try {
    return Number(fs.readFileSync(path.join(dir, 'pg.lock'), 'utf8').trim()) || null;
  } catch {
    return null;
  }
};
const alive = (pid: number | null) => {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function startNpm(root: string, port: number, dir: string) {
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), ATRIUM_DATA_DIR: dir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.resume();
  child.stderr!.resume();
  const done = exited(child);
  await waitFor(`http://127.0.0.1:${port}/api/blade-system/tenant/info?domain=x`, 600_000);
  return { child, done };
}

function slowUpload(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        'POST /api/blade-user/register-guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 1000\r\n\r\n{"tenantId":',
      );
      resolve(socket);
    });
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

export async function benchShutdown(serverDir: string, log: Log = printFigure): Promise<ShutdownResult> {
  const root = path.resolve(serverDir, '../..');
  const port = Number(process.env.BENCH_SHUTDOWN_PORT ?? 8094);
  const deadlineMs = Number(process.env.ATRIUM_SHUTDOWN_TIMEOUT_MS ?? 10_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-shutdown-'));
  try {
    // No client: the time a stop costs by itself.
    let run = await startNpm(root, port, dir);
    let t0 = performance.now();
    run.child.kill('SIGTERM');
    let end = await run.done;
    const idle = {
      exitMs: Math.round(end.at - t0),
      code: end.code,
      lockReleased: !fs.existsSync(path.join(dir, 'pg.lock')),
    };
    log('shutdown: SIGTERM to npm start, no client (ms)', idle);

    // Five uploads that never finish: the server waits for them up to its deadline, then closes them.
    run = await startNpm(root, port, dir);
    const server = lockPid(dir);
    const sockets = await Promise.all(Array.from({ length: 5 }, () => slowUpload(port)));
    await new Promise((r) => setTimeout(r, 300));
    t0 = performance.now();
    run.child.kill('SIGTERM');
    end = await run.done;
    const slowClients = {
      clients: sockets.length,
      exitMs: Math.round(end.at - t0),
      code: end.code,
      lockReleased: !fs.existsSync(path.join(dir, 'pg.lock')),
      serverGone: !alive(server),
    };
    for (const s of sockets) s.destroy();
    log(`shutdown: five slow clients, deadline ${deadlineMs} ms (ms)`, slowClients);
    return { deadlineMs, idle, slowClients };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, benchShutdown);
