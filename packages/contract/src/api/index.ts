export * from './route.ts';
export type { TreeNode } from './shapes.ts';
export { PTZ_COMMANDS } from './messages.ts';
import * as shell from './routes/shell.ts';
import * as user from './routes/user.ts';
import * as video from './routes/video.ts';

/** Every declared route's address, by area (docs/api.md "Routes in the contract"); schemas: `@atrium/contract/schemas`. */
export const api = { shell, user, video };
export { shell, user, video };
