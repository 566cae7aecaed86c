// Issue 9 §2: the real server as a child process (the way bench/lib.ts spawns it) on an embedded data dir: a second
// server on the same dir refuses to start; SIGTERM stops it within ATRIUM_SHUTDOWN_TIMEOUT_MS even with slow clients,
// answering what arrives meanwhile with a 503 envelope, and releases the data dir lock (docs/server.md "Shutdown").
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer as spawnWith, waitReady, type Child } from './support/server-process.ts';

const PORT = 8097;
const OTHER_PORT = 8099;
const DEADLINE_MS = 3000;
const base = `http://127.0.0.1:${PORT}`;

const spawnServer = (dataDir: string, port: number, env: Record<string, string> = {}): Child =>
  spawnWith(dataDir, port, { ATRIUM_SHUTDOWN_TIMEOUT_MS: String(DEADLINE_MS), ...env });

/** A connected socket that collects what the server sends back. */
function connect(): Promise<{ socket: net.Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(PORT, '127.0.0.1');
    let data = '';
    socket.on('data', (b) => (data += b.toString()));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.once('error', () => {});
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

let dataDir: string;
let server: Child;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-proc-'));
  server = spawnServer(dataDir, PORT);
  await waitReady(server, `${base}/api/blade-system/tenant/info?domain=x`);
}, 120_000);
afterAll(() => {
  if (server?.proc.exitCode === null) server.proc.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the server process', () => {
  it('a second server on the same data dir refuses to start, naming the dir and the pid holding it', async () => {
    expect(fs.readFileSync(path.join(dataDir, 'pg.lock'), 'utf8').trim()).toBe(String(server.proc.pid));
    const second = spawnServer(dataDir, OTHER_PORT);
    const { code } = await second.exited;
    expect(code).not.toBe(0);
    expect(second.output()).toContain(dataDir);
    expect(second.output()).toContain(`process ${server.proc.pid}`);
    // The first one still serves, its lock untouched.
    expect((await fetch(`${base}/api/blade-system/tenant/info?domain=x`)).status).toBe(200);
    expect(fs.readFileSync(path.join(dataDir, 'pg.lock'), 'utf8').trim()).toBe(String(server.proc.pid));
  }, 60_000);

  it('SIGTERM with five slow clients: 503 envelope meanwhile, exit within the deadline, lock released', async () => {
    // Three uploads that never finish their body, one idle keep-alive connection, and one upload that finishes
    // during the shutdown with a second request pipelined behind it (that request arrives while stopping).
    const slow = await Promise.all([connect(), connect(), connect()]);
    for (const c of slow)
      c.socket.write(
        'POST /api/blade-user/register-guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 1000\r\n\r\n{"tenantId":',
      );
    const idle = await connect();
    idle.socket.write('GET /api/blade-system/tenant/info?domain=x HTTP/1.1\r\nHost: x\r\n\r\n');
    const late = await connect();
    const body = JSON.stringify({ tenantId: '000000', account: 'late_guest', password: 'Late#2026xyz' });
    late.socket.write(
      'POST /api/blade-user/register-guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(idle.received()).toContain('HTTP/1.1 200');

    const t0 = performance.now();
    server.proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    // No new connection is accepted.
    await expect(fetch(`${base}/api/blade-system/tenant/info?domain=x`)).rejects.toThrow();
    // The idle keep-alive connection was closed at once.
    await idle.closed;
    // The upload in progress completes; the request pipelined behind it arrived during the shutdown: 503 envelope.
    late.socket.write(
      `${body.slice(5)}GET /api/blade-system/tenant/info?domain=x HTTP/1.1\r\nHost: x\r\nAccept-Language: en\r\n\r\n`,
    );
    await late.closed;
    const answers = late.received().split(/(?=HTTP\/1\.1 )/);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503/);
    const envelope = JSON.parse(answers[1].slice(answers[1].indexOf('\r\n\r\n') + 4));
    expect(envelope).toEqual({
      code: 503,
      success: false,
      data: null,
      msg: expect.stringMatching(/shutting down/i),
    });

    const { code, at } = await server.exited;
    const took = at - t0;
    expect(code, server.output()).toBe(0);
    expect(took).toBeGreaterThan(DEADLINE_MS - 500); // the slow uploads kept it waiting until the deadline
    expect(took).toBeLessThan(DEADLINE_MS + 2000);
    for (const c of slow) await c.closed;
    expect(fs.existsSync(path.join(dataDir, 'pg.lock'))).toBe(false);
    expect(server.output()).toMatch(/shutting down/);
  }, 60_000);

  it('starts again on the same dir afterwards', async () => {
    const again = spawnServer(dataDir, PORT);
    try {
      await waitReady(again, `${base}/api/blade-system/tenant/info?domain=x`);
    } finally {
      again.proc.kill('SIGTERM');
      const { code } = await again.exited;
      expect(code, again.output()).toBe(0);
    }
    expect(fs.existsSync(path.join(dataDir, 'pg.lock'))).toBe(false);
  }, 120_000);
});
