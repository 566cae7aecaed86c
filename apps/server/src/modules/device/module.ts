import { randomBytes } from 'node:crypto';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq, inArray, ne, notInArray, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { fill, msg, type Msg } from '@atrium/contract';
import { CLIENT_STATUS } from '@atrium/contract/resources/customer/clientinfo';
import { SUBDOMAIN_STATUS } from '@atrium/contract/resources/subdomain/subdomain_list';
import { cameradevice, DEVICE_STATUS, DEVICE_TYPES } from '@atrium/contract/resources/device/cameradevice';
import { cameranetwork } from '@atrium/contract/resources/device/cameranetwork';
import { configtemplate } from '@atrium/contract/resources/device/configtemplate';
import { configtemplateitem } from '@atrium/contract/resources/device/configtemplateitem';
import { dictioncary } from '@atrium/contract/resources/device/dictioncary';
import { nvrchannelinfo } from '@atrium/contract/resources/device/nvrchannelinfo';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { idParam, rawQuery, writeAudit, type Row } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { AppError, badRequest, langOf, notFound } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { BLACK_TYPE, isBlocked, normaliseDeviceCode } from '../blacklist/index.ts';
import { namesByIds } from '../../db/names.ts';
import { clientScopeSql, clientInfo } from '../client/index.ts';
import { seal, unseal } from '../outbox/index.ts';
import { bindDevice, unbindDevice, subDomain } from '../subdomain/index.ts';
import { deviceTotalOf } from '../statistics/index.ts';
import {
  checkLinkedCameras,
  LINK_INDEX,
  linkConflict,
  lockNvrs,
  replaceChannels,
  setChannelCamera,
} from './channels.ts';
import { cameraNetworksOf, checkAddress, checkCameraUrl, normaliseCidr, refusalText } from './address.ts';
import { englishTreeTitles } from './titles.ts';
import { deviceTexts as texts } from './messages.ts';
import {
  checkDeviceIdentity,
  checkItemDefinition,
  checkMakerModel,
  deviceTypeEntry,
  effectiveConfig,
  parseConfigValues,
  splitCredentials,
  streamScheme,
  urlError,
  type ConfigItem,
} from './rules.ts';
import { cameraDevice, cameraNetwork, configTemplate, configTemplateItem, deviceDict, nvrChannel } from './table.ts';

/**
 * Device records (docs/devices.md "Device records"): the device dictionary, config templates and their items,
 * cameras / NVRs and NVR channels, bound from their definitions, with the rules of a GB/T 28181 code, sealed
 * credentials, the device's MQTT secret answered once, config values checked against their template, and the
 * replacement of an NVR's channel list.
 */

const live = <T extends { isDeleted: unknown; tenantId: unknown }>(t: T, tenantId: string) =>
  and(eq(t.tenantId as never, tenantId), eq(t.isDeleted as never, 0));
const fieldError = (field: string, m: Msg) => badRequest(m, [{ field, message: m }]);

type CameraRow = typeof cameraDevice.$inferSelect;
type TemplateItems = Map<string, ConfigItem[]>;

/** The items of some templates, by template id. */
async function itemsOf(tx: Db, tenantId: string, templateIds: string[]): Promise<TemplateItems> {
  const out: TemplateItems = new Map();
  if (!templateIds.length) return out;
  const rows = await tx
    .select()
    .from(configTemplateItem)
    .where(and(live(configTemplateItem, tenantId), inArray(configTemplateItem.templateId, templateIds)))
    .orderBy(asc(configTemplateItem.sort), asc(configTemplateItem.id));
  for (const r of rows) out.set(r.templateId, [...(out.get(r.templateId) ?? []), r]);
  return out;
}

/** The answered form of a device's config: the values as JSON text, and the effective config. */
function configShape(row: Record<string, unknown>, items: TemplateItems) {
  const values = row.configValues as Record<string, unknown> | string | null | undefined;
  const parsed = typeof values === 'string' ? (JSON.parse(values) as Record<string, unknown>) : (values ?? null);
  const templateId = row.configTemplateId ? String(row.configTemplateId) : null;
  return {
    configValues: parsed ? JSON.stringify(parsed) : null,
    effectiveConfig: templateId ? effectiveConfig(items.get(templateId) ?? [], parsed, false) : null,
  };
}

