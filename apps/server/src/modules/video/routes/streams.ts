import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { video as api } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { fromContract } from '../../../platform/contract-route.ts';
import { ok } from '../../../platform/envelope.ts';
import { requireAuth } from '../../../platform/guard.ts';
import { forwardHttp, pipeLive } from '../proxy.ts';
import { hlsFile, playCamera, streamOfToken, touchStream, VIA_HEADER, type Video } from '../service.ts';
import { tags } from './schemas.ts';

/** Passed on by another server of the cluster already (docs/cluster.md "Live video across servers"). */
const viaOwner = (req: FastifyRequest) => req.headers[VIA_HEADER] !== undefined;

/**
 * Playing a camera (docs/devices.md "Live video"), under /api/video: start or join, and the heartbeat; a camera
 * another living server runs is answered by that server (`forward`).
 */
export const playRoutes: FastifyPluginAsync<{ video: Video }> = async (plain, { video }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  // ——— Start or join ———
  app.route({
    ...fromContract(api.play, apiSchemas.video.play, tags, plain.prefix),
    handler: async (req, reply) => {
      const out = await playCamera(video, requireAuth(req), req.query.deviceInfoId, req.query.wait, viaOwner(req));
      if ('forward' in out) return forwardHttp(req, reply, out.forward, video.owners);
      return ok(out);
    },
  });

  // ——— Heartbeat: every 10 s per viewer; answers a fresh address (token) and the state ———
  app.route({
    ...fromContract(api.touch, apiSchemas.video.touch, tags, plain.prefix),
    handler: async (req, reply) => {
      const out = await touchStream(video, requireAuth(req), req.query.streamId, viaOwner(req));
      if ('forward' in out) return forwardHttp(req, reply, out.forward, video.owners);
      return ok(out);
    },
  });
};

/**
 * The stream's files for the holder of its token, under /api/video, without Blade-Auth (a <video> sends none): the
 * low-latency WebSocket and the HLS playlist and segments. Registered after the WebSocket plugin (module.ts).
 */
export const tokenRoutes: FastifyPluginAsync<{ video: Video }> = async (plain, { video }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  // ——— The low-latency path: fragmented MP4 over a WebSocket, for the holder of the stream's token ———
  const liveRoute = fromContract(api.live, apiSchemas.video.live, tags, plain.prefix);
  // Sockets of a stream another server runs: the owner's address, found before the upgrade.
  const owners = new WeakMap<FastifyRequest, string>();
  app.get(
    liveRoute.url,
    {
      websocket: true,
      config: liveRoute.config,
      schema: liveRoute.schema,
      // Checked before the upgrade: a refusal is a plain HTTP answer (401/403/404), no socket is opened.
      preValidation: async (req: FastifyRequest) => {
        const { params, query } = req as FastifyRequest<{
          Params: { streamId: string };
          Querystring: { token?: string };
        }>;
        const found = await streamOfToken(video, params.streamId, query.token, viaOwner(req));
        if ('forward' in found) owners.set(req, found.forward);
      },
    },
    (socket, req) => {
      const owner = owners.get(req);
      if (owner) return pipeLive(socket, `${owner.replace(/^http/, 'ws')}${req.url}`, owner, video.owners);
      const stream = video.manager.get(req.params.streamId);
      if (!stream) return socket.close(4004, 'gone');
      // The viewer sends nothing: anything it sends is ignored.
      stream.live.join(socket);
    },
  );

  // ——— The playlist and segments ———
  app.route({
    ...fromContract(api.hlsFile, apiSchemas.video.hlsFile, tags, plain.prefix),
    handler: async (req, reply) => {
      const out = await hlsFile(video, req.params.streamId, req.params.file, req.query.token, viaOwner(req));
      if ('forward' in out) return forwardHttp(req, reply, out.forward, video.owners);
      const { type, body } = out;
      reply.header('cache-control', 'no-store');
      return reply.type(type).send(body);
    },
  });
};
