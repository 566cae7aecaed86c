// Issue 9 §2: one server per embedded data dir. Opening a PGlite data dir takes <dir>/pg.lock (docs/server.md
// "Data dir lock"); a second open is refused with the dir and the holder's pid; a lock left by a dead process is
// taken over.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, openDatabase, type Database } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';

// One data dir for every case: its cluster is created once (initdb costs seconds), each case opens it again.
let dir: string;
const open: Database[] = [];
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-lock-'));
  await (await openDatabase({ dataDir: dir })).close();
}, 120_000);
afterEach(async () => {
  for (const d of open.splice(0)) await d.close().catch(() => {});
  expect(fs.existsSync(path.join(dir, 'pg.lock'))).toBe(false);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
async function openDir() {
  const d = await openDatabase({ dataDir: dir });
  open.push(d);
  return d;
}

/** The pid of a process that has just ended (so surely not alive now). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return r.pid!;
}

describe('PGlite data dir lock', () => {
  it('refuses a second open of the same dir, naming the dir and the pid holding it', async () => {
    await openDir();
    expect(fs.readFileSync(path.join(dir, 'pg.lock'), 'utf8').trim()).toBe(String(process.pid));
    const second = openDatabase({ dataDir: dir });
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(dir);
    await expect(second).rejects.toThrow(`process ${process.pid}`);
  });

  it('opens the dir again after close, and the lock is gone meanwhile', async () => {
    const first = await openDir();
    await first.db.execute('create table kept (x int)');
    await first.db.execute('insert into kept values (42)');
    await first.close();
    open.splice(open.indexOf(first), 1);
    expect(fs.existsSync(path.join(dir, 'pg.lock'))).toBe(false);
    const again = await openDir();
    expect(await rowsOf(again.db, 'select x from kept')).toEqual([{ x: 42 }]);
  });

  it('takes over a lock left by a process that is gone', async () => {
    fs.writeFileSync(path.join(dir, 'pg.lock'), `${deadPid()}\n`);
    await openDir();
    expect(fs.readFileSync(path.join(dir, 'pg.lock'), 'utf8').trim()).toBe(String(process.pid));
  });

  it('takes over an empty lock file older than a few seconds (a process that died while writing it)', async () => {
    const file = path.join(dir, 'pg.lock');
    fs.writeFileSync(file, '');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(file, old, old);
    await openDir();
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(String(process.pid));
  });

  it('two opens at the same moment: exactly one wins', async () => {
    fs.writeFileSync(path.join(dir, 'pg.lock'), `${deadPid()}\n`);
    const results = await Promise.allSettled([openDatabase({ dataDir: dir }), openDatabase({ dataDir: dir })]);
    const won = results.filter((r) => r.status === 'fulfilled');
    for (const r of won) open.push(r.value);
    expect(won).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toBeInstanceOf(DataDirLockedError);
  });

  it('needs no lock in memory', async () => {
    const a = await openDatabase({ dataDir: 'memory://' });
    const b = await openDatabase({ dataDir: 'memory://' });
    await a.close();
    await b.close();
  });
});
