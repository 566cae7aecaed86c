import path from 'node:path';
import replyFrom from '@fastify/reply-from';
import fastifyWebsocket from '@fastify/websocket';
import { Gauge } from 'prom-client';
import { defineModule } from '../../platform/resource.ts';
import type { Services } from '../../platform/services.ts';
import { addOwnPort } from '../device/index.ts';
import { Owners } from './owners.ts';
import { PtzClients } from './ptz.ts';
import { playRoutes, tokenRoutes } from './routes/streams.ts';
import { wallRoutes } from './routes/wall.ts';
import { BASE, type Video } from './service.ts';
import { StreamManager } from './streams.ts';

/** The stream manager of each app (tests reach it to move time and count processes). */
export const managers = new WeakMap<Services, StreamManager>();
/** The cluster's stream owners of each app (tests make a server die without clean-up). */
export const ownersOf = new WeakMap<Services, Owners>();

/**
 * Live video (docs/devices.md "Live video"): start or join a camera's HLS stream, keep it alive by touches, serve
 * its playlist and segments to the holder of a signed token, list the cameras of a region for the wall, and steer
 * PTZ through ONVIF. The calls are plugins under /api/video (routes/); their rules and SQL are in service.ts.
 */
export default defineModule(async (root, s) => {
  const cfg = s.config.video;
  const manager = new StreamManager({
    dir: path.join(s.config.dataDir, 'video'),
    ffmpeg: cfg.ffmpeg,
    maxStreams: cfg.maxStreams,
    maxPerTenant: cfg.maxStreamsPerTenant,
    maxPerUser: cfg.maxStreamsPerUser,
    idleMs: cfg.idleSeconds * 1000,
    startMs: cfg.startSeconds * 1000,
    restarts: cfg.restarts,
    now: () => s.now().getTime(),
    log: root.log,
  });
  managers.set(s, manager);
  // Streams of this server by state, read when scraped (docs/deploy.md "Metrics").
  new Gauge({
    name: 'atrium_video_streams',
    help: 'Live video streams (ffmpeg processes) of this server, by state',
    labelNames: ['state'] as const,
    registers: [s.metrics],
    collect() {
      const by: Record<string, number> = { starting: 0, playing: 0, restarting: 0, failed: 0 };
      for (const x of manager.list()) by[x.state] = (by[x.state] ?? 0) + 1;
      for (const [state, n] of Object.entries(by)) this.set({ state }, n);
    },
  });
  new Gauge({
    name: 'atrium_video_streams_max',
    help: 'Streams this server runs at most (ATRIUM_MAX_STREAMS)',
    registers: [s.metrics],
    collect() {
      this.set(cfg.maxStreams);
    },
  });
  // Which server runs each camera's stream, cluster-wide (docs/cluster.md "Live video across servers").
  const owners = new Owners(s.db, manager, {
    leaseSeconds: cfg.leaseSeconds,
    idleSeconds: cfg.idleSeconds,
    name: s.config.serverName,
    url: cfg.internalUrl ?? `http://127.0.0.1:${s.config.port}`,
    log: root.log,
  });
  ownersOf.set(s, owners);
  const video: Video = { s, manager, owners, ptz: new PtzClients(), hlsKey: s.deriveKey('video-hls/v1') };
  root.addHook('onReady', async () => {
    await manager.start();
    owners.start();
  });
  // Every ffmpeg ends with the server (docs/server.md "Shutdown": the app's close hooks run before the database closes).
  root.addHook('onClose', async () => {
    await manager.close();
    await owners.close();
    video.ptz.clear();
  });
  // The port the server was bound to (a port the system picked): never a camera's (docs/devices.md).
  root.addHook('onListen', async () => {
    const a = root.server.address();
    if (a && typeof a === 'object') {
      addOwnPort(s, a.port);
      if (!cfg.internalUrl) owners.setUrl(`http://127.0.0.1:${a.port}`);
    }
  });

  // Calls of a stream another server runs are passed on to it (proxy.ts); the address is always a full URL.
  await root.register(replyFrom, { undici: { connections: 32, headersTimeout: 15_000, bodyTimeout: 15_000 } });
  await root.register(playRoutes, { prefix: BASE, video });
  // The low-latency path: fragmented MP4 over a WebSocket, for the holder of the stream's token.
  await root.register(fastifyWebsocket, { options: { maxPayload: 1024 } });
  await root.register(tokenRoutes, { prefix: BASE, video });
  await root.register(wallRoutes, { prefix: BASE, video });
});
