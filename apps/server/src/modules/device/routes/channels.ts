import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deviceApi, fill, type Msg } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { nvrchannelinfo } from '@atrium/contract/resources/device/nvrchannelinfo';
import { writeAudit, type CrudService } from '../../../platform/crud.ts';
import { declared } from '../../../platform/declared.ts';
import { ok } from '../../../platform/envelope.ts';
import { requireAuth } from '../../../platform/guard.ts';
import type { Services } from '../../../platform/services.ts';
import { withTenant } from '../../../platform/tenant-db.ts';
import { visibleNvr } from '../cameras.ts';
import { linkConflict, MAX_CHANNELS, replaceChannels } from '../channels.ts';
import { deviceTexts as texts } from '../messages.ts';

const tags = [nvrchannelinfo.code];

/**
 * The NVR channels' own call, under their base (declared in the contract: `deviceApi.saveNvrChannelInfo`): one NVR's
 * channel list replaced in one transaction (docs/devices.md "Device records"); the NVR must be visible in the
 * caller's data scope on devices (`cameras`). Field errors name the channel fields by their labels.
 */
export const channelRoutes: FastifyPluginAsync<{
  s: Services;
  cameras: CrudService;
  channels: CrudService;
  labels?: Record<string, Msg>;
}> = async (plain, { s, cameras, channels: channelSvc, labels }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const route = declared(deviceApi.saveNvrChannelInfo, apiSchemas.device.saveNvrChannelInfo, tags, {
    prefix: plain.prefix,
    labels,
  });
  app.route({
    ...route,
    handler: async (req) => {
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
      // The whole list (up to MAX_CHANNELS), in pages of the list's largest size.
      const saved = await channelSvc.list(auth, { nvrDeviceId, size: '1000' });
      const records = [...saved.records];
      for (let page = 2; records.length < saved.total && page <= Math.ceil(MAX_CHANNELS / 1000); page++)
        records.push(...(await channelSvc.list(auth, { nvrDeviceId, size: '1000', current: String(page) })).records);
      return ok({ ...result, channels: records }, fill(texts.channelsSaved, result));
    },
  });
};
