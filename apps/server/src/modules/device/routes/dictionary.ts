import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deviceApi } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { configtemplate } from '@atrium/contract/resources/device/configtemplate';
import { dictioncary } from '@atrium/contract/resources/device/dictioncary';
import { fromContract } from '../../../platform/contract-route.ts';
import { ok } from '../../../platform/envelope.ts';
import { langOf } from '../../../platform/errors.ts';
import { requireAuth } from '../../../platform/guard.ts';
import type { Services } from '../../../platform/services.ts';
import { withTenant } from '../../../platform/tenant-db.ts';
import { dictList, templateOptions } from '../service.ts';

/** The device dictionary's own call, under its base: the pickers' flat list. */
export const dictionaryRoutes: FastifyPluginAsync<{ s: Services }> = async (plain, { s }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  // Every entry (or those under one parent) as a flat list, named in the caller's language: the pickers' source.
  app.route({
    ...fromContract(deviceApi.dictListAll, apiSchemas.device.dictListAll, [dictioncary.code], app.prefix),
    handler: async (req) => {
      const auth = requireAuth(req);
      const en = langOf(req.headers['accept-language']) === 'en';
      return ok(await withTenant(s.db, auth.tenantId, (tx) => dictList(tx, auth.tenantId, req.query, en)));
    },
  });
};

/** The config templates' own call, under their base: enabled templates for pickers. */
export const templateRoutes: FastifyPluginAsync<{ s: Services }> = async (plain, { s }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  // Enabled templates (of one device type) for pickers: the camera form and the item screen.
  app.route({
    ...fromContract(deviceApi.templateOptions, apiSchemas.device.templateOptions, [configtemplate.code], app.prefix),
    handler: async (req) => {
      const auth = requireAuth(req);
      const type = req.query.deviceType;
      return ok(await withTenant(s.db, auth.tenantId, (tx) => templateOptions(tx, auth.tenantId, type)));
    },
  });
};
