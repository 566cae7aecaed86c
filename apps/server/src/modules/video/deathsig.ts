import { execFile, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { isMainThread } from 'node:worker_threads';
import { onPath } from './ffmpeg.ts';

/**
 * A stream process dies with its server, even a server killed with SIGKILL (the kernel's OOM killer) that runs no
 * exit hook (docs/devices.md "No process outlives its server"):
 *
 * - **pdeathsig**: ffmpeg is started as `setpriv --pdeathsig KILL -- <ffmpeg> …` (util-linux): setpriv asks the
 *   kernel for SIGKILL when its parent goes, then execs ffmpeg in the same process (same pid; the setting survives
 *   the exec). The kernel sends it when the *thread* that forked the child exits: Node (libuv) forks from the thread
 *   calling `spawn`, here the main thread, which exits only with the process. Off a worker thread it is not used.
 * - **watchdog**, when setpriv is missing or refuses `--pdeathsig` (util-linux before 2.33): one small node process
 *   per server reading the pids of the streams on a pipe from the server; the pipe closes when the server dies,
 *   however it dies, and the watchdog then KILLs every pid still listed whose command line still names its folder.
 *
 * No I/O at import.
 */

export type DeathGuard = { kind: 'pdeathsig'; setpriv: string } | { kind: 'watchdog' };

let probed: Promise<DeathGuard> | undefined;

/** Which mechanism this process uses: found once (setpriv on PATH, and it runs a program with `--pdeathsig`). */
export function deathGuard(envPath = process.env.PATH): Promise<DeathGuard> {
  probed ??= new Promise((resolve) => {
    const setpriv = isMainThread ? onPath('setpriv', envPath) : undefined;
    if (!setpriv) return resolve({ kind: 'watchdog' });
    // Runs this node binary (always there, whatever PATH holds) to print its version.
    execFile(setpriv, ['--pdeathsig', 'KILL', '--', process.execPath, '--version'], { timeout: 10_000 }, (err) =>
      resolve(err ? { kind: 'watchdog' } : { kind: 'pdeathsig', setpriv }),
    );
  });
  return probed;
}

/** The watchdog's program (run by this node binary with `-e`): `+pid folder` adds, `-pid` removes, EOF kills. */
const WATCHDOG = `
const fs = require('node:fs');
const pids = new Map();
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => {
  buf += c;
  const lines = buf.split('\\n');
  buf = lines.pop();
  for (const l of lines) {
    const m = /^([+-])(\\d+) ?(.*)$/.exec(l);
    if (m && m[1] === '+') pids.set(Number(m[2]), m[3]);
    else if (m) pids.delete(Number(m[2]));
  }
});
process.stdin.on('end', () => {
  for (const [pid, dir] of pids) {
    try {
      if (fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes(dir)) process.kill(pid, 'SIGKILL');
    } catch {}
  }
  process.exit(0);
});
`;

let watchdog: ChildProcess | undefined;

function watchdogWrite(line: string) {
  if (!watchdog || watchdog.exitCode !== null || watchdog.signalCode !== null) {
    watchdog = spawn(process.execPath, ['-e', WATCHDOG], { stdio: ['pipe', 'ignore', 'ignore'], env: {} });
    watchdog.on('error', () => {});
    watchdog.stdin!.on('error', () => {});
    // Neither the process nor its pipe keeps the server's event loop alive.
    watchdog.unref();
    const pipe = watchdog.stdin;
    if (pipe && 'unref' in pipe && typeof pipe.unref === 'function') pipe.unref();
  }
  watchdog.stdin!.write(`${line}\n`);
}

/** The watchdog's pid (tests), when it runs. */
export const watchdogPid = () => watchdog?.pid;

/**
 * Spawns `file args` so that it dies with this process (see above); `dir` is a string its command line holds (the
 * stream's folder), which the watchdog checks before a kill (pids are reused).
 */
export function spawnGuarded(
  guard: DeathGuard,
  file: string,
  args: string[],
  dir: string,
  options: SpawnOptions,
): ChildProcess {
  if (guard.kind === 'pdeathsig') return spawn(guard.setpriv, ['--pdeathsig', 'KILL', '--', file, ...args], options);
  const proc = spawn(file, args, options);
  const pid = proc.pid;
  if (pid) {
    watchdogWrite(`+${pid} ${dir}`);
    proc.once('exit', () => watchdogWrite(`-${pid}`));
  }
  return proc;
}
