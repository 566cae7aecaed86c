// Summarises a V8 CPU profile (`node --cpu-prof`, e.g. from bench/steady.ts): self time by package or source file,
// the functions with the most self time, and inclusive time by package. Usage:
// node bench/cpu-summary.mjs <file> [top] [from] [cols]: `from` (0–1, default 0) skips that share of the profile's
// time — 0.5 keeps the second half, a steady run's (bench/steady.ts) without the server's start and warm-up; `cols`
// names functions by line and column (tsx writes a module on one line, so the anonymous functions of a file would
// otherwise share one entry; the column points into tsx's cached output of the file). A run with
// `STEADY_NODE_FLAGS=--no-turbo-inlining` charges each function its own time instead of its caller's.
import fs from 'node:fs';

const [file, topArg, fromArg, colsArg] = process.argv.slice(2);
/** `cols`: functions keyed by column too (tsx writes a module on one line, so anonymous functions share line 1). */
const byColumn = colsArg === 'cols';
if (!file) {
  console.error('usage: node bench/cpu-summary.mjs <file.cpuprofile> [top] [from]');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const from = Number(fromArg ?? 0);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
let total = 0;
const start = profile.startTime + (profile.endTime - profile.startTime) * from;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  at += dt;
  if (at < start) return;
  self.set(id, (self.get(id) ?? 0) + dt);
  total += dt;
});
/** A frame's package (node_modules/<name>), source file (src/…) or builtin. */
const where = (n) => {
  const url = n.callFrame.url;
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.includes('/src/')) return `src/${url.split('/src/').pop()}`;
  return url ? url.replace(/^.*\//, '') : n.callFrame.functionName || '(native)';
};
const add = (m, k, t) => m.set(k, (m.get(k) ?? 0) + t);
const byWhere = new Map();
const byFunction = new Map();
const inclusive = new Map();
for (const [id, t] of self) {
  const n = byId.get(id);
  add(byWhere, where(n), t);
  add(
    byFunction,
    `${n.callFrame.functionName || '(anonymous)'} ${where(n)}:${n.callFrame.lineNumber + 1}${byColumn ? `:${n.callFrame.columnNumber + 1}` : ''}`,
    t,
  );
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = where(byId.get(cur));
    if (!seen.has(k)) {
      seen.add(k);
      add(inclusive, k, t);
    }
  }
}
const show = (title, m) => {
  console.log(`\n${title}`);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${(t / 1000).toFixed(0).padStart(8)} ms ${((100 * t) / total).toFixed(1).padStart(5)} %  ${k}`);
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled${from ? ` (from ${from * 100} % of the run)` : ''}`);
show('self time by package / file', byWhere);
show('self time by function', byFunction);
show('inclusive time by package / file', inclusive);
