import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deviceApi, type Msg } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { cameradevice } from '@atrium/contract/resources/device/cameradevice';
import { rawQuery, type CrudService } from '../../../platform/crud.ts';
import { fromContract } from '../../../platform/contract-route.ts';
import { ok } from '../../../platform/envelope.ts';
import { requireAuth } from '../../../platform/guard.ts';
import type { Services } from '../../../platform/services.ts';
import { withTenant } from '../../../platform/tenant-db.ts';
import { subDomainOptions } from '../cameras.ts';
import { configFields } from '../service.ts';

const tags = [cameradevice.code];

/** The cameras' own calls, under their base: the spec's list, sub-domain options, a template's config fields. */
export const cameraRoutes: FastifyPluginAsync<{
  s: Services;
  cameras: CrudService;
  labels?: Record<string, Msg>;
}> = async (plain, { s, cameras, labels }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  // The spec's list: the same filters and data scope as pageList, answered as an array (pickers), at most 1000.
  app.get('/list', { config: { permission: cameradevice.code, labels }, schema: { tags } }, async (req) => {
    const query = rawQuery(req);
    const size = Math.min(Math.max(Number(query.size) || 1000, 1), 1000);
    const page = await cameras.list(requireAuth(req), { ...query, current: '1', size: String(size) });
    return ok(page.records);
  });

  // Running sub-domains a device may bind to (of one client), within the caller's data scope on devices.
  app.route({
    ...fromContract(deviceApi.subDomainOptions, apiSchemas.device.subDomainOptions, tags, app.prefix),
    handler: async (req) => {
      const auth = requireAuth(req);
      const clientId = auth.clientInfoId ?? req.query.clientId;
      return ok(await withTenant(s.db, auth.tenantId, (tx) => subDomainOptions(tx, auth.tenantId, clientId)));
    },
  });

  // A template's items (the camera form's config fields).
  app.route({
    ...fromContract(deviceApi.configItems, apiSchemas.device.configItems, tags, app.prefix),
    handler: async (req) => {
      const auth = requireAuth(req);
      const id = req.query.templateId;
      return ok(await withTenant(s.db, auth.tenantId, (tx) => configFields(tx, auth.tenantId, id)));
    },
  });
};
