// Runs a server script of the benches as `npm start` runs the server: compiled by the production build
// (scripts/build-server.mjs), not through tsx, whose transform keeps every function's name (a property defined on
// each closure as it is made) and so costs the server CPU that `npm start` does not pay. README "Benchmarks".
//
//   node bench/built.mjs test/captcha-file-server.ts
//
// The build goes to .bench-build/<name>-<pid> under apps/server (node finds the packages from there), is imported in
// this process (its pid is the server's, which the benches read CPU time from) and removed when the process ends.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServerBundle } from '../../../scripts/build-server.mjs';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const script = process.argv[2];
if (!script || !/\.ts$/.test(script)) throw new Error('usage: node bench/built.mjs <script.ts>');
const root = path.join(serverDir, '.bench-build');
// Builds left by processes that were killed.
for (const d of fs.existsSync(root) ? fs.readdirSync(root) : []) {
  const pid = Number(d.split('-').pop());
  let alive = false;
  try {
    process.kill(pid, 0);
    alive = true;
  } catch {
    /* gone */
  }
  if (!alive) fs.rmSync(path.join(root, d), { recursive: true, force: true });
}
const name = path.basename(script, '.ts');
const outDir = path.join(root, `${name}-${process.pid}`);
await buildServerBundle({ serverDir, outDir, entries: [{ in: script, out: name }] });
process.on('exit', () => fs.rmSync(outDir, { recursive: true, force: true }));
// The config finds the console two levels above its own file (apps/server/dist → apps/web/dist); this build lies
// deeper, so the console's place is given (without it the login page was the "not built" text and the wire bench waited
// for a captcha that never came).
process.env.ATRIUM_WEB_DIST ??= path.resolve(serverDir, '../web/dist');
const entry = path.join(outDir, `${name}.js`);
// The script sees itself as the program (bench/lib.ts `runIfMain`).
process.argv.splice(1, 2, entry);
await import(pathToFileURL(entry).href);
