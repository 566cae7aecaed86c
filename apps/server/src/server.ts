import { performance } from 'node:perf_hooks';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { seedIfEmpty } from './db/seed.ts';
import { resolveSigningKey } from './db/signing-key.ts';
import { loggerOptions } from './platform/logging.ts';
import { buildApp } from './app.ts';

export type StartOptions = { onCaptcha?: (key: string, text: string) => void };

/** Reads config, opens and migrates the database, seeds it when empty, and listens. */
export async function start(opts: StartOptions = {}) {
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
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const seeded = await seedIfEmpty(database.db, { adminPassword: config.adminPassword });
  const { key, source } = await resolveSigningKey(config, database);
  const { app } = await buildApp({
    config,
    db: database.db,
    signingKey: key,
    onCaptcha: opts.onCaptcha,
    logger: loggerOptions(config.logLevel),
  });
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

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
  return app;
}
