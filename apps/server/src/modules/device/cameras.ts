import { and, asc, eq, inArray, ne, notInArray, type SQL } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import { CLIENT_STATUS } from '@atrium/contract/resources/customer/clientinfo';
import { SUBDOMAIN_STATUS } from '@atrium/contract/resources/subdomain/subdomain_list';
import { DEVICE_STATUS, DEVICE_TYPES } from '@atrium/contract/resources/device/cameradevice';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { namesByIds } from '../../db/names.ts';
import type { Row } from '../../platform/crud.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { normaliseDeviceCode } from '../blacklist/index.ts';
import { clientInfo } from '../client/index.ts';
import { seal, unseal } from '../../platform/secrets.ts';
import { bindDevice, unbindDevice } from '../subdomain/index.ts';
import { subDomain } from '../subdomain/index.ts';
import { cameraNetworksOf, checkCameraUrl, refusalText } from './address.ts';
import { checkLinkedCameras, lockNvrs, replaceChannels, setChannelCamera } from './channels.ts';
import { deviceTexts as texts } from './messages.ts';
import {
  checkDeviceIdentity,
  effectiveConfig,
  parseConfigValues,
  splitCredentials,
  streamScheme,
  urlError,
} from './rules.ts';
import { configShape, fieldError, itemsOf, live } from './service.ts';
import { cameraDevice, configTemplate, nvrChannel } from './table.ts';

/**
 * The rules and SQL of cameras / NVRs and their channels (docs/devices.md "Device records", "Links between cameras and
 * channels"): each takes the transaction and its input, so a test calls it without the app.
 */

export type CameraRow = typeof cameraDevice.$inferSelect;
type Patch = Record<string, unknown>;

/**
 * The stream and ONVIF addresses a save sends, checked before its transaction opens (DNS and the tenant's
 * networks, docs/devices.md "Camera addresses"): staff read why, a client account one text for every refusal.
 */
