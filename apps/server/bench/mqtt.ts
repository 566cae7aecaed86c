// Device access throughput (docs/devices.md "Device access", BENCH_ONLY=mqtt): a server on a throwaway PostgreSQL
// database, N devices created through the API, then the simulator (scripts/simulate.ts, a process of its own)
// publishes signed heartbeats at a rate — through the embedded broker, then through the machine's Mosquitto
// (ATRIUM_MQTT_URL=mqtt://127.0.0.1:1883). Measured: messages/s published and written, the time until every device's
// last_seen equals the ts of its last message, the server's CPU and RSS, and the server's own count of accepted
// messages against the published ones (no message lost).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { adminToken, ensureDevices, type RunResult, type SimDevice } from '../scripts/simulate.ts';
import { freePort, rssOf, sleep, spawnNode, stop, throwawayDb, type Log } from './lib.ts';

const env = (k: string, d: number) => Number(process.env[`BENCH_MQTT_${k}`] ?? d);

type Counters = {
  received: number;
  accepted: number;
  refused: Record<string, number>;
  written: number;
  events: number;
  rechecked: number;
  flushes: number;
  flushMs: number;
  flushMaxMs: number;
};

/** CPU seconds (user + system) a process used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Collects a server's log lines; answers the device access counters written at its stop. */
function watch(child: ChildProcess) {
  let buf = '';
  let final: Counters | undefined;
  let subscribed = false;
  child.stdout?.on('data', (b: Buffer) => {
    buf += b.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (!line.includes('device access')) continue;
      try {
        const j = JSON.parse(line) as { msg: string; final?: boolean; deviceAccess?: Counters };
        if (j.msg === 'device access: counters' && j.final) final = j.deviceAccess;
        if (j.msg === 'device access: subscribed at the MQTT broker') subscribed = true;
      } catch {
        /* not a JSON line */
      }
    }
  });
  return { final: () => final, subscribed: () => subscribed };
}

