// Device simulator (docs/devices.md "Simulator"): makes sure N devices exist (created through the HTTP API, their
// secrets kept in a local file) and publishes signed status messages for them over MQTT at a rate, each device over
// its own connection authenticated with its credentials (docs/devices.md "Who may connect and publish").
//
//   npm run simulate -- --devices 20 [--tenant 000000] [--url mqtt://127.0.0.1:1884] [--rate R] [--seconds S]
//
// See `--help` for every option. Serves the demo, the e2e (one camera online) and the bench (bench/mqtt.ts).
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import mqtt from 'mqtt';
import { connectPassword, connectUsername, signedMessage } from '../src/modules/device-access/signing.ts';

export type SimDevice = { code: string; secret: string; type?: string };

const HELP = `npm run simulate -- [options]

  --devices N        devices to simulate (default 10)
  --tenant ID        tenant id (default 000000)
  --url URL          MQTT broker (default mqtt://127.0.0.1:1884, the embedded broker)
  --rate R           messages per second over all devices (default: one per device per --interval)
  --interval S       heartbeat interval in seconds when --rate is not given (default 60)
  --seconds S        stop after S seconds (default: run until Ctrl-C)
  --count M          stop after M messages
  --qos 0|1          publish QoS (default 0)
  --offline          on stop, every device reports online:false
  --channels K       NVRs (type 118) report K channels in their first message (default 0: cameras, type 132)
  --file PATH        devices file (JSON [{code, secret}]); default .atrium-devices-<tenant>.json in the current
                     directory; devices missing from it are created through the API and added to it
  --api URL          the server, to create devices (default http://127.0.0.1:8080)
  --user NAME        administrator account (default admin)
  --password PW      its password (default admin; or ATRIUM_SIM_PASSWORD)
  --token T          an access token instead of --user/--password
  --captcha-file F   the harness captcha file (test/captcha-file-server.ts) when the server asks for a captcha;
                     otherwise run the server with ATRIUM_CAPTCHA=off, or pass --token
  --region CODE      district of the created devices (default 110101)
  --report PATH      write {published, seconds, lastTs: {code: ts}} there at the end
  --quiet            no progress lines
`;

const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An access token of the administrator: a given one, or a login (with the harness captcha file if there is one). */
export async function adminToken(o: {
  api: string;
  tenant: string;
  user: string;
  password: string;
  token?: string;
  captchaFile?: string;
}): Promise<string> {
  if (o.token) return o.token;
  const headers: Record<string, string> = { authorization: BASIC, 'tenant-id': o.tenant };
  let grant = 'password';
  if (o.captchaFile) {
    const c = (await (await fetch(`${o.api}/api/blade-auth/oauth/captcha`)).json()) as { key: string };
    let code = '';
    for (let i = 0; i < 100 && !code; i++) {
      const line = fs
        .readFileSync(o.captchaFile, 'utf8')
        .split('\n')
        .find((l) => l.startsWith(c.key));
      code = line?.split(' ')[1] ?? '';
      if (!code) await sleep(20);
    }
    headers['captcha-key'] = c.key;
    headers['captcha-code'] = code;
    grant = 'captcha';
  }
  const q = new URLSearchParams({
    tenantId: o.tenant,
    username: o.user,
    password: md5(o.password),
    grant_type: grant,
    scope: 'all',
    type: 'account',
  });
  const res = await fetch(`${o.api}/api/blade-auth/oauth/token?${q}`, { method: 'POST', headers });
  const body = (await res.json()) as { access_token?: string; error_description?: string };
  if (!body.access_token)
    throw new Error(
      `login failed (${res.status}): ${body.error_description ?? JSON.stringify(body)} — a server asking for a captcha ` +
        'needs ATRIUM_CAPTCHA=off, --token or --captcha-file',
    );
  return body.access_token;
}

/** A GB/T 28181 code: district (6) + 00 + industry 00 + type + network 0 + serial (6). */
export const deviceCode = (region: string, type: string, serial: number) =>
  `${region}00` + `00${type}0${String(serial).padStart(6, '0')}`;

/**
 * The first `count` devices of `file`, creating the missing ones through `cameraDevice/save` (their secret is
 * answered once: it is written to the file at once). Codes already taken by devices not in the file are skipped.
 */
