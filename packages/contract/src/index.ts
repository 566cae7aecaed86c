export * from './validate.ts';
export * from './constants.ts';
export * from './wire.ts';
