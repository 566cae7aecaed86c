import { video, type AnswerOf, type PTZ_COMMANDS } from '@atrium/contract';
import { call } from '../../../api/call';

/** The live-video calls (docs/devices.md "Live video"). */

export type WallCamera = AnswerOf<typeof video.wall>['records'][number];

/** `live`: the low-latency path's WebSocket address (docs/devices.md "Low latency"), same token as `hls`. */
export type StreamAddress = AnswerOf<typeof video.play>;

/** Statuses this screen shows in the cell itself instead of a toast. */
const QUIET = { meta: { whitelist: [400, 403, 404, 429, 500, 502, 503, 504] } };

export const wallCameras = (regionCode: string | undefined, size: number) =>
  call(video.wall, { query: { ...(regionCode ? { regionCode } : {}), size } });

/** `wait: 'live'`: the server answers once the low-latency output has a key frame (sooner than the first segment). */
export const openStream = (deviceInfoId: string, wait: 'live' | 'hls' = 'hls') =>
  call(video.play, { query: { deviceInfoId, wait } }, QUIET);

export const touchStream = (streamId: string) => call(video.touch, { query: { streamId } }, QUIET);

export const ptz = (deviceInfoId: string, command: string, speed: number) =>
  call(video.ptz, { query: { deviceInfoId, command: command as (typeof PTZ_COMMANDS)[number], speed: String(speed) } });

/** The server's message of a refused call (the envelope's msg), if any. */
export function refusal(err: unknown): string | undefined {
  const msg = (err as { response?: { data?: { msg?: unknown } } })?.response?.data?.msg;
  return typeof msg === 'string' && msg ? msg : undefined;
}
