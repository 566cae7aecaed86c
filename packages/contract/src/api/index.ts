export * from './route.ts';
export type { TreeNode } from './shapes.ts';
import * as shell from './routes/shell.ts';

/** Every declared route's address, by area (docs/api.md "Routes in the contract"); schemas: `@atrium/contract/schemas`. */
export const api = { shell };
export { shell };
