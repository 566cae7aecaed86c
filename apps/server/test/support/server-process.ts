import { spawn, type ChildProcess } from 'node:child_process';
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
