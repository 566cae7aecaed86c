import fs from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { messages } from '@atrium/contract';
import { ConfigError, loadConfig } from './config.ts';
import {
  DataDirError,
  DataDirLockedError,
  dataDirProblem,
  firstMissingDir,
  openDatabase,
  type Database,
} from './db/client.ts';
import { describeUnavailable, isDatabaseUnavailable } from './db/availability.ts';
import { migrateAndSeed } from './seed/seed.ts';
import { resolveSigningKey } from './db/signing-key.ts';
import { fail } from './platform/envelope.ts';
import { langOf, render } from './platform/errors.ts';
import { loggerOptions } from './platform/logging.ts';
import { serveMetrics } from './platform/metrics.ts';
import { buildApp } from './app.ts';

/** Reads config, opens and migrates the database, seeds it when empty, and listens. Answers the app and its services. */
export async function start() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // A cluster this start creates is removed again if the start fails (a full disk must not leave half of one).
  const madeHere = config.databaseUrl ? null : firstMissingDir(path.join(config.dataDir, 'pg'));
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (err) {
    // Another server holds the embedded data dir (docs/server.md "Data dir lock"), or its disk is full or read-only
    // (docs/server.md "Start on a bad disk"): said in one sentence, nothing left behind.
    if (err instanceof DataDirLockedError || err instanceof DataDirError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  let prepared;
  try {
    prepared = await untilAvailable(async () => {
      const seeded = await migrateAndSeed(database, {
        adminPassword: config.adminPassword,
        demoCameraNetwork: config.env === 'development',
        onWait: () => console.log('Another Atrium server is migrating this database: waiting for it to finish.'),
      });
      return { seeded, ...(await resolveSigningKey(config, database)) };
    }, database);
  } catch (err) {
    const named = database.kind === 'pglite' ? dataDirProblem(err, config.dataDir) : null;
    await database.close().catch(() => {});
    if (madeHere) fs.rmSync(madeHere, { recursive: true, force: true });
    if (named) {
      console.error(named.message);
      process.exit(1);
    }
    throw err;
  }
  const { seeded, key, source } = prepared;
  const { app, services } = await buildApp({
    config,
    db: database.db,
    signingKey: key,
    logger: loggerOptions(config.logLevel),
  });
  // Prometheus metrics on a port of their own (docs/deploy.md "Metrics"), closed with the app.
  if (config.metrics.enabled) {
    const metrics = await serveMetrics(services.metrics, config.metrics);
    app.addHook('onClose', async () => metrics.close());
    app.log.info(
      { port: metrics.port, host: config.metrics.host, token: !!config.metrics.token },
      `metrics on http://${config.metrics.host}:${metrics.port}/metrics`,
    );
  }
  stopOnSignals(app, database, config.shutdownTimeoutMs);
  database.availability.onChange((e) => {
    if (e.state === 'down')
      app.log.error({ reason: e.reason }, 'database unavailable: API calls are answered 503 until it is back');
    else app.log.warn({ downMs: e.downMs, probes: e.probes }, `database is back after ${e.downMs} ms`);
  });

  await app.listen({ port: config.port, host: config.host });
  // performance.now() counts from process start: this is the cold start to listening.
  const ms = Math.round(performance.now());
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  app.log.info(
    { ms, database: database.kind, seeded, signingKey: source },
    `Atrium listening on http://localhost:${config.port} (${where}), ready in ${ms} ms`,
  );
  if (seeded && !config.adminPassword) {
    app.log.warn(
      '*** Demo account: tenant 000000, user admin, password admin (ATRIUM_ADMIN_PASSWORD was not set). Change it before anyone else can reach this server. ***',
    );
  } else {
    app.log.info('Log in with tenant 000000 and user admin.');
  }
  if (!config.captchaRequired) app.log.warn('ATRIUM_CAPTCHA=off: logins do not need a captcha.');
  return { app, services };
}

/** The longest wait between two start-up attempts on a database that is not there. */
const START_RETRY_MAX_MS = 10_000;

/**
 * Runs the start-up's database work, again and again while the database is unavailable (not yet started, restarting,
 * or its connections ended midway: the migrations and the seed are each one transaction, so a second run finds them
 * whole or not at all). Any other error ends the start. docs/server.md "Database outages".
 */
async function untilAvailable<T>(fn: () => Promise<T>, database: Database): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (database.kind !== 'postgres' || !isDatabaseUnavailable(err)) throw err;
      const waitMs = Math.min(START_RETRY_MAX_MS, 250 * 2 ** attempt);
      console.error(
        `The database is unavailable (${describeUnavailable(err)}): start-up attempt ${attempt} failed, trying again in ${waitMs} ms.`,
      );
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }
}

/**
 * SIGTERM / SIGINT (docs/server.md "Shutdown"): stop accepting connections and close the idle keep-alive ones;
 * requests in progress finish, and any request arriving meanwhile (on a connection still open) gets a 503 envelope;
 * after `timeoutMs` the remaining connections are closed. Then the app's close hooks, the database (which releases
 * the data dir lock), and exit 0. A second signal closes every connection at once.
 */
function stopOnSignals(app: FastifyInstance, database: Database, timeoutMs: number) {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: closing every connection now');
      app.server.closeAllConnections();
      return;
    }
    stopping = true;
    app.log.info({ signal, timeoutMs }, 'shutting down');
    // Whatever happens below, the process ends shortly after the deadline.
    setTimeout(() => {
      app.log.error('shutdown did not finish in time: exiting');
      process.exit(1);
    }, timeoutMs + 1500).unref();
    shutdown(app, database, timeoutMs).then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function shutdown(app: FastifyInstance, database: Database, timeoutMs: number) {
  const server = app.server;
  refuseNewRequests(server);
  // close() stops accepting and closes the connections idle right now; one whose request finishes later becomes idle
  // then, so idle ones are swept until every connection is gone.
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), timeoutMs)));
  try {
    if ((await Promise.race([drained, deadline])) === 'deadline') {
      app.log.warn({ timeoutMs }, 'shutdown deadline reached: closing the remaining connections');
      server.closeAllConnections();
      await drained;
    }
  } finally {
    clearInterval(sweep);
    clearTimeout(timer);
  }
  await app.close();
  await database.close();
  app.log.info('stopped');
}

/**
 * From now on every request is answered 503 in the API envelope, in the request's language, and its connection
 * closed — before the app sees it, so a request that arrives while the server stops never starts any work.
 */
function refuseNewRequests(server: Server) {
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify(fail(503, render(messages.shuttingDown, langOf(req.headers['accept-language']))));
    res.writeHead(503, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
      'retry-after': '5',
    });
    res.end(body);
  });
}
