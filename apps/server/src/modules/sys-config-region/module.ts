import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { encodeMsg, regionApi, type Msg } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import {
  CONFIG_DEFAULT_REGION,
  CONFIG_TYPE_DICT,
  configRequired,
  parseConfig,
  sysconfigregion as def,
  type ConfigObject,
} from '@atrium/contract/resources/system/sysconfigregion';
import type { Db } from '../../db/client.ts';
import { dict } from '../../db/schema/index.ts';
import { fromContract } from '../../platform/contract-route.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { liveByCodes, registerRegionUsage, type RegionRow } from '../region/index.ts';
import { sysConfigTexts as texts } from './messages.ts';
import { sysConfigRegion } from './table.ts';
import { rowsOf } from '../../db/rows.ts';

const fieldError = (field: string, text: Msg) => badRequest(text, [{ field, message: text }]);

/** Settings on the wire: an object (or its JSON text) of string keys and scalar values, checked by the contract. */
const configBody = z.any().transform((v, ctx) => {
  if (v === undefined || v === null || v === '') {
    ctx.addIssue({ code: 'custom', message: encodeMsg(configRequired) });
    return z.NEVER;
  }
  const parsed = parseConfig(v);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: encodeMsg(parsed.message) });
    return z.NEVER;
  }
  return parsed.config;
});

/** "浙江省 / 杭州市 / 西湖区": a region's path of names. */
const pathName = (r: RegionRow) =>
  [r.provinceName, r.cityName, r.districtName, r.townName, r.villageName].filter(Boolean).join(' / ') || r.name;

/** The codes from the tenant default down to the region: '00', then its ancestors, then itself. */
async function chainOf(tx: Db, code: string): Promise<string[] | null> {
  if (code === CONFIG_DEFAULT_REGION) return [CONFIG_DEFAULT_REGION];
  const r = (await liveByCodes(tx, [code])).get(code);
  if (!r) return null;
  const above = r.ancestors.split(',').filter((c) => c && c !== CONFIG_DEFAULT_REGION);
  return [CONFIG_DEFAULT_REGION, ...above, code];
}

/**
 * The effective settings of a region: the entries of the tenant default, the region's ancestors and the region
 * itself, merged key by key from the top down (the deeper region wins), with the region each key came from.
 */
export async function effectiveConfig(
  tx: Db,
  tenantId: string,
  chain: string[],
  sysType: string,
): Promise<{ config: ConfigObject; sources: Record<string, string> }> {
  const rows = await tx
    .select({ regionCode: sysConfigRegion.regionCode, config: sysConfigRegion.config })
    .from(sysConfigRegion)
    .where(
      and(
        eq(sysConfigRegion.tenantId, tenantId),
        eq(sysConfigRegion.sysType, sysType),
        inArray(sysConfigRegion.regionCode, chain),
        eq(sysConfigRegion.isDeleted, 0),
      ),
    );
  const byCode = new Map(rows.map((r) => [r.regionCode, r.config]));
  const config: ConfigObject = {};
  const sources: Record<string, string> = {};
  for (const code of chain) {
    for (const [k, v] of Object.entries(byCode.get(code) ?? {})) {
      config[k] = v;
      sources[k] = code;
    }
  }
  return { config, sources };
}

/**
 * 区域配置 (docs/product.md "Config by region", docs/system-api.md): the generated CRUD on the definition — the
 * region must exist ('00' = the tenant default), the type must be in the dictionary, the settings a flat object —
 * plus `getSysConfigByRegionType`, the effective settings of a region for every signed-in user of the tenant.
 */
export default defineModule((root, s) => {
  const binding = bindResource(def, sysConfigRegion, {
    async beforeSave({ tx, input, existing }) {
      const code = String(input.regionCode ?? existing?.regionCode ?? '');
      if (code !== CONFIG_DEFAULT_REGION && !(await liveByCodes(tx, [code])).has(code))
        throw fieldError('regionCode', texts.unknownRegion);
      const type = String(input.sysType ?? existing?.sysType ?? '');
      const [known] = await tx
        .select({ id: dict.id })
        .from(dict)
        .where(
          and(eq(dict.code, CONFIG_TYPE_DICT), eq(dict.dictKey, type), ne(dict.parentId, '0'), eq(dict.isDeleted, 0)),
        )
        .limit(1);
      if (!known) throw fieldError('sysType', def.fields.sysType.invalid);
    },
    async decorate({ tx, rows }) {
      const regions = await liveByCodes(
        tx,
        rows.map((r) => String(r.regionCode)).filter((c) => c !== CONFIG_DEFAULT_REGION),
      );
      return rows.map((r) => {
        const found = regions.get(String(r.regionCode));
        return { ...r, regionName: found ? pathName(found) : null };
      });
    },
    output: {
      config: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
    },
    // The settings are an object (the body below, the answer above), kept as JSON.
    columnTypes: { config: 'jsonb' },
  });
  // The settings travel as an object (the definition's text kind draws the field; the contract checks the object).
  binding.spec.body = binding.spec.body.extend({ config: configBody });
  resourceRoutes(root, s, binding);

  // A region used by any tenant's config entry is not removed. Regions are global but the entries are tenant rows
  // under row-level security, so the check asks a database function that looks across tenants and answers only a
  // region code (db/migrations: atrium_region_used_by_config; docs/system-api.md "Config by region").
  // A region used by any tenant's config entry is not removed. Regions are global but the entries are tenant rows
  // under row-level security, so the check asks a database function that looks across tenants and answers only a
  // region code (db/migrations: atrium_region_used_by_config; docs/system-api.md "Config by region").
  registerRegionUsage(s, async (tx, codes) => {
    const rows = await rowsOf<{ code: string | null }>(
      tx,
      sql`select atrium_region_used_by_config(${JSON.stringify(codes)}) as code`,
    );
    return rows[0]?.code ?? null;
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  // Any signed-in user of the tenant: the map application and the video module read their settings this way.
  app.route({
    ...fromContract(regionApi.configByRegionType, apiSchemas.region.configByRegionType, [def.code]),
    handler: async (req) => {
      const auth = requireAuth(req);
      const { regionCode, sysType } = req.query;
      const answer = await withTenant(s.db, auth.tenantId, async (tx) => {
        const chain = await chainOf(tx, regionCode);
        if (!chain) throw fieldError('regionCode', texts.unknownRegion);
        return { regionCode, sysType, chain, ...(await effectiveConfig(tx, auth.tenantId, chain, sysType)) };
      });
      return ok(answer);
    },
  });
});
