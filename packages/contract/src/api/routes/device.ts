import { defineRoute } from '../route.ts';
import type * as S from './device.schemas.ts';

/**
 * The device screens' own calls beyond the CRUD routes (docs/devices.md "Device records"); schemas in
 * device.schemas.ts. Each is open to the screens that pick from it (their menu codes).
 */

const ACCESS = '/api/blade-device-access';

export const dictListAll = defineRoute<typeof S.dictListAll>()({
  method: 'GET',
  path: `${ACCESS}/dictioncary/listAll`,
  auth: 'user',
  permission: ['dictioncary', 'cameradevice', 'configtemplate', 'configtemplateitem', 'nvrchannelinfo'],
  summary:
    'The device dictionary as a flat list (all, under one parent, or under a device type), in the caller’s language',
});

export const templateOptions = defineRoute<typeof S.templateOptions>()({
  method: 'GET',
  path: `${ACCESS}/configtemplate/options`,
  auth: 'user',
  permission: ['configtemplate', 'configtemplateitem', 'cameradevice'],
  summary: 'The enabled config templates (of one device type), for pickers',
});

export const subDomainOptions = defineRoute<typeof S.subDomainOptions>()({
  method: 'GET',
  path: `${ACCESS}/cameraDevice/subDomainOptions`,
  auth: 'user',
  permission: 'cameradevice',
  summary: 'The running sub-domains a device may bind to (of one client; a client account: its own)',
});

export const configItems = defineRoute<typeof S.configItems>()({
  method: 'GET',
  path: `${ACCESS}/cameraDevice/configItems`,
  auth: 'user',
  permission: ['cameradevice', 'configtemplateitem'],
  summary: 'A config template’s items: the camera form’s config fields',
});

export const saveNvrChannelInfo = defineRoute<typeof S.saveNvrChannelInfo>()({
  method: 'POST',
  path: `${ACCESS}/nvrchannelinfo/saveNvrChannelInfo`,
  auth: 'user',
  permission: 'nvrchannelinfo_edit',
  summary:
    'Replaces one NVR’s channel list in one transaction (upsert by number, the missing removed); answers the counts and the channels',
});