export async function ensureDevices(o: {
  api: string;
  token: string;
  count: number;
  file: string;
  region: string;
  type: string;
  log?: (s: string) => void;
  concurrency?: number;
}): Promise<SimDevice[]> {
  const have: SimDevice[] = fs.existsSync(o.file) ? (JSON.parse(fs.readFileSync(o.file, 'utf8')) as SimDevice[]) : [];
  const mine = have.filter((d) => (d.type ?? '132') === o.type);
  if (mine.length >= o.count) return mine.slice(0, o.count);
  const taken = new Set(have.map((d) => d.code));
  const headers = { authorization: BASIC, 'blade-auth': `bearer ${o.token}`, 'content-type': 'application/json' };
  let serial = 0;
  const next = () => {
    let c: string;
    do c = deviceCode(o.region, o.type, ++serial);
    while (taken.has(c));
    taken.add(c);
    return c;
  };
  const save = () => {
    fs.writeFileSync(o.file, JSON.stringify(have, null, 1), { mode: 0o600 });
  };
  let missing = o.count - mine.length;
  const worker = async () => {
    while (missing > 0) {
      missing--;
      for (let attempt = 0; ; attempt++) {
        const code = next();
        const res = await fetch(`${o.api}/api/blade-device-access/cameraDevice/save`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            deviceCode: code,
            name: `${o.type === '118' ? 'Sim NVR' : 'Sim camera'} ${code.slice(-6)}`,
            deviceType: o.type,
            regionCode: o.region,
          }),
        });
        const body = (await res.json()) as { success?: boolean; msg?: string; data?: { deviceSecret?: string } };
        if (res.ok && body.data?.deviceSecret) {
          const d = { code, secret: body.data.deviceSecret, type: o.type };
          have.push(d);
          mine.push(d);
          save();
          break;
        }
        // A code of a device the file does not know (an earlier run's, someone's own): take the next serial.
        if (res.status === 400 && attempt < 50 && /code|编码/i.test(body.msg ?? '')) continue;
        throw new Error(`creating device ${code} failed (${res.status}): ${body.msg ?? JSON.stringify(body)}`);
      }
      if (mine.length % 500 === 0) o.log?.(`${mine.length} devices`);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency ?? 4 }, worker));
  return mine.slice(0, o.count);
}

export type RunResult = { published: number; seconds: number; rate: number; lastTs: Record<string, number> };

/**
 * Publishes signed status messages for `devices`, round robin, at `rate` messages per second (each device's ts
 * strictly increasing), until `seconds` or `count` is reached or `signal` aborts. Each device has its own MQTT
 * connection: username `{tenant}/{code}`, password its connect password (docs/devices.md "Who may connect and
 * publish"); `connectConcurrency` of them are opened at a time.
 */
