import { cameradevice } from '@atrium/contract/resources/device/cameradevice';
import { configtemplate } from '@atrium/contract/resources/device/configtemplate';
import { dictioncary } from '@atrium/contract/resources/device/dictioncary';
import { nvrchannelinfo } from '@atrium/contract/resources/device/nvrchannelinfo';
import { defineModule, resourceRoutes } from '../../platform/resource.ts';
import {
  cameraBinding,
  channelBinding,
  dictionaryBinding,
  itemBinding,
  networkBinding,
  templateBinding,
} from './bindings.ts';
import { cameraRoutes } from './routes/cameras.ts';
import { channelRoutes } from './routes/channels.ts';
import { dictionaryRoutes, templateRoutes } from './routes/dictionary.ts';
import { englishTreeTitles } from './titles.ts';

/**
 * Device records (docs/devices.md "Device records"): the device dictionary, config templates and their items,
 * cameras / NVRs and NVR channels, bound from their definitions (bindings.ts), with the rules of a GB/T 28181 code,
 * sealed credentials, the device's MQTT secret answered once, config values checked against their template, and the
 * replacement of an NVR's channel list. Each resource's own calls are a plugin under its base (routes/); rules and
 * SQL are in service.ts, cameras.ts, channels.ts and rules.ts.
 */
export default defineModule(async (root, s) => {
  // The dictionary's tree titles follow the caller's language: wrapped as its routes are registered.
  englishTreeTitles(root, s);
  resourceRoutes(root, s, dictionaryBinding());
  await root.register(dictionaryRoutes, { prefix: dictioncary.base, s });

  resourceRoutes(root, s, templateBinding(s));
  await root.register(templateRoutes, { prefix: configtemplate.base, s });
  resourceRoutes(root, s, itemBinding());
  resourceRoutes(root, s, networkBinding());

  const cameraDefs = cameraBinding(s);
  const cameras = resourceRoutes(root, s, cameraDefs);
  await root.register(cameraRoutes, { prefix: cameradevice.base, s, cameras, labels: cameraDefs.spec.labels });

  const channelDefs = channelBinding((auth) => cameras.scopeOf(auth));
  const channels = resourceRoutes(root, s, channelDefs);
  const labels = channelDefs.spec.labels;
  await root.register(channelRoutes, { prefix: nvrchannelinfo.base, s, cameras, channels, labels });
});
