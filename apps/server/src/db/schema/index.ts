export * from './system.ts';
export * from './auth.ts';
export * from './cache.ts';
