import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import type pg from 'pg';

export const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
export const md5 = (s: string) => createHash('md5').update(s).digest('hex');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export function spawnNode(args: string[], env: Record<string, string>, cwd: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      /* not up yet */
    }
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${url}`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([done, sleep(5000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export type Load = { rps: number; p50: number; p99: number; errors: number; non2xx: number };

export async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections = 50,
): Promise<Load> {
  const r = await autocannon({ url, headers, duration: seconds, connections, pipelining: 1 });
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

/** Logs in the way the console does: captcha (its code read from the harness file), then the token call. */
export async function captchaLogin(
  base: string,
  captchaFile: string,
  account = 'admin',
  password = 'admin',
  tenantId = '000000',
): Promise<string> {
  const c = (await (await fetch(`${base}/api/blade-auth/oauth/captcha`)).json()) as { key: string };
  let code = '';
  for (let i = 0; i < 100 && !code; i++) {
    const line = fs
      .readFileSync(captchaFile, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(c.key));
    code = line?.split(' ')[1] ?? '';
    if (!code) await sleep(20);
  }
  const q = new URLSearchParams({
    tenantId,
    username: account,
    password: md5(password),
    grant_type: 'captcha',
    scope: 'all',
    type: 'account',
  });
  const res = await fetch(`${base}/api/blade-auth/oauth/token?${q}`, {
    method: 'POST',
    headers: { authorization: BASIC, 'tenant-id': tenantId, 'captcha-key': c.key, 'captcha-code': code },
  });
  const body = (await res.json()) as { access_token?: string; error_description?: string };
  if (!body.access_token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** Drops a bench's throwaway database unless `keepVar` is '1' in the environment (then says so). */
export async function dropBenchDb(admin: pg.Client, dbName: string, keepVar: string): Promise<void> {
  if (process.env[keepVar] === '1') {
    console.log(`kept database ${dbName} (${keepVar}=1): drop it by hand`);
    return;
  }
  await admin
    .query(`drop database if exists ${dbName} with (force)`)
    .catch((e: Error) => console.error(`could not drop ${dbName}: ${e.message}`));
}

/** Runs a bench section when its file is the script node was started with, printing its figures. */
export function runIfMain(url: string, bench: (serverDir: string) => Promise<unknown>): void {
  if (!process.argv[1] || url !== pathToFileURL(path.resolve(process.argv[1])).href) return;
  const serverDir = path.resolve(path.dirname(fileURLToPath(url)), '..');
  bench(serverDir).then(
    (r) => {
      console.log(JSON.stringify(r, null, 2));
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