export async function checkSavedAddresses(s: Services, auth: AuthContext, input: Record<string, unknown>) {
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

/** What a camera's save checks beyond its own row: the caller, its data scopes, and what `prepareSave` made. */
export type CameraSave = {
  auth: AuthContext;
  input: Record<string, unknown>;
  existing: CameraRow | null;
  /** The caller's data scope on devices. */
  scope: SQL | undefined;
  /** The caller's data scope on devices read on the clients table, and the new device's sealed secret. */
  state: Record<string, unknown>;
};

/**
 * The rules of a camera's save (docs/devices.md "Device records"): identity (code, type, region), owner, NVR,
 * sealed credentials, config values, sub-domain binding, and the state a new device starts in. Answers what the
 * save writes beyond the input.
 */
export async function cameraBeforeSave(s: Services, tx: Db, save: CameraSave): Promise<Patch> {
  const { auth, input, existing, state } = save;
  const out: Patch = {};
  const pick = <K extends keyof CameraRow>(k: K): CameraRow[K] | null | undefined =>
    (k in input ? input[k as string] : existing?.[k]) as CameraRow[K] | null | undefined;
  // The code identifies the device to device access: it never changes (createOnly).
  const deviceCode = existing ? existing.deviceCode : normaliseDeviceCode(String(input.deviceCode));
  if (!existing) out.deviceCode = deviceCode;
  const deviceType = String(pick('deviceType'));
  const regionCode = String(pick('regionCode'));
  await checkDeviceIdentity(tx, auth.tenantId, {
    deviceCode,
    deviceType,
    manufacturer: pick('manufacturer') || null,
    model: pick('model') || null,
    regionCode,
  });
  // Owner: a client account's devices are its own client's.
  const clientId = auth.clientInfoId ?? (pick('clientId') ? String(pick('clientId')) : null);
  if (auth.clientInfoId) out.clientId = auth.clientInfoId;
  await checkOwner(tx, auth.tenantId, {
    clientId,
    regionCode,
    existing,
    clientScope: state.clientScope as SQL | undefined,
  });
  const nvrId = pick('nvrId') ? String(pick('nvrId')) : null;
  Object.assign(
    out,
    await checkNvrLink(tx, auth.tenantId, { ...save, deviceType, nvrId, channelNo: pick('channelNo') }),
  );
  Object.assign(out, sealAddresses(s, input, existing));
  Object.assign(
    out,
    await checkCameraConfig(tx, auth.tenantId, {
      input,
      existing,
      deviceType,
      templateId: pick('configTemplateId') ? String(pick('configTemplateId')) : null,
    }),
  );
  const subDomainId = pick('subDomainId') ? String(pick('subDomainId')) : null;
  await moveSubDomain(tx, auth.tenantId, { subDomainId, before: existing?.subDomainId ?? null, clientId });
  // A new device: offline, with its own MQTT secret (answered once by afterSave).
  if (!existing) {
    out.status = DEVICE_STATUS.offline;
    out.secretSealed = state.secretSealed;
  }
  return out;
}

/**
 * A device's owner, when it changes (or the device moves): an approved client in the caller's data scope; the device
 * lies within the client's region and below (a client account registers in its own region only, and staff place a
 * client's device there too).
 */
export async function checkOwner(
  tx: Db,
  tenantId: string,
  o: { clientId: string | null; regionCode: string; existing: CameraRow | null; clientScope?: SQL },
): Promise<void> {
  const { clientId, regionCode, existing } = o;
  const ownerChanged = !existing || clientId !== existing.clientId;
  if (!clientId || (!ownerChanged && regionCode === existing?.regionCode)) return;
  const [c] = await tx
    .select({ id: clientInfo.id, regionCode: clientInfo.regionCode })
    .from(clientInfo)
    .where(
      and(
        live(clientInfo, tenantId),
        eq(clientInfo.id, clientId),
        ownerChanged ? eq(clientInfo.status, CLIENT_STATUS.approved) : undefined,
        ownerChanged ? o.clientScope : undefined,
      ),
    );
  if (!c) throw fieldError('clientId', texts.clientUnknown);
  if (!regionCode.startsWith(c.regionCode))
    throw fieldError('regionCode', fill(texts.outsideClientRegion, { region: c.regionCode }));
}

/**
 * Behind an NVR (docs/devices.md "Links between cameras and channels"): the camera's (nvrId, channelNo) is the truth
 * of its link; a live NVR of the tenant that the caller sees (404 otherwise, like every reference), never itself,
 * never an NVR behind an NVR; one camera per channel (the unique index decides between two at once).
 */
export async function checkNvrLink(
  tx: Db,
  tenantId: string,
  link: Pick<CameraSave, 'input' | 'existing' | 'scope'> & {
    deviceType: string;
    /** The NVR and channel the save leaves the camera with (the input's, else the stored ones). */
    nvrId: string | null;
    channelNo: number | null | undefined;
  },
) {
  const { input, existing, scope, deviceType, nvrId } = link;
  const out: Patch = {};
  let channelNo = link.channelNo;
  // Leaving the NVR without saying the channel leaves the channel too.
  if (!nvrId && 'nvrId' in input && !('channelNo' in input) && channelNo != null) {
    channelNo = null;
    out.channelNo = null;
  }
  if (channelNo != null && !nvrId) throw fieldError('channelNo', texts.channelWithoutNvr);
  if (existing && nvrId === existing.id) throw fieldError('nvrId', texts.nvrSelf);
  if (nvrId && deviceType === DEVICE_TYPES.nvr) throw fieldError('nvrId', texts.nvrBehindNvr);
  // The NVRs whose channels this save may relink, locked against a replace of their lists or their removal.
  await lockNvrs(tx, tenantId, [nvrId, existing?.nvrId], 'key share');
  if (!nvrId) return out;
  const [nvr] = await tx
    .select({ deviceType: cameraDevice.deviceType })
    .from(cameraDevice)
    .where(and(live(cameraDevice, tenantId), eq(cameraDevice.id, nvrId), scope));
  if (!nvr) throw new AppError(404, texts.nvrUnknown);
  if (nvr.deviceType !== DEVICE_TYPES.nvr) throw fieldError('nvrId', texts.nvrNotNvr);
  if (channelNo == null) return out;
  const [holder] = await tx
    .select({ name: cameraDevice.name })
    .from(cameraDevice)
    .where(
      and(
        live(cameraDevice, tenantId),
        eq(cameraDevice.nvrId, nvrId),
        eq(cameraDevice.channelNo, Number(channelNo)),
        existing ? ne(cameraDevice.id, existing.id) : undefined,
      ),
    )
    .limit(1);
  if (holder) throw fieldError('channelNo', fill(texts.channelTaken, { no: Number(channelNo), name: holder.name }));
  return out;
}

/**
 * The stream URL: its credentials sealed with the whole URL, the console's copy without them. Sent without
 * credentials, an update keeps the stored ones when the scheme, host and port are the same. The ONVIF URL without
 * credentials; the ONVIF password sealed when given (left out or empty, the stored one stays).
 */
export function sealAddresses(s: Services, input: Record<string, unknown>, existing: CameraRow | null): Patch {
  const out: Patch = {};
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
  const password = input.onvifPassword == null ? '' : String(input.onvifPassword);
  if (password) out.onvifPasswordSealed = seal(s, password);
  if ('onvifUser' in input && !input.onvifUser && !password) out.onvifPasswordSealed = null;
  return out;
}

/**
 * Config: a live template of the device's type — enabled, unless it is already the device's — and the values
 * checked against its items; values without a template are refused. Answers the values to write, if changed.
 */
export async function checkCameraConfig(
  tx: Db,
  tenantId: string,
  c: { input: Record<string, unknown>; existing: CameraRow | null; deviceType: string; templateId: string | null },
): Promise<Patch> {
  const { input, existing, templateId } = c;
  const out: Patch = {};
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
      .where(and(live(configTemplate, tenantId), eq(configTemplate.id, templateId)));
    if (!t) throw fieldError('configTemplateId', texts.templateUnknown);
    if (t.deviceType !== c.deviceType)
      throw fieldError('configTemplateId', fill(texts.templateType, { type: t.deviceType }));
    if (t.status !== 1 && templateId !== existing?.configTemplateId)
      throw fieldError('configTemplateId', texts.templateDisabled);
    const items = await itemsOf(tx, tenantId, [templateId]);
    effectiveConfig(items.get(templateId) ?? [], values, true);
  } else if ('configTemplateId' in input && !('configValues' in input)) {
    out.configValues = null;
  }
  return out;
}

