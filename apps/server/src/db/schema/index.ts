export * from './system.ts';
export * from './auth.ts';
