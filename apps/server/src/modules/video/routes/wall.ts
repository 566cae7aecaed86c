import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { video as api } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { fromContract } from '../../../platform/contract-route.ts';
import { ok } from '../../../platform/envelope.ts';
import { requireAuth } from '../../../platform/guard.ts';
import { videoTexts as texts } from '../messages.ts';
import { steerCamera, wallPage, type Video } from '../service.ts';
import { tags } from './schemas.ts';

/** The monitoring wall's calls (docs/devices.md "Live video"), under /api/video: the cameras of a region, PTZ. */
export const wallRoutes: FastifyPluginAsync<{ video: Video }> = async (plain, { video }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  // ——— The wall's list: cameras of a region and below, in the caller's scope ———
  app.route({
    ...fromContract(api.wall, apiSchemas.video.wall, tags, plain.prefix),
    handler: async (req) => ok(await wallPage(video.s, requireAuth(req), req.query)),
  });

  // ——— PTZ ———
  app.route({
    ...fromContract(api.ptz, apiSchemas.video.ptz, tags, plain.prefix),
    handler: async (req) => {
      const { deviceInfoId, command, speed } = req.query;
      await steerCamera(video, requireAuth(req), { cameraId: deviceInfoId, command, speed: Number(speed) });
      return ok(true, texts.ptzSent);
    },
  });
};
