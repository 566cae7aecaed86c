// Issue 23: a start on a full or read-only disk names the problem and the path, and leaves nothing behind: no empty
// pg.lock keeping the next start out, no half-made cluster (docs/server.md "Start on a bad disk"). The disks are
// tmpfs file systems mounted in a user and mount namespace of the test's own (`unshare -rm`), so it needs no root.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverDir } from './support/server-process.ts';

const canMount = (() => {
  try {
    execFileSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs /mnt'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!canMount) console.log('bad-disk: skipped (this machine lets no user and mount namespace be made: unshare -rm)');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-disk-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

type Run = { code: number | null; output: string; left: string[]; ms: number };
type Result = {
  freshOnFull: Run;
  readOnly: Run;
  first: { readyMs: number; code: number | null };
  existingOnFull: Run;
  afterFreed: { readyMs: number; output: string; code: number | null };
};

describe.skipIf(!canMount)('a start on a bad disk (embedded database)', () => {
  let result: Result;
  it('runs the starts', async () => {
    // Not spawnSync: the test worker's event loop must keep answering the runner meanwhile.
    const child = spawn(
      'unshare',
      ['-rm', process.execPath, '--import', 'tsx', 'test/support/bad-disk-driver.ts', root],
      {
        cwd: serverDir,
        env: { ...process.env, DATABASE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 280_000);
    await new Promise((r) => child.once('close', r));
    clearTimeout(timer);
    const line = stdout.trim().split('\n').at(-1) ?? '';
    expect(line.startsWith('{'), `${stdout}\n${stderr}`).toBe(true);
    result = JSON.parse(line) as Result;
  }, 300_000);

  it('a fresh data dir on a full disk: the message says the disk is full and where; nothing is left on it', () => {
    const r = result.freshOnFull;
    expect(r.code).toBe(1);
    expect(r.output).toContain(`Atrium cannot start: the disk holding ${path.join(root, 'full', 'data')} is full`);
    expect(r.output).not.toMatch(/ErrnoError|errno: 51|\n\s+at /);
    expect(r.left).toEqual([]);
  });

  it('a data dir on a read-only file system: the message says so and where', () => {
    const r = result.readOnly;
    expect(r.code).toBe(1);
    expect(r.output).toContain(`Atrium cannot start: ${path.join(root, 'ro', 'data')} is on a read-only file system`);
    expect(r.output).not.toMatch(/\n\s+at /);
  });

  it('an existing data dir whose disk filled up: named, no lock left; once space is freed the next start is not kept out', () => {
    expect(result.first.code).toBe(0);
    const r = result.existingOnFull;
    expect(r.code).toBe(1);
    expect(r.output).toContain('is full (no space left on device)');
    expect(r.left).not.toContain('pg.lock');
    const next = result.afterFreed;
    expect(next.code).toBe(0);
    expect(next.output).not.toContain('in use by another Atrium server');
    // A lock left behind would hold it back FRESH_EMPTY_LOCK_MS (5 s) before anything else.
    expect(next.readyMs).toBeLessThan(result.first.readyMs + 4000);
  });
});
