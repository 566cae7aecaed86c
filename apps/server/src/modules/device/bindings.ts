import { randomBytes } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { cameradevice } from '@atrium/contract/resources/device/cameradevice';
import { cameranetwork } from '@atrium/contract/resources/device/cameranetwork';
import { configtemplate } from '@atrium/contract/resources/device/configtemplate';
import { configtemplateitem } from '@atrium/contract/resources/device/configtemplateitem';
import { dictioncary } from '@atrium/contract/resources/device/dictioncary';
import { nvrchannelinfo } from '@atrium/contract/resources/device/nvrchannelinfo';
import { namesByIds } from '../../db/names.ts';
import { bindResource } from '../../platform/resource.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { BLACK_TYPE, isBlocked, normaliseDeviceCode } from '../blacklist/index.ts';
import { clientScopeSql } from '../client/index.ts';
import { seal } from '../../platform/secrets.ts';
import { deviceTotalOf } from '../statistics/index.ts';
import {
  cameraBeforeSave,
  channelFixture,
  checkSavedAddresses,
  clientNameOf,
  decorateCameras,
  decorateChannels,
  linkChannelCamera,
  removeCameras,
  unlinkRemovedChannels,
  type CameraRow,
} from './cameras.ts';
import { LINK_INDEX } from './channels.ts';
import { deviceTexts as texts } from './messages.ts';
import {
  checkDictEntry,
  checkItem,
  checkNetwork,
  checkTemplate,
  configShape,
  fieldError,
  itemsOf,
  refuseDictRemoval,
  removeTemplates,
} from './service.ts';
import { cameraDevice, cameraNetwork, configTemplate, configTemplateItem, deviceDict, nvrChannel } from './table.ts';

/**
 * The bindings of the device definitions (docs/devices.md "Device records"): each hook calls the rules of
 * service.ts (dictionary, templates, items, networks) or cameras.ts (cameras, NVRs, channels).
 */

export const dictionaryBinding = () =>
  bindResource(dictioncary, deviceDict, {
    // A new entry's place in the tree; an entry once made keeps its parent and code.
    async beforeSave({ tx, auth, input, existing }) {
      if (!existing) return checkDictEntry(tx, auth.tenantId, input);
    },
    beforeRemove: ({ tx, auth, rows }) => refuseDictRemoval(tx, auth.tenantId, rows),
  });

export const templateBinding = (s: Services) =>
  bindResource(configtemplate, configTemplate, {
    beforeSave: ({ tx, auth, input }) => checkTemplate(tx, auth.tenantId, input),
    // A template's items go with it.
    beforeRemove: ({ tx, ids, auth, rows }) =>
      removeTemplates(tx, auth.tenantId, ids, rows, { userId: auth.userId, now: s.now() }),
  });

export const itemBinding = () =>
  bindResource(configtemplateitem, configTemplateItem, {
    beforeSave: ({ tx, auth, input, existing }) => checkItem(tx, auth.tenantId, input, existing),
    async decorate({ tx, auth, rows }) {
      const byId = await namesByIds(
        tx,
        auth.tenantId,
        configTemplate,
        rows.map((r) => r.templateId),
      );
      return rows.map((r) => ({ ...r, templateName: byId.get(String(r.templateId)) ?? null }));
    },
  });

/** Camera networks: the private ranges where the tenant's cameras may be (docs/devices.md "Camera addresses"). */
export const networkBinding = () =>
  bindResource(cameranetwork, cameraNetwork, {
    beforeSave: async ({ input }) => checkNetwork(input),
  });

export function cameraBinding(s: Services) {
  const binding = bindResource(cameradevice, cameraDevice, {
    // An unfiltered list of the tenant or of a region takes its total from the statistics counters, not a count of
    // a province's rows on every request (docs/devices.md "Camera list").
    total: ({ auth, shape }) => deviceTotalOf(auth, shape),
    output: {
      // The device's MQTT secret, in the answer to `save` only (never stored in the clear, never answered again).
      deviceSecret: { type: 'string' },
      effectiveConfig: { type: ['object', 'null'], additionalProperties: true },
      configValues: { type: ['string', 'null'] },
    },
    async prepareSave({ auth, input, id }) {
      // The blacklist reads through its cache (its own transaction): before the save's transaction opens.
      const blocked = (code: string) => isBlocked(s, auth.tenantId, BLACK_TYPE.deviceCode, normaliseDeviceCode(code));
      if (!id && (await blocked(String(input.deviceCode)))) throw fieldError('deviceCode', texts.blocked);
      await checkSavedAddresses(s, auth, input);
      // The caller's data scope on devices, read on the clients table: the owner named must be a client it sees.
      const clientScope = await clientScopeSql(s, auth, cameradevice.code);
      if (id) return { clientScope };
      const secret = randomBytes(32).toString('base64url');
      return { clientScope, secret, secretSealed: seal(s, secret) };
    },
    beforeSave: ({ tx, auth, input, existing, scope, state }) =>
      cameraBeforeSave(s, tx, { auth, input, existing: existing as CameraRow | null, scope, state }),
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
    beforeRemove: ({ tx, ids, auth, rows }) => removeCameras(tx, auth.tenantId, ids, rows),
    decorate: ({ tx, auth, rows }) => decorateCameras(tx, auth.tenantId, rows),
  });
  // Two cameras linked to one channel at once: the loser meets the unique index — a 400 saying so, not "exists".
  binding.spec.unique = { ...binding.spec.unique, [LINK_INDEX]: { field: 'channelNo', text: texts.channelTakenRace } };
  return binding;
}

/** NVR channels; `cameraScope` is the caller's data scope on cameras (the camera binding's). */
export function channelBinding(cameraScope: (auth: AuthContext) => Promise<SQL | undefined>) {
  const binding = bindResource(nvrchannelinfo, nvrChannel, {
    // The caller's data scope on cameras (a cached read: before the transaction) — a channel links only those.
    prepareSave: async ({ auth }) => ({ cameraScope: await cameraScope(auth) }),
    async beforeSave({ tx, auth, input, existing, state }) {
      if (!existing || !('cameraId' in input)) return;
      const cameraId = input.cameraId ? String(input.cameraId) : null;
      const channel = { nvrDeviceId: String(existing.nvrDeviceId), channelNo: Number(existing.channelNo) };
      await linkChannelCamera(tx, auth.tenantId, channel, cameraId, state.cameraScope as SQL | undefined);
      return { cameraId };
    },
    beforeRemove: ({ tx, auth, rows }) => unlinkRemovedChannels(tx, auth.tenantId, rows),
    decorate: ({ tx, auth, rows }) => decorateChannels(tx, auth.tenantId, rows),
    // An NVR with one channel, made for the generated suites (channels come from saveNvrChannelInfo).
    fixture: ({ tx, auth }) => channelFixture(tx, auth.tenantId),
  });
  binding.spec.unique = { ...binding.spec.unique, [LINK_INDEX]: { field: 'cameraId', text: texts.channelTakenRace } };
  return binding;
}
