import path from 'node:path';
import { z } from 'zod';

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  ATRIUM_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  ATRIUM_JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ATRIUM_ADMIN_PASSWORD: z.string().min(1).optional(),
  ATRIUM_CAPTCHA: z.enum(['on', 'off']).default('on'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ATRIUM_WEB_DIST: z.string().optional(),
  ATRIUM_UPLOAD_MAX_KB: z.coerce.number().int().positive().default(10240),
  ATRIUM_TIME_ZONE: z.string().default('Asia/Shanghai'),
  ATRIUM_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  ATRIUM_TRUST_PROXY: z
    .string()
    .regex(
      /^\s*[0-9a-fA-F.:]+(\/\d{1,3})?(\s*,\s*[0-9a-fA-F.:]+(\/\d{1,3})?)*\s*$/,
      'must be a comma list of proxy addresses or CIDR ranges',
    )
    .optional(),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  jwtSecret?: string;
  adminPassword?: string;
  captchaRequired: boolean;
  logLevel: string;
  webDist: string;
  uploadMaxBytes: number;
  timeZone: string;
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDR ranges); none by default. */
  trustProxy: string[];
  /** How long a shutdown waits for requests in progress before closing their connections. */
  shutdownTimeoutMs: number;
};

export class ConfigError extends Error {}

/** Reads the environment once; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(clean);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const config: Config = {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir: path.resolve(e.ATRIUM_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.ATRIUM_JWT_SECRET,
    adminPassword: e.ATRIUM_ADMIN_PASSWORD,
    captchaRequired: e.ATRIUM_CAPTCHA === 'on',
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.ATRIUM_WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    uploadMaxBytes: e.ATRIUM_UPLOAD_MAX_KB * 1024,
    timeZone: e.ATRIUM_TIME_ZONE,
    trustProxy: (e.ATRIUM_TRUST_PROXY ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
    shutdownTimeoutMs: e.ATRIUM_SHUTDOWN_TIMEOUT_MS,
  };
  if (config.env === 'production') {
    const problems: string[] = [];
    if (!config.jwtSecret)
      problems.push('  ATRIUM_JWT_SECRET: production needs its own token signing key (32+ characters)');
    if (!config.adminPassword || config.adminPassword === 'admin')
      problems.push('  ATRIUM_ADMIN_PASSWORD: production refuses the default admin password');
    if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return config;
}