/**
 * Sub-domain: one of the device's client, live, counted against its bind limit; a change moves the count from the
 * one before.
 */
export async function moveSubDomain(
  tx: Db,
  tenantId: string,
  m: { subDomainId: string | null; before: string | null; clientId: string | null },
): Promise<void> {
  const { subDomainId, before } = m;
  if (subDomainId === before) return;
  if (subDomainId) {
    const [sd] = await tx
      .select({ clientId: subDomain.clientId })
      .from(subDomain)
      .where(and(live(subDomain, tenantId), eq(subDomain.id, subDomainId)));
    if (!sd) throw fieldError('subDomainId', texts.subDomainUnknown);
    if (sd.clientId !== m.clientId) throw fieldError('subDomainId', texts.subDomainOtherClient);
    await bindDevice(tx, tenantId, subDomainId);
  }
  if (before) await unbindDevice(tx, tenantId, before);
}

/**
 * Before devices are removed: an NVR with channels or cameras behind it (not removed with it) refuses; the NVRs
 * concerned are locked; bound sub-domains count one device fewer.
 */
export async function removeCameras(tx: Db, tenantId: string, ids: string[], rows: Row[]): Promise<void> {
  const nvrs = rows.filter((r) => r.deviceType === DEVICE_TYPES.nvr).map((r) => r.id);
  // The NVRs removed are locked first: a camera naming one meanwhile waits (its key-share lock), then finds it gone.
  await lockNvrs(tx, tenantId, nvrs, 'update');
  // The NVRs of removed cameras: their channels lose the link (the triggers of migration 0032).
  await lockNvrs(
    tx,
    tenantId,
    rows.map((r) => r.nvrId as string | null).filter((id) => id && !nvrs.includes(id)),
    'key share',
  );
  if (nvrs.length) {
    const [channel] = await tx
      .select({ nvr: nvrChannel.nvrDeviceId })
      .from(nvrChannel)
      .where(and(live(nvrChannel, tenantId), inArray(nvrChannel.nvrDeviceId, nvrs)))
      .limit(1);
    const [behind] = await tx
      .select({ nvr: cameraDevice.nvrId })
      .from(cameraDevice)
      .where(and(live(cameraDevice, tenantId), inArray(cameraDevice.nvrId, nvrs), notInArray(cameraDevice.id, ids)))
      .limit(1);
    const hit = channel?.nvr ?? behind?.nvr;
    if (hit) throw badRequest(fill(texts.nvrHasChildren, { name: String(rows.find((r) => r.id === hit)?.name) }));
  }
  // Bound sub-domains count one device fewer. (Channels showing a removed camera lose the link by trigger.)
  for (const r of rows) if (r.subDomainId) await unbindDevice(tx, tenantId, String(r.subDomainId));
}

/** The client's name of a device, for the answer to its save. */
export async function clientNameOf(tx: Db, tenantId: string, clientId: string | null): Promise<string | null> {
  if (!clientId) return null;
  const [c] = await tx
    .select({ name: clientInfo.clientName })
    .from(clientInfo)
    .where(and(eq(clientInfo.tenantId, tenantId), eq(clientInfo.id, clientId)));
  return c?.name ?? null;
}

