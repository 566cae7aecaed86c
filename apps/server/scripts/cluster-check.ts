// The check of scripts/cluster.sh (docs/cluster.md "The script"): through nginx, a login, then a list called until
// every server has answered it (the X-Atrium-Server header), each answer a 200 with the same rows.
// `scripts/cluster.sh check` runs it; its sign-in (`clusterToken`) is the cluster bench's too (bench/cluster.ts).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { adminToken } from './simulate.ts';

const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

/**
 * The platform administrator's token through the cluster's nginx: the password grant when the servers run with
 * captchas off (the script's default), the captcha grant with the code read from `<dir>/captchas.txt` when they run
 * the e2e harness (CLUSTER_E2E=1).
 */
export function clusterToken(base: string, dir: string): Promise<string> {
  const file = path.join(dir, 'captchas.txt');
  return adminToken({
    api: base,
    tenant: '000000',
    user: 'admin',
    password: process.env.ADMIN_PASSWORD ?? 'admin',
    captchaFile: fs.existsSync(file) ? file : undefined,
  });
}

async function main() {
  const base = process.env.CLUSTER_URL ?? 'http://127.0.0.1:8160';
  const dir = process.env.CLUSTER_DIR ?? '/tmp/atrium-cluster-8160';
  const servers = Number(process.env.CLUSTER_SERVERS ?? 2);
  const fail = (text: string) => {
    console.error(`[cluster check] FAILED: ${text}`);
    process.exit(1);
  };
  const token = await clusterToken(base, dir).catch((err: Error) => fail(err.message));
  console.log('[cluster check] login through nginx: ok');

  const seen = new Map<string, number>();
  let total: number | undefined;
  for (let i = 0; i < 20 && seen.size < servers; i++) {
    const res = await fetch(`${base}/api/blade-user/page?current=1&size=10`, {
      headers: { authorization: BASIC, 'blade-auth': `bearer ${token}` },
    });
    const server = res.headers.get('x-atrium-server') ?? '?';
    if (res.status !== 200) fail(`the user list answered ${res.status} from ${server}: ${await res.text()}`);
    const body = (await res.json()) as { data: { total: number } };
    if (total !== undefined && body.data.total !== total) fail(`the list's total differs between servers`);
    total = body.data.total;
    seen.set(server, (seen.get(server) ?? 0) + 1);
  }
  if (seen.size < servers) fail(`only ${[...seen.keys()].join(', ')} answered the list (expected ${servers} servers)`);
  console.log(
    `[cluster check] the user list (${total} users) answered by ${[...seen].map(([s, n]) => `${s} ×${n}`).join(', ')}`,
  );
  console.log('[cluster check] ok');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
