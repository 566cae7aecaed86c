// Object storage (issue 27; docs/system-api.md "Files", README "Benchmarks"): the server (a child process) on a
// throwaway PostgreSQL database, an S3-compatible server (s3rver) on loopback in this process, then
//   1. a 100 MB file uploaded through put-file and downloaded from its link, through the server's disk and through an
//      S3 configuration: MB/s each way;
//   2. BENCH_OSS_CONCURRENT (20) uploads of BENCH_OSS_EACH_MB (20) MB at once through each: the server's RSS sampled
//      every 20 ms — before, peak, growth. Aim: growth < 100 MB (uploads are streamed, not buffered).
// Alone: `cd apps/server && npx tsx bench/oss.ts`, or `BENCH_ONLY=oss npm run bench` at the root (results.oss).
// Knobs: BENCH_PG_URL, BENCH_OSS_PORT, BENCH_OSS_MB (100), BENCH_OSS_CONCURRENT, BENCH_OSS_EACH_MB, BENCH_OSS_KEEP_DB.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import S3rver from 's3rver';
import {
  BASIC,
  captchaLogin,
  type Log,
  printFigure,
  rssOf,
  round,
  runIfMain,
  sleep,
  stop,
  throwawayDb,
} from './lib.ts';

const MB = 1024 * 1024;
const PUT = '/api/blade-resource/oss/endpoint/put-file';

export type OssResult = {
  sizeMb: number;
  local: { uploadMBps: number; downloadMBps: number };
  s3: { uploadMBps: number; downloadMBps: number };
  concurrent: Record<
    'local' | 's3',
    { uploads: number; eachMb: number; ms: number; rssBeforeMb: number; rssPeakMb: number; growthMb: number }
  >;
  aims: { rssGrowthUnder100: Record<'local' | 's3', boolean> };
};

/** A text file of `mb` MB (text: the type is read from its first bytes and its extension). */
function makeFile(dir: string, mb: number): string {
  const file = path.join(dir, `bench-${mb}.txt`);
  const line = Buffer.from(`${'atrium object storage bench '.repeat(36)}\n`);
  const fd = fs.openSync(file, 'w');
  for (let written = 0; written < mb * MB; written += line.length) fs.writeSync(fd, line);
  fs.closeSync(fd);
  return file;
}

async function upload(base: string, token: string, file: string): Promise<string> {
  const form = new FormData();
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const res = await fetch(`${base}${PUT}`, {
    method: 'POST',
    headers: { authorization: BASIC, 'blade-auth': `bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as { data?: { link: string }; msg?: string };
  if (!res.ok || !body.data) throw new Error(`upload failed: ${res.status} ${body.msg}`);
  return body.data.link;
}

/** Reads the file back as an API client would: its bearer token names the tenant (docs/system-api.md "Files"). */
async function download(base: string, token: string, link: string): Promise<number> {
  const res = await fetch(`${base}${link}`, { headers: { 'blade-auth': `bearer ${token}` } });
  if (!res.ok || !res.body) throw new Error(`download failed: ${res.status}`);
  let n = 0;
  const reader = res.body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) n += r.value.length;
  return n;
}

async function api(base: string, token: string, url: string, body: object) {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { authorization: BASIC, 'blade-auth': `bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: { id: string }; msg?: string };
  if (!res.ok) throw new Error(`${url}: ${res.status} ${json.msg}`);
  return json.data;
}

/** Uploads at once, the server's RSS sampled meanwhile. */
async function concurrent(base: string, token: string, file: string, n: number, pid: number | undefined) {
  await sleep(500);
  const before = rssOf(pid).rss ?? 0;
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, rssOf(pid).rss ?? 0);
      await sleep(20);
    }
  })();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, () => upload(base, token, file)));
  const ms = Math.round(performance.now() - t0);
  sampling = false;
  await sampler;
  return { before, peak, ms };
}

export async function benchOss(serverDir: string, print: Log = printFigure): Promise<OssResult> {
  const sizeMb = Number(process.env.BENCH_OSS_MB ?? 100);
  const n = Number(process.env.BENCH_OSS_CONCURRENT ?? 20);
  const eachMb = Number(process.env.BENCH_OSS_EACH_MB ?? 20);
  const db = await throwawayDb('oss', 'BENCH_OSS_PORT', 'BENCH_OSS_KEEP_DB');
  const s3Dir = path.join(db.dir, 's3');
  fs.mkdirSync(s3Dir);
  const s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory: s3Dir,
    silent: true,
    configureBuckets: [{ name: 'bench' }],
  });
  const { port } = (await s3.run()) as AddressInfo;
  let server: Awaited<ReturnType<typeof db.start>> | undefined;
  try {
    const big = makeFile(db.dir, sizeMb);
    const each = makeFile(db.dir, eachMb);
    const captchaFile = path.join(db.dir, 'captchas.txt');
    server = await db.start('test/captcha-file-server.ts', serverDir, {
      ATRIUM_E2E_CAPTCHA_FILE: captchaFile,
      ATRIUM_UPLOAD_MAX_KB: String((sizeMb + 10) * 1024),
      ATRIUM_OSS_PRIVATE_NETWORKS: '127.0.0.0/8',
    });
    const token = await captchaLogin(db.base, captchaFile);
    const through = async (label: 'local' | 's3') => {
      let t0 = performance.now();
      const link = await upload(db.base, token, big);
      const up = performance.now() - t0;
      t0 = performance.now();
      const got = await download(db.base, token, link);
      const down = performance.now() - t0;
      if (got !== fs.statSync(big).size) throw new Error(`${label}: downloaded ${got} bytes`);
      const r = { uploadMBps: round(sizeMb / (up / 1000)), downloadMBps: round(sizeMb / (down / 1000)) };
      print(`oss ${label}: ${sizeMb} MB upload (MB/s)`, r.uploadMBps);
      print(`oss ${label}: ${sizeMb} MB download (MB/s)`, r.downloadMBps);
      const c = await concurrent(db.base, token, each, n, server?.pid);
      const row = {
        uploads: n,
        eachMb,
        ms: c.ms,
        rssBeforeMb: c.before,
        rssPeakMb: c.peak,
        growthMb: c.peak - c.before,
      };
      print(
        `oss ${label}: ${n} × ${eachMb} MB at once — RSS before / peak / growth (MB)`,
        `${c.before} / ${c.peak} / ${row.growthMb}`,
      );
      return { r, row };
    };
    const local = await through('local');
    const cfg = await api(db.base, token, '/api/blade-resource/oss/submit', {
      ossCode: 'bench',
      category: 2,
      endpoint: `http://127.0.0.1:${port}`,
      bucketName: 'bench',
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      maxSizeKb: (sizeMb + 10) * 1024,
    });
    await api(db.base, token, '/api/blade-resource/oss/enable', { id: cfg!.id });
    const s3r = await through('s3');
    return {
      sizeMb,
      local: local.r,
      s3: s3r.r,
      concurrent: { local: local.row, s3: s3r.row },
      aims: { rssGrowthUnder100: { local: local.row.growthMb < 100, s3: s3r.row.growthMb < 100 } },
    };
  } finally {
    if (server) await stop(server);
    await s3.close().catch(() => undefined);
    await db.close();
  }
}

runIfMain(import.meta.url, benchOss);
