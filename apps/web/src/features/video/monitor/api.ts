import { get } from '../../../api/http';

/** The live-video calls (docs/devices.md "Live video"). */

export type WallCamera = {
  id: string;
  name: string;
  deviceCode: string;
  deviceType: string;
  status: number;
  ptz: number;
  regionCode: string;
  regionName: string | null;
};

/** `live`: the low-latency path's WebSocket address (docs/devices.md "Low latency"), same token as `hls`. */
export type StreamAddress = { streamId: string; hls: string; live?: string; expiresAt: string; state: string };

/** Statuses this screen shows in the cell itself instead of a toast. */
const QUIET = { meta: { whitelist: [400, 403, 404, 429, 500] } };

export const wallCameras = (regionCode: string | undefined, size: number) =>
  get<{ records: WallCamera[]; total: number }>('/api/video/queryDeviceVideoByRegionCode', {
    ...(regionCode ? { regionCode } : {}),
    size,
  });

/** `wait: 'live'`: the server answers once the low-latency output has a key frame (sooner than the first segment). */
export const openStream = (deviceInfoId: string, wait: 'live' | 'hls' = 'hls') =>
  get<StreamAddress>('/api/video/queryDeviceVideo', { deviceInfoId, wait }, QUIET);

export const touchStream = (streamId: string) => get<StreamAddress>('/api/video/streamTouch', { streamId }, QUIET);

export const ptz = (deviceInfoId: string, command: string, speed: number) =>
  get<boolean>('/api/video/ptz', { deviceInfoId, command, speed });

/** The server's message of a refused call (the envelope's msg), if any. */
export function refusal(err: unknown): string | undefined {
  const msg = (err as { response?: { data?: { msg?: unknown } } })?.response?.data?.msg;
  return typeof msg === 'string' && msg ? msg : undefined;
}
