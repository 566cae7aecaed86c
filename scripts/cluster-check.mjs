// The check of scripts/cluster.sh (docs/cluster.md "The script"): through nginx, a login, then a list called until
// every server has answered it (the X-Atrium-Server header), each answer a 200 with the same rows.
import { createHash } from 'node:crypto';

const base = process.env.CLUSTER_URL ?? 'http://127.0.0.1:8160';
const servers = Number(process.env.CLUSTER_SERVERS ?? 2);
const md5 = (s) => createHash('md5').update(s).digest('hex');
const basic = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const fail = (text) => {
  console.error(`[cluster check] FAILED: ${text}`);
  process.exit(1);
};

const query = new URLSearchParams({
  tenantId: '000000',
  username: 'admin',
  password: md5(process.env.ADMIN_PASSWORD ?? 'admin'),
  grant_type: 'password',
  scope: 'all',
  type: 'account',
});
const login = await fetch(`${base}/api/blade-auth/oauth/token?${query}`, {
  method: 'POST',
  headers: { authorization: basic, 'tenant-id': '000000' },
});
if (login.status !== 200) fail(`login answered ${login.status}: ${await login.text()}`);
const token = (await login.json()).access_token;
console.log(`[cluster check] login through nginx: 200 from ${login.headers.get('x-atrium-server')}`);

const seen = new Map();
let total;
for (let i = 0; i < 20 && seen.size < servers; i++) {
  const res = await fetch(`${base}/api/blade-user/page?current=1&size=10`, {
    headers: { authorization: basic, 'blade-auth': `bearer ${token}` },
  });
  const server = res.headers.get('x-atrium-server');
  if (res.status !== 200) fail(`the user list answered ${res.status} from ${server}: ${await res.text()}`);
  const body = await res.json();
  if (total !== undefined && body.data.total !== total) fail(`the list's total differs between servers`);
  total = body.data.total;
  seen.set(server, (seen.get(server) ?? 0) + 1);
}
if (seen.size < servers) fail(`only ${[...seen.keys()].join(', ')} answered the list (expected ${servers} servers)`);
console.log(
  `[cluster check] the user list (${total} users) answered by ${[...seen].map(([s, n]) => `${s} ×${n}`).join(', ')}`,
);
console.log('[cluster check] ok');