/** Listed devices with their config (values as JSON text, effective config) and their client's name. */
export async function decorateCameras(tx: Db, tenantId: string, rows: Record<string, unknown>[]) {
  const templateIds = [
    ...new Set(
      rows
        .map((r) => r.configTemplateId)
        .filter(Boolean)
        .map(String),
    ),
  ];
  const items = await itemsOf(tx, tenantId, templateIds);
  const byId = await namesByIds(
    tx,
    tenantId,
    { id: clientInfo.id, name: clientInfo.clientName, tenantId: clientInfo.tenantId },
    rows.map((r) => r.clientId),
  );
  return rows.map((r) => ({
    ...r,
    ...configShape(r, items),
    clientName: r.clientId ? (byId.get(String(r.clientId)) ?? null) : null,
  }));
}

/** Running sub-domains a device may bind to (of one client, if given). */
export function subDomainOptions(tx: Db, tenantId: string, clientId: string | undefined) {
  return tx
    .select({ id: subDomain.id, fullDomain: subDomain.fullDomain, clientId: subDomain.clientId })
    .from(subDomain)
    .where(
      and(
        live(subDomain, tenantId),
        eq(subDomain.status, SUBDOMAIN_STATUS.running),
        clientId ? eq(subDomain.clientId, clientId) : undefined,
      ),
    )
    .orderBy(asc(subDomain.fullDomain))
    .limit(1000);
}

// ——— NVR channels ———

/**
 * A channel's camera set by staff: written where the link lives, on the cameras (docs/devices.md "Links between
 * cameras and channels"); the channel's camera_id follows by trigger. The camera must be in the caller's data scope.
 */
export async function linkChannelCamera(
  tx: Db,
  tenantId: string,
  channel: { nvrDeviceId: string; channelNo: number },
  cameraId: string | null,
  cameraScope: SQL | undefined,
): Promise<void> {
  const [nvr] = await lockNvrs(tx, tenantId, [channel.nvrDeviceId], 'update');
  if (!nvr || nvr.isDeleted !== 0) throw notFound();
  if (cameraId) await checkLinkedCameras(tx, tenantId, [cameraId], cameraScope);
  await setChannelCamera(tx, tenantId, channel.nvrDeviceId, channel.channelNo, cameraId);
}

/**
 * Channels removed by staff unlink their cameras (which stay behind the NVR, without a channel number); a channel
 * dropped from a replaced list keeps it (the number may come back).
 */
export async function unlinkRemovedChannels(tx: Db, tenantId: string, rows: Row[]): Promise<void> {
  await lockNvrs(
    tx,
    tenantId,
    rows.map((r) => String(r.nvrDeviceId)),
    'update',
  );
  for (const r of rows)
    if (r.cameraId) await setChannelCamera(tx, tenantId, String(r.nvrDeviceId), Number(r.channelNo), null);
}

/** Listed channels with the names of their NVR and camera. */
export async function decorateChannels(tx: Db, tenantId: string, rows: Record<string, unknown>[]) {
  const byId = await namesByIds(
    tx,
    tenantId,
    cameraDevice,
    rows.flatMap((r) => [r.nvrDeviceId, r.cameraId]),
  );
  return rows.map((r) => ({
    ...r,
    nvrName: byId.get(String(r.nvrDeviceId)) ?? null,
    cameraName: r.cameraId ? (byId.get(String(r.cameraId)) ?? null) : null,
  }));
}

/** An NVR with one channel, made for the generated suites (channels come from saveNvrChannelInfo): the channel's id. */
export async function channelFixture(tx: Db, tenantId: string): Promise<string> {
  const now = new Date();
  const nvrId = newId();
  const serial = nvrId.slice(-6);
  await tx.insert(cameraDevice).values({
    id: nvrId,
    tenantId,
    deviceCode: `11010100001180${serial}`,
    name: `fixture NVR ${serial}`,
    deviceType: DEVICE_TYPES.nvr,
    regionCode: '110101',
    status: DEVICE_STATUS.offline,
    createTime: now,
    updateTime: now,
  });
  await replaceChannels(tx, tenantId, nvrId, [
    { channelNo: 1, channelCode: `11010100001310${serial}`, name: 'fixture channel' },
  ]);
  const [c] = await tx
    .select({ id: nvrChannel.id })
    .from(nvrChannel)
    .where(and(eq(nvrChannel.tenantId, tenantId), eq(nvrChannel.nvrDeviceId, nvrId)));
  return c.id;
}

/** The NVR whose channel list is replaced: live, of the tenant, in the caller's data scope on devices; else 404. */
export async function visibleNvr(tx: Db, tenantId: string, nvrId: string, scope: SQL | undefined): Promise<void> {
  const [nvr] = await tx
    .select({ id: cameraDevice.id })
    .from(cameraDevice)
    .where(and(live(cameraDevice, tenantId), eq(cameraDevice.id, nvrId), scope));
  if (!nvr) throw notFound();
}
