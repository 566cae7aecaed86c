import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { encodeMsg } from '@atrium/contract';
import { ok } from '../../../platform/envelope.ts';
import { requireAuth } from '../../../platform/guard.ts';
import { videoTexts as texts } from '../messages.ts';
import { PTZ_COMMANDS } from '../ptz.ts';
import { steerCamera, wallPage, type Video } from '../service.ts';
import { CODE, idParam, tags } from './schemas.ts';

const wallQuery = z.object({
  regionCode: z
    .string()
    .regex(/^(\d{2,12})?$/, encodeMsg(texts.regionCode))
    .optional(),
  current: z.coerce.number().int().min(1).max(1_000_000).default(1),
  size: z.coerce.number().int().min(1).max(500).default(100),
});

const ptzQuery = z.object({
  deviceInfoId: idParam(texts.deviceId),
  command: z.enum(PTZ_COMMANDS, { error: encodeMsg(texts.command) }),
  speed: z
    .string()
    .regex(/^[1-8]$/, encodeMsg(texts.speed))
    .default('4'),
});

/** The monitoring wall's calls (docs/devices.md "Live video"), under /api/video: the cameras of a region, PTZ. */
export const wallRoutes: FastifyPluginAsync<{ video: Video }> = async (plain, { video }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  // ——— The wall's list: cameras of a region and below, in the caller's scope ———
  app.get(
    '/queryDeviceVideoByRegionCode',
    { config: { permission: CODE }, schema: { tags, querystring: wallQuery } },
    async (req) => ok(await wallPage(video.s, requireAuth(req), req.query)),
  );

  // ——— PTZ ———
  app.get('/ptz', { config: { permission: CODE }, schema: { tags, querystring: ptzQuery } }, async (req) => {
    const { deviceInfoId, command, speed } = req.query;
    await steerCamera(video, requireAuth(req), { cameraId: deviceInfoId, command, speed: Number(speed) });
    return ok(true, texts.ptzSent);
  });
};
