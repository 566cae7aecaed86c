import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { encodeMsg } from '@atrium/contract';
import { ok } from '../../../platform/envelope.ts';
import { requireAuth } from '../../../platform/guard.ts';
import { videoTexts as texts } from '../messages.ts';
import { hlsFile, playCamera, streamOfToken, touchStream, type Video } from '../service.ts';
import { CODE, idParam, tags } from './schemas.ts';

const streamId = z.string({ error: encodeMsg(texts.streamId) }).regex(/^[0-9a-f]{24}$/, encodeMsg(texts.streamId));
const tokenQuery = z.object({ token: z.string().max(1024).optional() });

/** Playing a camera (docs/devices.md "Live video"), under /api/video: start or join, and the heartbeat. */
export const playRoutes: FastifyPluginAsync<{ video: Video }> = async (plain, { video }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  // ——— Start or join ———
  const playQuery = z.object({
    deviceInfoId: idParam(texts.deviceId),
    // `live`: answer once the low-latency output has a key frame (sooner than the first HLS segment).
    wait: z.enum(['hls', 'live'], { error: encodeMsg(texts.wait) }).default('hls'),
  });
  app.get(
    '/queryDeviceVideo',
    { config: { permission: CODE }, schema: { tags, querystring: playQuery } },
    async (req) => ok(await playCamera(video, requireAuth(req), req.query.deviceInfoId, req.query.wait)),
  );

  // ——— Heartbeat: every 10 s per viewer; answers a fresh address (token) and the state ———
  const touchQuery = z.object({ streamId });
  app.get('/streamTouch', { config: { permission: CODE }, schema: { tags, querystring: touchQuery } }, async (req) =>
    ok(touchStream(video, requireAuth(req), req.query.streamId)),
  );
};

/**
 * The stream's files for the holder of its token, under /api/video, without Blade-Auth (a <video> sends none): the
 * low-latency WebSocket and the HLS playlist and segments. Registered after the WebSocket plugin (module.ts).
 */
export const tokenRoutes: FastifyPluginAsync<{ video: Video }> = async (plain, { video }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  // ——— The low-latency path: fragmented MP4 over a WebSocket, for the holder of the stream's token ———
  app.get(
    '/live/:streamId',
    {
      websocket: true,
      config: { auth: 'none' },
      schema: { tags, params: z.object({ streamId: z.string().max(64) }), querystring: tokenQuery },
      // Checked before the upgrade: a refusal is a plain HTTP answer (401/403/404), no socket is opened.
      preValidation: async (req: FastifyRequest) => {
        const { params, query } = req as FastifyRequest<{
          Params: { streamId: string };
          Querystring: { token?: string };
        }>;
        streamOfToken(video, params.streamId, query.token);
      },
    },
    (socket, req) => {
      const stream = video.manager.get(req.params.streamId);
      if (!stream) return socket.close(4004, 'gone');
      // The viewer sends nothing: anything it sends is ignored.
      stream.live.join(socket);
    },
  );

  // ——— The playlist and segments ———
  app.get(
    '/hls/:streamId/:file',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        params: z.object({ streamId: z.string().max(64), file: z.string().max(64) }),
        querystring: tokenQuery,
      },
    },
    async (req, reply) => {
      const { type, body } = await hlsFile(video, req.params.streamId, req.params.file, req.query.token);
      reply.header('cache-control', 'no-store');
      return reply.type(type).send(body);
    },
  );
};
