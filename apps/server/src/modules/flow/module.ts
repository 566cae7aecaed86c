import { defineModule } from '../../platform/resource.ts';
import { startEnginePool } from './engine/pool.ts';
import { TimerWorker } from './engine/timers.ts';
import { adminRoutes } from './routes/admin.ts';
import { workRoutes } from './routes/work.ts';

/**
 * 流程 (docs/workflow.md): 模型管理 and 流程部署 (routes/admin.ts), 流程跟踪, 我的事务 and an instance's history and
 * diagram (routes/work.ts), and the timer worker (engine/timers.ts). Rules and SQL are services (admin.ts, queries.ts, engine/) a test calls without the app.
 */
export default defineModule(async (root, s) => {
  await root.register(adminRoutes, { s });
  await root.register(workRoutes, { s });
  // The timers of waiting instances fire from the database, on every server (docs/workflow.md "Timers").
  const timers = new TimerWorker(s, {}, root.log);
  root.addHook('onListen', async () => {
    // The engine's worker threads (docs/workflow.md "Worker threads") start with the server, not at the first touch.
    startEnginePool();
    timers.start();
  });
  root.addHook('onClose', async () => timers.stop());
});
