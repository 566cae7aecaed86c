/** The public entry of the module (docs/server.md "Module boundaries"): its plugin, and what other modules use. */
export { default } from './module.ts';
export { addOwnPort, checkAddress, checkCameraUrl, refusalText, type AddressCheck } from './address.ts';
export { checkChannels, replaceChannels } from './channels.ts';
export { seedDeviceDefaults, seedMissingDeviceDefaults } from './defaults.ts';
export { cameraDevice, cameraNetwork, nvrChannel } from './table.ts';
