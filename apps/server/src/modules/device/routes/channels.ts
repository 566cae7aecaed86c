import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fill, type Msg } from '@atrium/contract';
import { nvrchannelinfo } from '@atrium/contract/resources/device/nvrchannelinfo';
import { idParam, writeAudit, type CrudService } from '../../../platform/crud.ts';
import { ok } from '../../../platform/envelope.ts';
import { requireAuth } from '../../../platform/guard.ts';
import type { Services } from '../../../platform/services.ts';
import { withTenant } from '../../../platform/tenant-db.ts';
import { visibleNvr } from '../cameras.ts';
import { linkConflict, replaceChannels } from '../channels.ts';
import { deviceTexts as texts } from '../messages.ts';

const channelBody = z.object({
  nvrDeviceId: idParam,
  channels: z
    .array(
      z.object({
        channelNo: z.coerce.number().int(),
        channelCode: z.string().trim().max(20).nullish(),
        name: z.string().trim().max(64).nullish(),
        cameraId: idParam.nullish(),
      }),
    )
    .max(1024),
});

/**
 * The NVR channels' own call, under their base: one NVR's channel list replaced in one transaction (docs/devices.md
 * "Device records"); the NVR must be visible in the caller's data scope on devices (`cameras`).
 */
export const channelRoutes: FastifyPluginAsync<{
  s: Services;
  cameras: CrudService;
  channels: CrudService;
  labels?: Record<string, Msg>;
}> = async (plain, { s, cameras, channels: channelSvc, labels }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/saveNvrChannelInfo',
    {
      config: { permission: `${nvrchannelinfo.code}_edit`, labels },
      schema: { tags: [nvrchannelinfo.code], body: channelBody },
    },
    async (req) => {
      const auth = requireAuth(req);
      const { nvrDeviceId, channels } = req.body;
      const scope = await cameras.scopeOf(auth);
      const list = channels.map((c) => ({
        channelNo: c.channelNo,
        channelCode: c.channelCode ?? null,
        name: c.name ?? null,
        ...(c.cameraId !== undefined ? { cameraId: c.cameraId } : {}),
      }));
      const result = await withTenant(s.db, auth.tenantId, async (tx) => {
        await visibleNvr(tx, auth.tenantId, nvrDeviceId, scope);
        const by = { userId: auth.userId, now: s.now(), cameraScope: scope };
        const done = await replaceChannels(tx, auth.tenantId, nvrDeviceId, list, by);
        const after = { ...done, channels: channels.length };
        await writeAudit(s, tx, auth, req.id, nvrchannelinfo.code, 'replace', nvrDeviceId, null, after);
        return done;
      }).catch((err: unknown) => {
        throw linkConflict(err) ?? err;
      });
      const saved = await channelSvc.list(auth, { nvrDeviceId, size: '1000' });
      return ok({ ...result, channels: saved.records }, fill(texts.channelsSaved, result));
    },
  );
};
