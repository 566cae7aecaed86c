import { defineRoute } from '../route.ts';
import type * as S from './video.schemas.ts';

/** Live video (docs/devices.md "Live video"); schemas in video.schemas.ts. */

const CODE = 'video_monitor';

export const play = defineRoute<typeof S.play>()({
  method: 'GET',
  path: '/api/video/queryDeviceVideo',
  auth: 'user',
  permission: CODE,
  summary: 'Starts a camera or joins its stream; answers where it plays once the first segment (or key frame) exists',
});

export const touch = defineRoute<typeof S.touch>()({
  method: 'GET',
  path: '/api/video/streamTouch',
  auth: 'user',
  permission: CODE,
  summary: "A viewer's heartbeat (every 10 s): a fresh address and the stream's state",
});

export const wall = defineRoute<typeof S.wall>()({
  method: 'GET',
  path: '/api/video/queryDeviceVideoByRegionCode',
  auth: 'user',
  permission: CODE,
  summary: "The cameras of a region and below in the caller's scope, for the monitoring wall",
});

export const ptz = defineRoute<typeof S.ptz>()({
  method: 'GET',
  path: '/api/video/ptz',
  auth: 'user',
  permission: CODE,
  summary: 'A PTZ command to a camera (ONVIF)',
});

export const live = defineRoute<typeof S.live>()({
  method: 'GET',
  path: '/api/video/live/:streamId',
  auth: 'none',
  wire: 'stream',
  summary: "The low-latency path: fragmented MP4 over a WebSocket, for the holder of the stream's token",
});

export const hlsFile = defineRoute<typeof S.hlsFile>()({
  method: 'GET',
  path: '/api/video/hls/:streamId/:file',
  auth: 'none',
  wire: 'stream',
  summary: "The HLS playlist and segments, for the holder of the stream's token",
});
