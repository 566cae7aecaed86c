import { createHash } from 'node:crypto';
import { Cam } from 'onvif';
import { PTZ_COMMANDS } from '@atrium/contract';

/** PTZ through ONVIF (docs/devices.md "Live video", "PTZ"): ContinuousMove with a velocity, Stop. */

export type PtzCommand = (typeof PTZ_COMMANDS)[number];

/** The velocity of a command at a speed 1–8 (ONVIF's generic spaces run −1…1). */
export function velocity(command: PtzCommand, speed: number): { x: number; y: number; zoom: number } {
  const v = Math.round((speed / 8) * 1000) / 1000;
  const x = /left/.test(command) ? -v : /right/.test(command) ? v : 0;
  const y = /^up/.test(command) ? v : /^down/.test(command) ? -v : 0;
  const zoom = command === 'zoomin' ? v : command === 'zoomout' ? -v : 0;
  return { x, y, zoom };
}

export type OnvifTarget = { url: string; user: string | null; password: string | null };

export class PtzError extends Error {
  constructor(readonly reason: 'unreachable' | 'refused' | 'noPtz') {
    super(reason);
  }
}

const TIMEOUT_MS = 5000;
/** A connected camera is kept this long after its last command (connecting costs four round trips). */
const KEEP_MS = 5 * 60_000;

type Entry = { cam: Promise<Cam>; used: number };

/** Connected ONVIF clients, by camera and credentials. */
export class PtzClients {
  private readonly cams = new Map<string, Entry>();

  private connect(t: OnvifTarget): Promise<Cam> {
    const u = new URL(t.url);
    return new Promise((resolve, reject) => {
      const cam = new Cam({
        hostname: u.hostname,
        port: u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80,
        path: u.pathname || '/onvif/device_service',
        useSecure: u.protocol === 'https:',
        username: t.user ?? undefined,
        password: t.password ?? undefined,
        timeout: TIMEOUT_MS,
        autoconnect: false,
        // The camera's own service addresses may name an address unreachable from here (NAT): keep the one given.
        preserveAddress: true,
      });
      cam.connect((err) => {
        if (err)
          return reject(
            new PtzError(/ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH|timeout/i.test(String(err)) ? 'unreachable' : 'refused'),
          );
        if (!cam.activeSource?.profileToken) return reject(new PtzError('noPtz'));
        resolve(cam);
      });
    });
  }

  private camFor(key: string, t: OnvifTarget): Promise<Cam> {
    const now = Date.now();
    for (const [k, e] of this.cams) if (now - e.used > KEEP_MS) this.cams.delete(k);
    let e = this.cams.get(key);
    if (!e) {
      e = { cam: this.connect(t), used: now };
      this.cams.set(key, e);
      e.cam.catch(() => this.cams.delete(key));
    }
    e.used = now;
    return e.cam;
  }

  /** Sends the command; a failed call forgets the connection so the next one connects again. */
  async send(cameraKey: string, t: OnvifTarget, command: PtzCommand, speed: number): Promise<void> {
    const key = `${cameraKey}:${createHash('sha256').update(`${t.url}\n${t.user}\n${t.password}`).digest('hex')}`;
    const cam = await this.camFor(key, t);
    const profileToken = cam.activeSource!.profileToken;
    await new Promise<void>((resolve, reject) => {
      const done = (err: Error | null) => {
        if (!err) return resolve();
        this.cams.delete(key);
        reject(
          new PtzError(/ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH|timeout/i.test(String(err)) ? 'unreachable' : 'refused'),
        );
      };
      if (command === 'stop') cam.stop({ profileToken, panTilt: true, zoom: true }, done);
      else cam.continuousMove({ profileToken, ...velocity(command, speed) }, done);
    });
  }

  clear() {
    this.cams.clear();
  }
}
