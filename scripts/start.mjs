// npm start (docs/server.md "Start"): builds the console and the server only when their sources changed since the
// last build, then runs the compiled server in this very process, so a signal sent to `npm start` reaches it.
//
//   node scripts/start.mjs               build what changed, then serve
//   node scripts/start.mjs --build-only  build what changed, then exit
//
// Each build leaves a stamp (the hash of its inputs) in its output folder; a start whose inputs hash the same
// builds nothing. The console is built into ATRIUM_WEB_DIST (default apps/web/dist), the server into
// apps/server/dist (main.js, one file per module under modules/, shared chunks, the migrations, the embedded
// database's worker).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServerBundle } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'apps/server');
const webDir = path.join(root, 'apps/web');
const serverDist = path.join(serverDir, 'dist');
// Relative to apps/server, like every path the server reads from the environment (it runs there).
const webDist = path.resolve(serverDir, process.env.ATRIUM_WEB_DIST || '../web/dist');
const STAMP = '.atrium-build';
const buildOnly = process.argv.includes('--build-only');

const log = (text) => console.log(`[start] ${text}`);

/** Every file under `dir` (or `dir` itself when it is a file), skipping tests, which no build reads. */
function filesOf(dir) {
  if (!fs.existsSync(dir)) return [];
  if (!fs.statSync(dir).isDirectory()) return [dir];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/\.test\.tsx?$/.test(e.name) && e.name !== 'test-setup.ts')
    .map((e) => path.join(e.parentPath, e.name));
}

/** Hash of the named files and folders: their paths and contents. */
function hashOf(inputs) {
  const h = createHash('sha256');
  for (const file of inputs.flatMap((p) => filesOf(path.join(root, p))).sort()) {
    h.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return h.digest('hex');
}

const shared = ['packages/contract/src', 'packages/contract/package.json', 'package-lock.json', 'tsconfig.base.json'];
const webInputs = [
  ...shared,
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/package.json',
  'apps/web/tsconfig.json',
  'apps/web/vite.config.ts',
  'vitest.reporters.ts',
];
// These scripts are inputs of the server build: they hold the build's settings.
const serverInputs = [
  ...shared,
  'apps/server/src',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'scripts/start.mjs',
  'scripts/build-server.mjs',
];

const stampOf = (dir) => {
  try {
    return fs.readFileSync(path.join(dir, STAMP), 'utf8').trim();
  } catch {
    return '';
  }
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/** One build of `target` at a time on this machine: a second start waits for the first and then finds it built. */
async function withLock(target, fn) {
  const key = createHash('sha256').update(target).digest('hex').slice(0, 16);
  const file = path.join(os.tmpdir(), `atrium-build-${key}.lock`);
  for (let waited = 0; ; waited += 200) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let pid = 0;
      try {
        pid = Number(fs.readFileSync(file, 'utf8'));
      } catch {
        continue; // released meanwhile
      }
      if (pid && !alive(pid)) {
        fs.rmSync(file, { force: true });
        continue;
      }
      if (waited === 0) log(`waiting for another build of ${target} (pid ${pid || '?'})`);
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** Builds `name` into `dist` unless its stamp says the inputs are those it was built from. */
async function ensure(name, dist, inputs, build) {
  const hash = hashOf(inputs);
  if (stampOf(dist) === hash) return;
  await withLock(dist, async () => {
    if (stampOf(dist) === hash) return;
    log(`building ${name} into ${path.relative(process.cwd(), dist) || '.'} (its sources changed)`);
    const t0 = performance.now();
    fs.rmSync(path.join(dist, STAMP), { force: true });
    await build();
    // Written last: a build cut short leaves no stamp, so the next start builds again.
    fs.writeFileSync(path.join(dist, STAMP), `${hash}\n`);
    log(`${name} built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  });
}

/** Runs a child to its end; SIGINT / SIGTERM received meanwhile are passed on to it, so none is left behind. */
function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit', ...opts });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      if (signal) process.exit(128 + (os.constants.signals[signal] ?? 1));
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(args[0] ?? cmd)} exited with ${code}`));
    });
  });
}

async function buildWeb() {
  // Never empty a folder that is not a console build (ATRIUM_WEB_DIST pointing somewhere else by mistake).
  if (fs.existsSync(webDist) && fs.readdirSync(webDist).length && !fs.existsSync(path.join(webDist, 'index.html')))
    throw new Error(`ATRIUM_WEB_DIST=${webDist} is not empty and holds no index.html: refusing to build over it`);
  const vite = path.dirname(createRequire(path.join(webDir, 'package.json')).resolve('vite/package.json'));
  // The console is always a production build, whatever NODE_ENV the server is started with.
  const env = { ...process.env };
  delete env.NODE_ENV;
  await run(process.execPath, [path.join(vite, 'bin/vite.js'), 'build', '--outDir', webDist, '--emptyOutDir'], {
    cwd: webDir,
    env,
  });
}

async function buildServer() {
  await buildServerBundle({ serverDir, outDir: serverDist, entries: [{ in: 'src/main.ts', out: 'main' }] });
}

try {
  await ensure('the web console', webDist, webInputs, buildWeb);
  await ensure('the server', serverDist, serverInputs, buildServer);
} catch (err) {
  console.error(`[start] ${err.message}`);
  process.exit(1);
}
if (!buildOnly) {
  process.chdir(serverDir);
  process.env.ATRIUM_WEB_DIST = webDist;
  // Stack traces name dist/ files; NODE_OPTIONS=--enable-source-maps maps them to src/ (it slows the start down).
  await import(pathToFileURL(path.join(serverDist, 'main.js')).href);
}
