export * from './route.ts';
export type { TreeNode } from './shapes.ts';
export { PTZ_COMMANDS } from './messages.ts';
import * as business from './routes/business.ts';
import * as grants from './routes/grants.ts';
import * as shell from './routes/shell.ts';
import * as user from './routes/user.ts';
import * as video from './routes/video.ts';

/** Every declared route's address, by area (docs/api.md "Routes in the contract"); schemas: `@atrium/contract/schemas`. */
export const api = { business, grants, shell, user, video };
export { business, grants, shell, user, video };
