export * from './validate.ts';
export * from './constants.ts';
export * from './wire.ts';
export * from './resource/define.ts';
export * from './resources/common.ts';
export * from './resource/messages.ts';
export * from './resource/schema.ts';
export * from './api/index.ts';