export default defineModule(async (root, s) => {
  const app = root.withTypeProvider<ZodTypeProvider>();

  // ——— Device dictionary ———
  const dictBinding = bindResource(dictioncary, deviceDict, {
    async beforeSave({ tx, auth, input, existing }) {
      if (existing) return;
      const parentId = String(input.parentId ?? '0') || '0';
      if (parentId === '0') {
        if (!/^\d{3}$/.test(String(input.code ?? ''))) throw fieldError('code', texts.dictTypeCode);
        return { parentId: '0' };
      }
      // Three levels: a parent may itself be below the root, but not two levels down.
      const [parent] = await tx
        .select({ parentId: deviceDict.parentId })
        .from(deviceDict)
        .where(and(live(deviceDict, auth.tenantId), eq(deviceDict.id, parentId)));
      if (parent && parent.parentId !== '0') {
        const [grand] = await tx
          .select({ parentId: deviceDict.parentId })
          .from(deviceDict)
          .where(and(eq(deviceDict.tenantId, auth.tenantId), eq(deviceDict.id, parent.parentId)));
        if (grand && grand.parentId !== '0') throw fieldError('parentId', texts.dictTooDeep);
      }
    },
    async beforeRemove(tx, _ids, auth, rows) {
      for (const r of rows)
        if (await dictEntryInUse(tx, auth.tenantId, r))
          throw badRequest(fill(texts.dictInUse, { name: String(r.name) }));
    },
  });
  englishTreeTitles(root, s);
  const dictSvc = resourceRoutes(root, s, dictBinding);
  void dictSvc;

  /** Whether devices or templates use a dictionary entry's code at its level. */
  async function dictEntryInUse(tx: Db, tenantId: string, r: Row): Promise<boolean> {
    const code = String(r.code);
    const path: Row[] = [r];
    while (String(path[0].parentId) !== '0' && path.length < 4) {
      const [p] = await tx
        .select()
        .from(deviceDict)
        .where(and(eq(deviceDict.tenantId, tenantId), eq(deviceDict.id, String(path[0].parentId))));
      if (!p) break;
      path.unshift(p as unknown as Row);
    }
    const [type, maker] = path.map((p) => String(p.code));
    const devices = (where: SQL | undefined) =>
      tx
        .select({ id: cameraDevice.id })
        .from(cameraDevice)
        .where(and(live(cameraDevice, tenantId), where))
        .limit(1);
    const templates = (where: SQL | undefined) =>
      tx
        .select({ id: configTemplate.id })
        .from(configTemplate)
        .where(and(live(configTemplate, tenantId), where))
        .limit(1);
    if (path.length === 1)
      return (
        (await devices(eq(cameraDevice.deviceType, code))).length > 0 ||
        (await templates(eq(configTemplate.deviceType, code))).length > 0
      );
    if (path.length === 2)
      return (
        (await devices(and(eq(cameraDevice.deviceType, type), eq(cameraDevice.manufacturer, code)))).length > 0 ||
        (await templates(and(eq(configTemplate.deviceType, type), eq(configTemplate.manufacturer, code)))).length > 0
      );
    return (
      (
        await devices(
          and(eq(cameraDevice.deviceType, type), eq(cameraDevice.manufacturer, maker), eq(cameraDevice.model, code)),
        )
      ).length > 0
    );
  }

  // Every entry (or those under one parent) as a flat list, named in the caller's language: the pickers' source.
  app.get(
    `${dictioncary.base}/listAll`,
    {
      config: { permission: ['dictioncary', ...(dictioncary.tree?.readAlso ?? [])] },
      schema: {
        tags: ['dictioncary'],
        querystring: z.object({
          parentId: idParam.optional(),
          deviceType: z
            .string()
            .regex(/^\d{3}$/)
            .optional(),
        }),
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const en = langOf(req.headers['accept-language']) === 'en';
      const rows = await withTenant(s.db, auth.tenantId, async (tx) => {
        let parent = req.query.parentId;
        if (req.query.deviceType) {
          const entry = await deviceTypeEntry(tx, auth.tenantId, req.query.deviceType);
          if (!entry) return [];
          parent = entry.id;
        }
        return tx
          .select()
          .from(deviceDict)
          .where(and(live(deviceDict, auth.tenantId), parent ? eq(deviceDict.parentId, parent) : undefined))
          .orderBy(asc(deviceDict.parentId), asc(deviceDict.sort), asc(deviceDict.id))
          .limit(5000);
      });
      return ok(
        rows.map((r) => ({
          id: r.id,
          parentId: r.parentId,
          code: r.code,
          name: en && r.nameEn ? r.nameEn : r.name,
          nameEn: r.nameEn,
          sort: r.sort,
        })),
      );
    },
  );

  // ——— Config templates and items ———
  const templateBinding = bindResource(configtemplate, configTemplate, {
    async beforeSave({ tx, auth, input }) {
      const type = String(input.deviceType);
      const entry = await deviceTypeEntry(tx, auth.tenantId, type);
      if (!entry) throw fieldError('deviceType', fill(texts.typeUnknown, { type }));
      await checkMakerModel(tx, auth.tenantId, entry.id, (input.manufacturer as string | null | undefined) || null);
    },
    async beforeRemove(tx, ids, auth, rows) {
      const [used] = await tx
        .select({ templateId: cameraDevice.configTemplateId })
        .from(cameraDevice)
        .where(and(live(cameraDevice, auth.tenantId), inArray(cameraDevice.configTemplateId, ids)))
        .limit(1);
      if (used) {
        const name = rows.find((r) => r.id === String(used.templateId))?.name;
        throw badRequest(fill(texts.templateInUse, { name: String(name ?? '') }));
      }
      // A template's items go with it.
      await tx
        .update(configTemplateItem)
        .set({ isDeleted: 1, updateUser: auth.userId, updateTime: s.now() })
        .where(and(live(configTemplateItem, auth.tenantId), inArray(configTemplateItem.templateId, ids)));
    },
  });
  resourceRoutes(root, s, templateBinding);

  // Enabled templates (of one device type) for pickers: the camera form and the item screen.
  app.get(
    `${configtemplate.base}/options`,
    {
      config: { permission: ['configtemplate', 'configtemplateitem', 'cameradevice'] },
      schema: {
        tags: ['configtemplate'],
        querystring: z.object({
          deviceType: z
            .string()
            .regex(/^\d{3}$/)
            .optional(),
        }),
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const rows = await withTenant(s.db, auth.tenantId, (tx) =>
        tx
          .select({
            id: configTemplate.id,
            name: configTemplate.name,
            deviceType: configTemplate.deviceType,
            manufacturer: configTemplate.manufacturer,
          })
          .from(configTemplate)
          .where(
            and(
              live(configTemplate, auth.tenantId),
              eq(configTemplate.status, 1),
              req.query.deviceType ? eq(configTemplate.deviceType, req.query.deviceType) : undefined,
            ),
          )
          .orderBy(asc(configTemplate.name))
          .limit(1000),
      );
      return ok(rows);
    },
  );

  const itemBinding = bindResource(configtemplateitem, configTemplateItem, {
    async beforeSave({ tx, auth, input, existing }) {
      const templateId = existing ? String(existing.templateId) : String(input.templateId);
      const [t] = await tx
        .select({ id: configTemplate.id })
        .from(configTemplate)
        .where(and(live(configTemplate, auth.tenantId), eq(configTemplate.id, templateId)));
      if (!t) throw fieldError('templateId', msg('refNotFound', { label: configtemplateitem.fields.templateId.label }));
      const merged = { ...(existing ?? {}), ...input } as Record<string, unknown>;
      checkItemDefinition({
        itemKey: String(merged.itemKey),
        itemName: String(merged.itemName),
        valueType: String(merged.valueType),
        defaultValue: (merged.defaultValue as string | null) ?? null,
        options: (merged.options as string | null) ?? null,
        min: (merged.min as number | null) ?? null,
        max: (merged.max as number | null) ?? null,
        required: Number(merged.required ?? 0),
      });
    },
    async decorate(tx, auth, rows) {
      const byId = await namesByIds(
        tx,
        auth.tenantId,
        configTemplate,
        rows.map((r) => r.templateId),
      );
      return rows.map((r) => ({ ...r, templateName: byId.get(String(r.templateId)) ?? null }));
    },
  });
  resourceRoutes(root, s, itemBinding);

  // ——— Camera networks: the private ranges where the tenant's cameras may be (docs/devices.md "Camera addresses") ———
  const networkBinding = bindResource(cameranetwork, cameraNetwork, {
    async beforeSave({ input }) {
      if (!('cidr' in input)) return;
      const cidr = normaliseCidr(String(input.cidr ?? ''));
      if (!cidr) throw fieldError('cidr', texts.cidrBad);
      // A range that is never a camera's (link-local, multicast, 0.0.0.0/…) is not listed: it would allow nothing.
      if (checkAddress(cidr.split('/')[0], [cidr])?.reason === 'forbidden') throw fieldError('cidr', texts.cidrNever);
      return { cidr };
    },
  });
  resourceRoutes(root, s, networkBinding);

  /**
   * The stream and ONVIF addresses a save sends, checked before its transaction opens (DNS and the tenant's
   * networks, docs/devices.md "Camera addresses"): staff read why, a client account one text for every refusal.
   */
  async function checkSavedAddresses(auth: AuthContext, input: Record<string, unknown>) {
    const urls: [string, string][] = [];
    for (const field of ['streamUrl', 'onvifUrl'] as const) {
      const raw = input[field] == null ? '' : String(input[field]).trim();
      if (!raw) continue;
      const parts = splitCredentials(raw);
      // A malformed URL or scheme is the save's own 400 (cameraBeforeSave).
      if (parts && (field === 'streamUrl' ? streamScheme(parts.url) : /^https?:$/.test(parts.url.protocol)))
        urls.push([field, raw]);
    }
    if (!urls.length) return;
    const networks = await cameraNetworksOf(s, auth.tenantId);
    for (const [field, raw] of urls) {
      const checked = await checkCameraUrl(s, auth.tenantId, raw, networks);
      if (!checked.ok) throw urlError(field, auth.clientInfoId ? texts.addressNotAllowed : refusalText(checked));
    }
  }

  // ——— Cameras and NVRs ———
  const cameraBinding = bindResource(cameradevice, cameraDevice, {
    // An unfiltered list of the tenant or of a region takes its total from the statistics counters, not a count of
    // a province's rows on every request (docs/devices.md "Camera list").
    total: deviceTotalOf,
    output: {
      // The device's MQTT secret, in the answer to `save` only (never stored in the clear, never answered again).
      deviceSecret: { type: 'string' },
      effectiveConfig: { type: ['object', 'null'], additionalProperties: true },
      configValues: { type: ['string', 'null'] },
    },
    async prepareSave({ auth, input, id }) {
      // The blacklist reads through its cache (its own transaction): before the save's transaction opens.
      if (
        !id &&
        (await isBlocked(s, auth.tenantId, BLACK_TYPE.deviceCode, normaliseDeviceCode(String(input.deviceCode))))
      )
        throw fieldError('deviceCode', texts.blocked);
      await checkSavedAddresses(auth, input);
      // The caller's data scope on devices, read on the clients table: the owner named must be a client it sees.
      const clientScope = await clientScopeSql(s, auth, cameradevice.code);
      if (id) return { clientScope };
      const secret = randomBytes(32).toString('base64url');
      return { clientScope, secret, secretSealed: seal(s, secret) };
    },
    async beforeSave({ tx, auth, input, existing, scope, state }) {
      return cameraBeforeSave(s, tx, auth, input, existing as CameraRow | null, scope, state);
    },
    // Never outside the caller's data scope (the CRUD factory's check of every save, platform/crud.ts): a region
    // admin registers in its region, a client account its own.
    outsideScope: texts.outsideScope,
    async afterSave({ tx, auth, row, existing, state }) {
      const items = await itemsOf(tx, auth.tenantId, row.configTemplateId ? [String(row.configTemplateId)] : []);
      const clientName = await clientNameOf(tx, auth.tenantId, row.clientId as string | null);
      return {
        ...configShape(row, items),
        clientName,
        ...(existing ? {} : { deviceSecret: state.secret as string }),
      };
    },
    async beforeRemove(tx, ids, auth, rows) {
      const nvrs = rows.filter((r) => r.deviceType === DEVICE_TYPES.nvr).map((r) => r.id);
      // The NVRs removed are locked first: a camera naming one meanwhile waits (its key-share lock), then finds it gone.
      await lockNvrs(tx, auth.tenantId, nvrs, 'update');
      // The NVRs of removed cameras: their channels lose the link (the triggers of migration 0032).
      await lockNvrs(
        tx,
        auth.tenantId,
        rows.map((r) => r.nvrId as string | null).filter((id) => id && !nvrs.includes(id)),
        'key share',
      );
      if (nvrs.length) {
        const [channel] = await tx
          .select({ nvr: nvrChannel.nvrDeviceId })
          .from(nvrChannel)
          .where(and(live(nvrChannel, auth.tenantId), inArray(nvrChannel.nvrDeviceId, nvrs)))
          .limit(1);
        const [behind] = await tx
          .select({ nvr: cameraDevice.nvrId })
          .from(cameraDevice)
          .where(
            and(live(cameraDevice, auth.tenantId), inArray(cameraDevice.nvrId, nvrs), notInArray(cameraDevice.id, ids)),
          )
          .limit(1);
        const hit = channel?.nvr ?? behind?.nvr;
        if (hit) throw badRequest(fill(texts.nvrHasChildren, { name: String(rows.find((r) => r.id === hit)?.name) }));
      }
      // Bound sub-domains count one device fewer. (Channels showing a removed camera lose the link by trigger.)
      for (const r of rows) if (r.subDomainId) await unbindDevice(tx, auth.tenantId, String(r.subDomainId));
    },
    async decorate(tx, auth, rows) {
      const templateIds = [
        ...new Set(
          rows
            .map((r) => r.configTemplateId)
            .filter(Boolean)
            .map(String),
        ),
      ];
      const items = await itemsOf(tx, auth.tenantId, templateIds);
      const byId = await namesByIds(
        tx,
        auth.tenantId,
        { id: clientInfo.id, name: clientInfo.clientName, tenantId: clientInfo.tenantId },
        rows.map((r) => r.clientId),
      );
      return rows.map((r) => ({
        ...r,
        ...configShape(r, items),
        clientName: r.clientId ? (byId.get(String(r.clientId)) ?? null) : null,
      }));
    },
  });
  // Two cameras linked to one channel at once: the loser meets the unique index — a 400 saying so, not "exists".
  cameraBinding.spec.unique = {
    ...cameraBinding.spec.unique,
    [LINK_INDEX]: { field: 'channelNo', text: texts.channelTakenRace },
  };
  const cameraSvc = resourceRoutes(root, s, cameraBinding);

  // The spec's list: the same filters and data scope as pageList, answered as an array (pickers), at most 1000.
  app.get(
    `${cameradevice.base}/list`,
    {
      config: { permission: cameradevice.code, labels: cameraBinding.spec.labels },
      schema: { tags: ['cameradevice'] },
    },
    async (req) => {
      const query = rawQuery(req);
      const size = Math.min(Math.max(Number(query.size) || 1000, 1), 1000);
      const page = await cameraSvc.list(requireAuth(req), { ...query, current: '1', size: String(size) });
      return ok(page.records);
    },
  );

  // Running sub-domains a device may bind to (of one client), within the caller's data scope on devices.
  app.get(
    `${cameradevice.base}/subDomainOptions`,
    {
      config: { permission: cameradevice.code },
      schema: {
        tags: ['cameradevice'],
        querystring: z.object({
          clientId: idParam.optional(),
        }),
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const clientId = auth.clientInfoId ?? req.query.clientId;
      const rows = await withTenant(s.db, auth.tenantId, (tx) =>
        tx
          .select({ id: subDomain.id, fullDomain: subDomain.fullDomain, clientId: subDomain.clientId })
          .from(subDomain)
          .where(
            and(
              live(subDomain, auth.tenantId),
              eq(subDomain.status, SUBDOMAIN_STATUS.running),
              clientId ? eq(subDomain.clientId, clientId) : undefined,
            ),
          )
          .orderBy(asc(subDomain.fullDomain))
          .limit(1000),
      );
      return ok(rows);
    },
  );

  // A template's items (the camera form's config fields).
  app.get(
    `${cameradevice.base}/configItems`,
    {
      config: { permission: [cameradevice.code, 'configtemplateitem'] },
      schema: { tags: ['cameradevice'], querystring: z.object({ templateId: idParam }) },
    },
    async (req) => {
      const auth = requireAuth(req);
      const items = await withTenant(s.db, auth.tenantId, (tx) => itemsOf(tx, auth.tenantId, [req.query.templateId]));
      return ok(
        (items.get(req.query.templateId) ?? []).map((i) => ({
          itemKey: i.itemKey,
          itemName: i.itemName,
          valueType: i.valueType,
          defaultValue: i.defaultValue,
          options: i.options,
          unit: (i as { unit?: string | null }).unit ?? null,
          min: i.min,
          max: i.max,
          required: i.required,
        })),
      );
    },
  );

  // ——— NVR channels ———
  const channelBinding = bindResource(nvrchannelinfo, nvrChannel, {
    // The caller's data scope on cameras (a cached read: before the transaction) — a channel links only those.
    async prepareSave({ auth }) {
      return { cameraScope: await cameraSvc.scopeOf(auth) };
    },
    // A channel's camera is written where the link lives, on the cameras (docs/devices.md "Links between cameras and
    // channels"); the channel's camera_id follows by trigger.
    async beforeSave({ tx, auth, input, existing, state }) {
      if (!existing || !('cameraId' in input)) return;
      const cameraId = input.cameraId ? String(input.cameraId) : null;
      const nvrId = String(existing.nvrDeviceId);
      const [nvr] = await lockNvrs(tx, auth.tenantId, [nvrId], 'update');
      if (!nvr || nvr.isDeleted !== 0) throw notFound();
      if (cameraId) {
        await checkLinkedCameras(tx, auth.tenantId, [cameraId], state.cameraScope as SQL | undefined);
      }
      await setChannelCamera(tx, auth.tenantId, nvrId, Number(existing.channelNo), cameraId);
      return { cameraId };
    },
    // A channel removed by staff unlinks its camera (which stays behind the NVR, without a channel number); a channel
    // dropped from a replaced list keeps it (the number may come back).
    async beforeRemove(tx, _ids, auth, rows) {
      await lockNvrs(
        tx,
        auth.tenantId,
        rows.map((r) => String(r.nvrDeviceId)),
        'update',
      );
      for (const r of rows)
        if (r.cameraId) await setChannelCamera(tx, auth.tenantId, String(r.nvrDeviceId), Number(r.channelNo), null);
    },
    async decorate(tx, auth, rows) {
      const byId = await namesByIds(
        tx,
        auth.tenantId,
        cameraDevice,
        rows.flatMap((r) => [r.nvrDeviceId, r.cameraId]),
      );
      return rows.map((r) => ({
        ...r,
        nvrName: byId.get(String(r.nvrDeviceId)) ?? null,
        cameraName: r.cameraId ? (byId.get(String(r.cameraId)) ?? null) : null,
      }));
    },
    // An NVR with one channel, made for the generated suites (channels come from saveNvrChannelInfo).
    async fixture(tx, auth) {
      const now = new Date();
      const nvrId = newId();
      const serial = nvrId.slice(-6);
      await tx.insert(cameraDevice).values({
        id: nvrId,
        tenantId: auth.tenantId,
        deviceCode: `11010100001180${serial}`,
        name: `fixture NVR ${serial}`,
        deviceType: DEVICE_TYPES.nvr,
        regionCode: '110101',
        status: DEVICE_STATUS.offline,
        createTime: now,
        updateTime: now,
      });
      await replaceChannels(tx, auth.tenantId, nvrId, [
        { channelNo: 1, channelCode: `11010100001310${serial}`, name: 'fixture channel' },
      ]);
      const [c] = await tx
        .select({ id: nvrChannel.id })
        .from(nvrChannel)
        .where(and(eq(nvrChannel.tenantId, auth.tenantId), eq(nvrChannel.nvrDeviceId, nvrId)));
      return c.id;
    },
  });
  channelBinding.spec.unique = {
    ...channelBinding.spec.unique,
    [LINK_INDEX]: { field: 'cameraId', text: texts.channelTakenRace },
  };
  const channelSvc = resourceRoutes(root, s, channelBinding);

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

  // Replaces one NVR's channel list in one transaction (docs/devices.md "Device records"): the NVR must be visible
  // in the caller's data scope on devices.
  app.post(
    `${nvrchannelinfo.base}/saveNvrChannelInfo`,
    {
      config: { permission: `${nvrchannelinfo.code}_edit`, labels: channelBinding.spec.labels },
      schema: { tags: ['nvrchannelinfo'], body: channelBody },
    },
    async (req) => {
      const auth = requireAuth(req);
      const { nvrDeviceId, channels } = req.body;
      const scope = await cameraSvc.scopeOf(auth);
      const result = await withTenant(s.db, auth.tenantId, async (tx) => {
        const [nvr] = await tx
          .select({ id: cameraDevice.id })
          .from(cameraDevice)
          .where(and(live(cameraDevice, auth.tenantId), eq(cameraDevice.id, nvrDeviceId), scope));
        if (!nvr) throw notFound();
        const done = await replaceChannels(
          tx,
          auth.tenantId,
          nvrDeviceId,
          channels.map((c) => ({
            channelNo: c.channelNo,
            channelCode: c.channelCode ?? null,
            name: c.name ?? null,
            ...(c.cameraId !== undefined ? { cameraId: c.cameraId } : {}),
          })),
          { userId: auth.userId, now: s.now(), cameraScope: scope },
        );
        await writeAudit(s, tx, auth, req.id, nvrchannelinfo.code, 'replace', nvrDeviceId, null, {
          ...done,
          channels: channels.length,
        });
        return done;
      }).catch((err: unknown) => {
        throw linkConflict(err) ?? err;
      });
      const list = await channelSvc.list(auth, { nvrDeviceId, size: '1000' });
      return ok({ ...result, channels: list.records }, fill(texts.channelsSaved, result));
    },
  );
});

async function clientNameOf(tx: Db, tenantId: string, clientId: string | null): Promise<string | null> {
  if (!clientId) return null;
  const [c] = await tx
    .select({ name: clientInfo.clientName })
    .from(clientInfo)
    .where(and(eq(clientInfo.tenantId, tenantId), eq(clientInfo.id, clientId)));
  return c?.name ?? null;
}

/**
 * The rules of a camera's save (docs/devices.md "Device records"): identity (code, type, region), owner, NVR,
 * sealed credentials, config values, sub-domain binding, and the state a new device starts in.
 */
async function cameraBeforeSave(
  s: Services,
  tx: Db,
  auth: AuthContext,
  input: Record<string, unknown>,
  existing: CameraRow | null,
  scope: SQL | undefined,
  state: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const pick = <K extends keyof CameraRow>(k: K): CameraRow[K] | null | undefined =>
    (k in input ? input[k as string] : existing?.[k]) as CameraRow[K] | null | undefined;
  // The code identifies the device to device access: it never changes (createOnly).
  const deviceCode = existing ? existing.deviceCode : normaliseDeviceCode(String(input.deviceCode));
  if (!existing) out.deviceCode = deviceCode;
  const deviceType = String(pick('deviceType'));
  await checkDeviceIdentity(tx, auth.tenantId, {
    deviceCode,
    deviceType,
    manufacturer: pick('manufacturer') || null,
    model: pick('model') || null,
    regionCode: String(pick('regionCode')),
  });

  // Owner: a client account's devices are its own client's.
  const clientId = auth.clientInfoId ?? (pick('clientId') ? String(pick('clientId')) : null);
  if (auth.clientInfoId) out.clientId = auth.clientInfoId;
  const regionCode = String(pick('regionCode'));
  const ownerChanged = !existing || clientId !== existing.clientId;
  if (clientId && (ownerChanged || regionCode !== existing?.regionCode)) {
    const [c] = await tx
      .select({ id: clientInfo.id, regionCode: clientInfo.regionCode })
      .from(clientInfo)
      .where(
        and(
          live(clientInfo, auth.tenantId),
          eq(clientInfo.id, clientId),
          ownerChanged ? eq(clientInfo.status, CLIENT_STATUS.approved) : undefined,
          ownerChanged ? (state.clientScope as SQL | undefined) : undefined,
        ),
      );
    if (!c) throw fieldError('clientId', texts.clientUnknown);
    // A client's devices lie within its region and below (docs/devices.md "Device records"): a client account
    // registers in its own region only, and staff place a client's device there too.
    if (!regionCode.startsWith(c.regionCode))
      throw fieldError('regionCode', fill(texts.outsideClientRegion, { region: c.regionCode }));
  }

  // Behind an NVR (docs/devices.md "Links between cameras and channels"): the camera's (nvrId, channelNo) is the
  // truth of its link; a live NVR of the tenant that the caller sees (404 otherwise, like every reference), never
  // itself, never an NVR behind an NVR; one camera per channel (the unique index decides between two at once).
  const nvrId = pick('nvrId') ? String(pick('nvrId')) : null;
  let channelNo = pick('channelNo');
  // Leaving the NVR without saying the channel leaves the channel too.
  if (!nvrId && 'nvrId' in input && !('channelNo' in input) && channelNo != null) {
    channelNo = null;
    out.channelNo = null;
  }
  if (channelNo != null && !nvrId) throw fieldError('channelNo', texts.channelWithoutNvr);
  if (existing && nvrId === existing.id) throw fieldError('nvrId', texts.nvrSelf);
  if (nvrId && deviceType === DEVICE_TYPES.nvr) throw fieldError('nvrId', texts.nvrBehindNvr);
  // The NVRs whose channels this save may relink, locked against a replace of their lists or their removal.
  await lockNvrs(tx, auth.tenantId, [nvrId, existing?.nvrId], 'key share');
  if (nvrId) {
    const [nvr] = await tx
      .select({ deviceType: cameraDevice.deviceType })
      .from(cameraDevice)
      .where(and(live(cameraDevice, auth.tenantId), eq(cameraDevice.id, nvrId), scope));
    if (!nvr) throw new AppError(404, texts.nvrUnknown);
    if (nvr.deviceType !== DEVICE_TYPES.nvr) throw fieldError('nvrId', texts.nvrNotNvr);
    if (channelNo != null) {
      const [holder] = await tx
        .select({ name: cameraDevice.name })
        .from(cameraDevice)
        .where(
          and(
            live(cameraDevice, auth.tenantId),
            eq(cameraDevice.nvrId, nvrId),
            eq(cameraDevice.channelNo, Number(channelNo)),
            existing ? ne(cameraDevice.id, existing.id) : undefined,
          ),
        )
        .limit(1);
      if (holder) throw fieldError('channelNo', fill(texts.channelTaken, { no: Number(channelNo), name: holder.name }));
    }
  }

  // The stream URL: its credentials sealed with the whole URL, the console's copy without them. Sent without
  // credentials, an update keeps the stored ones when the scheme, host and port are the same.
  if ('streamUrl' in input) {
    const raw = input.streamUrl == null ? '' : String(input.streamUrl).trim();
    if (!raw) {
      out.streamUrl = null;
      out.streamUrlSealed = null;
    } else {
      const parts = splitCredentials(raw);
      if (!parts || !streamScheme(parts.url)) throw urlError('streamUrl', texts.streamUrlBad);
      let full = parts.url;
      if (!parts.hasCredentials && existing?.streamUrlSealed) {
        const old = splitCredentials(unseal(s, existing.streamUrlSealed) ?? '');
        if (old?.hasCredentials && old.url.protocol === full.protocol && old.url.host === full.host) {
          full = new URL(full.toString());
          full.username = old.url.username;
          full.password = old.url.password;
        }
      }
      out.streamUrl = parts.bare;
      out.streamUrlSealed = seal(s, full.toString());
    }
  }
  if ('onvifUrl' in input && input.onvifUrl) {
    const parts = splitCredentials(String(input.onvifUrl));
    if (!parts || !['http:', 'https:'].includes(parts.url.protocol)) throw urlError('onvifUrl', texts.onvifUrlBad);
    out.onvifUrl = parts.bare;
  }
  // The ONVIF password: sealed when given; left out (or empty), the stored one stays.
  const password = input.onvifPassword == null ? '' : String(input.onvifPassword);
  if (password) out.onvifPasswordSealed = seal(s, password);
  if ('onvifUser' in input && !input.onvifUser && !password) out.onvifPasswordSealed = null;

  // Config: the template of this device type, and the values checked against it.
  const templateId = pick('configTemplateId') ? String(pick('configTemplateId')) : null;
  let values: Record<string, unknown> | null = existing?.configValues ?? null;
  if ('configValues' in input) {
    const text = input.configValues == null ? '' : String(input.configValues).trim();
    values = text ? parseConfigValues(text) : null;
    out.configValues = values;
  }
  if (values && Object.keys(values).length && !templateId)
    throw fieldError('configValues', texts.configWithoutTemplate);
  if (templateId) {
    const [t] = await tx
      .select()
      .from(configTemplate)
      .where(and(live(configTemplate, auth.tenantId), eq(configTemplate.id, templateId)));
    if (!t) throw fieldError('configTemplateId', texts.templateUnknown);
    if (t.deviceType !== deviceType)
      throw fieldError('configTemplateId', fill(texts.templateType, { type: t.deviceType }));
    if (t.status !== 1 && templateId !== existing?.configTemplateId)
      throw fieldError('configTemplateId', texts.templateDisabled);
    const items = await itemsOf(tx, auth.tenantId, [templateId]);
    effectiveConfig(items.get(templateId) ?? [], values, true);
  } else if ('configTemplateId' in input && !('configValues' in input)) {
    out.configValues = null;
  }

  // Sub-domain: one of the device's client, running, below its bind limit; a change moves the count.
  const subId = pick('subDomainId') ? String(pick('subDomainId')) : null;
  const before = existing?.subDomainId ?? null;
  if (subId !== before) {
    if (subId) {
      const [sd] = await tx
        .select({ clientId: subDomain.clientId })
        .from(subDomain)
        .where(and(live(subDomain, auth.tenantId), eq(subDomain.id, subId)));
      if (!sd) throw fieldError('subDomainId', texts.subDomainUnknown);
      if (sd.clientId !== clientId) throw fieldError('subDomainId', texts.subDomainOtherClient);
      await bindDevice(tx, auth.tenantId, subId);
    }
    if (before) await unbindDevice(tx, auth.tenantId, before);
  }

  // A new device: offline, with its own MQTT secret (answered once by afterSave).
  if (!existing) {
    out.status = DEVICE_STATUS.offline;
    out.secretSealed = state.secretSealed;
  }
  return out;
}
