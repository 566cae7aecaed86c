/**
 * The zod schemas of the declared routes, by area (docs/api.md "Routes in the contract"): the server's half. Kept out
 * of the package's main entry so the console's first bundle carries no zod.
 */
export * from './shapes.ts';
export * from './messages.ts';
import * as business from './routes/business.schemas.ts';
import * as desk from './routes/desk.schemas.ts';
import * as device from './routes/device.schemas.ts';
import * as flow from './routes/flow.schemas.ts';
import * as grants from './routes/grants.schemas.ts';
import * as log from './routes/log.schemas.ts';
import * as region from './routes/region.schemas.ts';
import * as report from './routes/report.schemas.ts';
import * as resource from './routes/resource.schemas.ts';
import * as shell from './routes/shell.schemas.ts';
import * as statistics from './routes/statistics.schemas.ts';
import * as system from './routes/system.schemas.ts';
import * as user from './routes/user.schemas.ts';
import * as video from './routes/video.schemas.ts';

export const apiSchemas = {
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
export { regionCodeParam } from './routes/region.schemas.ts';
export { recordAnswer, pageOf, listQuery } from './records.ts';
export { flow as flowSchemas };
export { log as logSchemas };
export { desk as deskSchemas };
