export * from './route.ts';
export type { TreeNode } from './shapes.ts';
export { PTZ_COMMANDS } from './messages.ts';
import * as business from './routes/business.ts';
import * as desk from './routes/desk.ts';
import * as device from './routes/device.ts';
import * as flow from './routes/flow.ts';
import * as grants from './routes/grants.ts';
import * as log from './routes/log.ts';
import * as region from './routes/region.ts';
import * as report from './routes/report.ts';
import * as resource from './routes/resource.ts';
import * as shell from './routes/shell.ts';
import * as statistics from './routes/statistics.ts';
import * as system from './routes/system.ts';
import * as user from './routes/user.ts';
import * as video from './routes/video.ts';

/** The prefix the video calls are registered under (a plugin of the server; the HLS and live addresses it answers). */
export const VIDEO_PREFIX = '/api/video';

/** Every declared route's address, by area (docs/api.md "Routes in the contract"); schemas: `@atrium/contract/schemas`. */
export const api = {
  business,
  desk,
  device,
  flow,
  grants,
  log,
  region,
  report,
  resource,
  shell,
  statistics,
  system,
  user,
  video,
};
export { business, grants, shell, statistics, system, user, video };
export { device as deviceApi, region as regionApi, resource as resourceApi };
export { flow as flowApi };
export { log as logApi };
export { desk as deskApi };
export { report as reportApi };
/** At most this many rows of a filtered log list are counted and paged (docs/server.md "Log viewers"): narrow the filters. */
export const LOG_PAGE_LIMIT = 10_000;
