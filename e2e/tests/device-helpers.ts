import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { cameradevice } from '@atrium/contract/resources/device/cameradevice';
import { publish } from '../../apps/server/scripts/simulate.ts';
import { adminToken } from './helpers.ts';

/** Helpers of the device specs (video.spec.ts, devices-journey.spec.ts; docs/devices.md). */

export const TENANT = '000000';

/** Headers of the tenant's administrator signed in through the API (the captcha read from the harness file). */
export async function adminHeaders(request: APIRequestContext) {
  const token = await adminToken(request);
  return { 'Blade-Auth': `bearer ${token}`, Authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0' };
}

/**
 * The tenant lists loopback as a camera network (docs/devices.md "Camera addresses"): the test camera and the fake
 * ONVIF service listen on 127.0.0.1. Already listed (a second spec, a second language) is fine.
 */
export async function listLoopbackNetwork(request: APIRequestContext, headers: Record<string, string>) {
  const res = await request.post('/api/blade-device-access/cameraNetwork/submit', {
    headers,
    data: { name: 'loopback (e2e)', cidr: '127.0.0.0/8' },
  });
  if (!res.ok() && !/127\.0\.0\.0\/8|already|已登记/.test(await res.text())) throw new Error(await res.text());
}

/** A camera of the tenant saved through the camera API (RTSP at `streamUrl`, in 东城区); further fields as given. */
export async function saveRtspCamera(
  request: APIRequestContext,
  headers: Record<string, string>,
  camera: { deviceCode: string; name: string; streamUrl: string } & Record<string, unknown>,
) {
  const saved = await request.post(`${cameradevice.base}/${cameradevice.createPath}`, {
    headers,
    data: { deviceType: '131', regionCode: '110101', protocol: 'RTSP', ...camera },
  });
  if (!saved.ok()) throw new Error(`camera save: ${saved.status()} ${await saved.text()}`);
}

/**
 * ffmpeg processes (whichever binary the server picked) of the e2e server's stream folders (docs/devices.md): its data
 * dir's `video/`, or each cluster server's `s<i>/video/` (docs/cluster.md "The e2e suite through nginx").
 */
export function serverFfmpeg(): number {
  return Object.values(ffmpegByServer()).reduce((a, b) => a + b, 0);
}

/**
 * The same processes counted by the server whose stream folder they write: `s1`, `s2`… for a cluster server, `''` for
 * the one e2e server. Which server owns a stream is where its ffmpeg runs.
 */
export function ffmpegByServer(): Record<string, number> {
  const root = process.env.ATRIUM_E2E_DIR ?? '/nonexistent';
  const servers = fs.existsSync(root) ? fs.readdirSync(root).filter((d) => /^s\d+$/.test(d)) : [];
  const dirs = [['', root], ...servers.map((d) => [d, path.join(root, d)])].map(
    ([name, d]) => [name, path.join(d, 'video') + path.sep] as const,
  );
  const out: Record<string, number> = {};
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8');
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      if (path.basename(cmd.split('\0')[0]) !== 'ffmpeg' || /\) Z /.test(stat)) continue;
      const owner = dirs.find(([, d]) => cmd.includes(d));
      if (owner) out[owner[0]] = (out[owner[0]] ?? 0) + 1;
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/**
 * The device simulator's heartbeat (apps/server/scripts/simulate.ts, docs/devices.md "Simulator"): one signed
 * `online: true` message of the device, published to the e2e server's embedded broker (E2E_MQTT_PORT, set by
 * playwright.config.ts).
 */
export async function heartbeat(device: { code: string; secret: string; type?: string }) {
  const port = process.env.E2E_MQTT_PORT;
  if (!port) throw new Error('E2E_MQTT_PORT is not set (run through playwright.config.ts)');
  const r = await publish({
    url: `mqtt://127.0.0.1:${port}`,
    tenant: TENANT,
    devices: [device],
    rate: 10,
    count: 1,
    qos: 1,
  });
  if (r.published !== 1) throw new Error(`the simulator published ${r.published} messages`);
}