export async function benchMqtt(serverDir: string, print: Log) {
  const n = env('DEVICES', 1000);
  const rate = env('RATE', 6000);
  const seconds = env('SECONDS', 10);
  const publishers = env('PUBLISHERS', 2);
  const mosquitto = process.env.BENCH_MQTT_MOSQUITTO ?? 'mqtt://127.0.0.1:1883';
  const db = await throwawayDb('mqtt', 'BENCH_MQTT_HTTP_PORT', 'BENCH_KEEP_DB');
  const file = path.join(db.dir, 'devices.json');
  const captchaFile = path.join(db.dir, 'captchas.txt');
  const results: Record<string, unknown> = { devices: n, rate, seconds, publishers };
  try {
    const mqttPort = await freePort();
    const base = { ATRIUM_E2E_CAPTCHA_FILE: captchaFile, LOG_LEVEL: 'info' };
    let server = await db.start('test/captcha-file-server.ts', serverDir, {
      ...base,
      ATRIUM_MQTT_PORT: String(mqttPort),
    });
    let w = watch(server);
    const token = await adminToken({ api: db.base, tenant: '000000', user: 'admin', password: 'admin', captchaFile });
    const t0 = performance.now();
    const devices = await ensureDevices({
      api: db.base,
      token,
      count: n,
      file,
      region: '110101',
      type: '132',
      concurrency: 8,
    });
    print('mqtt: devices created through the API (s)', Math.round((performance.now() - t0) / 100) / 10);

    results.embedded = await measure('embedded broker', server, `mqtt://127.0.0.1:${mqttPort}`, devices);
    Object.assign(results.embedded as object, await stopAndCount(server, w.final));
    print('mqtt: embedded broker', results.embedded);

    const reachable = await new Promise<boolean>((resolve) => {
      const u = new URL(mosquitto);
      const s = net.connect(Number(u.port || 1883), u.hostname);
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (!reachable) {
      results.mosquitto = { skipped: `no broker answers at ${mosquitto}` };
      print('mqtt: Mosquitto', results.mosquitto);
    } else {
      server = await db.start('test/captcha-file-server.ts', serverDir, { ...base, ATRIUM_MQTT_URL: mosquitto });
      w = watch(server);
      for (let i = 0; i < 200 && !w.subscribed(); i++) await sleep(50);
      results.mosquitto = await measure('Mosquitto', server, mosquitto, devices);
      Object.assign(results.mosquitto as object, await stopAndCount(server, w.final));
      print('mqtt: Mosquitto (external broker)', results.mosquitto);
    }
    return results;
  } finally {
    await db.close();
  }

  async function stopAndCount(server: ChildProcess, final: () => Counters | undefined) {
    await stop(server);
    for (let i = 0; i < 40 && !final(); i++) await sleep(50);
    const c = final();
    return c
      ? {
          accepted: c.accepted,
          refused: c.refused,
          rowsWritten: c.written,
          rechecked: c.rechecked,
          flushes: c.flushes,
          flushMsTotal: c.flushMs,
          flushMaxMs: c.flushMaxMs,
        }
      : { accepted: 'no counters logged' };
  }

  async function measure(label: string, server: ChildProcess, url: string, devices: SimDevice[]) {
    const pid = server.pid!;
    const cpu0 = cpuSeconds(pid);
    // The publishers: processes of their own, each with its share of the devices and of the rate (one process of
    // the simulator is itself limited to a few thousand messages/s on a busy 2-core machine).
    const parts = Array.from({ length: publishers }, (_, k) => devices.filter((_, i) => i % publishers === k));
    const runs = await Promise.all(
      parts.map(async (mine, k) => {
        const partFile = path.join(db.dir, `devices-${k}.json`);
        const report = path.join(db.dir, `report-${label.replace(/\W/g, '')}-${k}.json`);
        fs.writeFileSync(partFile, JSON.stringify(mine));
        const sim = spawnNode(
          [
            'scripts/simulate.ts',
            ...['--file', partFile, '--devices', String(mine.length), '--url', url],
            ...['--rate', String(rate / publishers), '--seconds', String(seconds)],
            ...['--report', report, '--quiet'],
          ],
          {},
          serverDir,
        );
        let simErr = '';
        sim.stderr?.on('data', (b: Buffer) => (simErr += b.toString()));
        const code = await new Promise<number | null>((res) => sim.once('exit', res));
        if (code !== 0) throw new Error(`simulator failed: ${simErr.slice(-2000)}`);
        return JSON.parse(fs.readFileSync(report, 'utf8')) as RunResult;
      }),
    );
    const r: RunResult = {
      published: runs.reduce((n, x) => n + x.published, 0),
      seconds: Math.max(...runs.map((x) => x.seconds)),
      rate: runs.reduce((n, x) => n + x.rate, 0),
      lastTs: Object.assign({}, ...runs.map((x) => x.lastTs)) as Record<string, number>,
    };
    const published = performance.now();
    // Until every device's last_seen is the ts of its last message.
    const codes = Object.keys(r.lastTs);
    let matched = 0;
    const { default: pg } = await import('pg');
    const c = new pg.Client({ connectionString: db.dbUrl });
    await c.connect();
    try {
      for (let i = 0; i < 600; i++) {
        const rows = (
          await c.query<{ code: string; ms: string }>(
            `select device_code as code, (extract(epoch from last_seen) * 1000)::bigint as ms from camera_device
             where tenant_id = '000000' and is_deleted = 0 and device_code = any($1)`,
            [codes],
          )
        ).rows;
        matched = rows.filter((x) => Number(x.ms) === r.lastTs[x.code]).length;
        if (matched === codes.length) break;
        await sleep(50);
      }
      const drainMs = Math.round(performance.now() - published);
      const cpu = cpuSeconds(pid) - cpu0;
      // The server's busy window: the simulator's start-up (tsx) is left out.
      const wall = r.seconds + drainMs / 1000;
      const events = Number(
        (await c.query<{ n: string }>(`select count(*) as n from device_status_event where tenant_id = '000000'`))
          .rows[0].n,
      );
      const mem = rssOf(pid);
      return {
        published: r.published,
        publishedPerSecond: r.rate,
        // Written: every message of the run counted once its device's last_seen caught up.
        writtenPerSecond: Math.round(r.published / (r.seconds + drainMs / 1000)),
        drainAfterLastPublishMs: drainMs,
        devicesUpToDate: `${matched}/${codes.length}`,
        statusEvents: events,
        serverCpuSeconds: Math.round(cpu * 100) / 100,
        serverCpuPercentOfOneCore: Math.round((cpu / wall) * 100),
        // What one message costs the server (broker, checks, writes): the rate one core could take.
        serverCpuMicrosecondsPerMessage: Math.round((cpu / r.published) * 1e6),
        oneCoreCapacityPerSecond: Math.round(r.published / cpu),
        serverRssMb: mem.rss,
        serverPeakRssMb: mem.hwm,
      };
    } finally {
      await c.end();
    }
  }
}