export async function publish(o: {
  url: string;
  tenant: string;
  devices: SimDevice[];
  rate: number;
  seconds?: number;
  count?: number;
  qos: 0 | 1;
  connectConcurrency?: number;
  offline?: boolean;
  channels?: number;
  signal?: AbortSignal;
  log?: (s: string) => void;
}): Promise<RunResult> {
  const n = o.devices.length;
  const clients: mqtt.MqttClient[] = new Array<mqtt.MqttClient>(n);
  let opened = 0;
  const opener = async () => {
    while (opened < n) {
      const k = opened++;
      const d = o.devices[k];
      clients[k] = await mqtt.connectAsync(o.url, {
        // At most 23 characters (MQTT 3.1.1).
        clientId: `sim-${process.pid}-${k}`,
        username: connectUsername(o.tenant, d.code),
        password: connectPassword(d.secret, o.tenant, d.code),
        reconnectPeriod: 1000,
      });
      if (opened % 500 === 0) o.log?.(`${opened} connections`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(n, o.connectConcurrency ?? 50) }, opener));
  } catch (err) {
    await Promise.all(clients.filter(Boolean).map((c) => c.endAsync(true)));
    throw new Error(
      `connecting as a device failed: ${(err as Error).message} — are the devices of this tenant and their secrets ` +
        'current (the devices file), and is this the server they belong to?',
    );
  }
  const lastTs: Record<string, number> = {};
  const sentChannels = new Set<string>();
  let published = 0;
  let i = 0;
  const send = (d: SimDevice, k: number, online: boolean) => {
    const ts = Math.max(Date.now(), (lastTs[d.code] ?? 0) + 1);
    lastTs[d.code] = ts;
    const channels =
      o.channels && d.type === '118' && !sentChannels.has(d.code)
        ? Array.from({ length: o.channels }, (_, c) => ({
            channelNo: c + 1,
            channelCode: `${d.code.slice(0, 10)}131${String(c + 1).padStart(7, '0')}`,
            name: `Channel ${c + 1}`,
          }))
        : undefined;
    if (channels) sentChannels.add(d.code);
    const m = signedMessage(d.secret, o.tenant, d.code, { online, ts, channels });
    clients[k].publish(m.topic, m.payload, { qos: o.qos });
    published++;
  };
  const t0 = performance.now();
  const until = o.seconds ? t0 + o.seconds * 1000 : Infinity;
  const limit = o.count ?? Infinity;
  let lastLog = t0;
  while (!o.signal?.aborted && performance.now() < until && published < limit) {
    const due = Math.min(limit, Math.floor(((performance.now() - t0) / 1000) * o.rate) + 1);
    while (published < due) {
      const k = i++ % n;
      send(o.devices[k], k, true);
    }
    // Let the sockets drain (the client buffers what the kernel does not take).
    await sleep(5);
    if (performance.now() - lastLog > 5000) {
      lastLog = performance.now();
      o.log?.(`${published} messages, ${Math.round(published / ((lastLog - t0) / 1000))}/s`);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  if (o.offline) o.devices.forEach((d, k) => send(d, k, false));
  await Promise.all(clients.map((c) => c.endAsync()));
  return { published, seconds, rate: Math.round(published / seconds), lastTs };
}

async function main() {
  const { values: a } = parseArgs({
    options: {
      devices: { type: 'string', default: '10' },
      tenant: { type: 'string', default: '000000' },
      url: { type: 'string', default: 'mqtt://127.0.0.1:1884' },
      rate: { type: 'string' },
      interval: { type: 'string', default: '60' },
      seconds: { type: 'string' },
      count: { type: 'string' },
      qos: { type: 'string', default: '0' },
      offline: { type: 'boolean', default: false },
      channels: { type: 'string', default: '0' },
      file: { type: 'string' },
      api: { type: 'string', default: 'http://127.0.0.1:8080' },
      user: { type: 'string', default: 'admin' },
      password: { type: 'string', default: process.env.ATRIUM_SIM_PASSWORD ?? 'admin' },
      token: { type: 'string' },
      'captcha-file': { type: 'string' },
      region: { type: 'string', default: '110101' },
      report: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (a.help) {
    console.log(HELP);
    return;
  }
  const log = a.quiet ? () => {} : (s: string) => console.log(`[simulate] ${s}`);
  const count = Number(a.devices);
  if (!Number.isInteger(count) || count < 1) throw new Error('--devices must be a positive integer');
  if (!/^\d{6,12}$/.test(a.tenant)) throw new Error('--tenant must be a tenant id (6 to 12 digits)');
  const file = path.resolve(a.file ?? `.atrium-devices-${a.tenant}.json`);
  const type = Number(a.channels) > 0 ? '118' : '132';
  let devices: SimDevice[];
  const known: SimDevice[] = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as SimDevice[]) : [];
  if (known.filter((d) => (d.type ?? '132') === type).length >= count) {
    devices = known.filter((d) => (d.type ?? '132') === type).slice(0, count);
  } else {
    const token = await adminToken({
      api: a.api,
      tenant: a.tenant,
      user: a.user,
      password: a.password,
      token: a.token,
      captchaFile: a['captcha-file'],
    });
    devices = await ensureDevices({ api: a.api, token, count, file, region: a.region, type, log });
    log(`${devices.length} devices in ${file}`);
  }
  const rate = a.rate ? Number(a.rate) : count / Number(a.interval);
  if (!(rate > 0)) throw new Error('--rate must be positive');
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort());
  process.once('SIGTERM', () => ac.abort());
  log(`publishing to ${a.url} at ${rate} messages/s for ${devices.length} devices (tenant ${a.tenant})`);
  const r = await publish({
    url: a.url,
    tenant: a.tenant,
    devices,
    rate,
    seconds: a.seconds ? Number(a.seconds) : undefined,
    count: a.count ? Number(a.count) : undefined,
    qos: a.qos === '1' ? 1 : 0,
    offline: a.offline,
    channels: Number(a.channels),
    signal: ac.signal,
    log,
  });
  log(`${r.published} messages in ${r.seconds.toFixed(1)} s (${r.rate}/s)`);
  if (a.report) fs.writeFileSync(a.report, JSON.stringify(r));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().then(
    () => process.exit(0),
    (err: Error) => {
      console.error(`[simulate] ${err.message}`);
      process.exit(1);
    },
  );
}
