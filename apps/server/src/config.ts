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
  ATRIUM_UPLOAD_DIR: z.string().min(1).optional(),
  // Private networks an S3-compatible endpoint may lie in (docs/system-api.md "Files"); none by default.
  ATRIUM_OSS_PRIVATE_NETWORKS: z
    .string()
    .regex(
      /^\s*[0-9a-fA-F.:]+\/\d{1,3}(\s*,\s*[0-9a-fA-F.:]+\/\d{1,3})*\s*$/,
      'must be a comma list of CIDR ranges such as 10.0.0.0/8',
    )
    .optional(),
  // Private networks a tenant's data source may lie in (docs/tenants.md "Data sources"); none by default.
  ATRIUM_DATASOURCE_PRIVATE_NETWORKS: z
    .string()
    .regex(
      /^\s*[0-9a-fA-F.:]+\/\d{1,3}(\s*,\s*[0-9a-fA-F.:]+\/\d{1,3})*\s*$/,
      'must be a comma list of CIDR ranges such as 10.0.0.0/8',
    )
    .optional(),
  ATRIUM_TIME_ZONE: z.string().default('Asia/Shanghai'),
  ATRIUM_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  ATRIUM_TRUST_PROXY: z
    .string()
    .regex(
      /^\s*[0-9a-fA-F.:]+(\/\d{1,3})?(\s*,\s*[0-9a-fA-F.:]+(\/\d{1,3})?)*\s*$/,
      'must be a comma list of proxy addresses or CIDR ranges',
    )
    .optional(),
  // Device access (docs/devices.md "Device access"): the embedded MQTT broker's port (0 = off), or an external broker.
  // This server's name in a cluster (docs/cluster.md "The script"): answered as X-Atrium-Server on every request.
  ATRIUM_SERVER_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be a name of letters, digits, _, . or -')
    .optional(),
  ATRIUM_MQTT_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  ATRIUM_MQTT_URL: z
    .string()
    .regex(/^(mqtts?|tcp|tls|wss?):\/\/[^\s]+$/, 'must be a broker URL such as mqtt://127.0.0.1:1883')
    .optional(),
  // Anonymous MQTT connections to the embedded broker (docs/devices.md "Who may connect and publish"); off by default.
  ATRIUM_MQTT_ANONYMOUS: z.enum(['on', 'off']).default('off'),
  // The shared subscription group at an external broker (docs/cluster.md "Device messages once"); off: every server
  // receives every message.
  ATRIUM_MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a group name of letters, digits, _ or - (or off)')
    .default('atrium'),
  ATRIUM_DEVICE_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  // Live video (docs/devices.md "Live video").
  ATRIUM_FFMPEG: z.string().min(1).optional(),
  // The workflow engine's worker threads (docs/workflow.md "Worker threads"), read by modules/flow/engine/pool.ts;
  // checked here so a bad value stops the start. Unset: the cores − 1, at least 1.
  ATRIUM_FLOW_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  ATRIUM_MAX_STREAMS: z.coerce.number().int().min(1).max(1000).default(16),
  // Fair shares of the cap (docs/devices.md "Fair shares"); unset: half the cap per tenant, a quarter per user.
  ATRIUM_MAX_STREAMS_PER_TENANT: z.coerce.number().int().min(1).max(1000).optional(),
  ATRIUM_MAX_STREAMS_PER_USER: z.coerce.number().int().min(1).max(1000).optional(),
  ATRIUM_STREAM_IDLE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  ATRIUM_STREAM_START_SECONDS: z.coerce.number().int().min(1).max(60).default(8),
  ATRIUM_STREAM_TOKEN_SECONDS: z.coerce.number().int().min(10).max(3600).default(120),
  ATRIUM_STREAM_RESTARTS: z.coerce.number().int().min(0).max(20).default(3),
  // Several servers (docs/cluster.md "Live video across servers"): where the others reach this one (unset:
  // http://127.0.0.1:<port>), and how long a stream owner's lease lasts without its heartbeat.
  ATRIUM_INTERNAL_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+\/?$/, 'must be a base URL such as http://10.0.0.5:8080 (no path)')
    .optional(),
  ATRIUM_STREAM_LEASE_SECONDS: z.coerce.number().int().min(2).max(60).default(5),
  // Prometheus metrics on a port of their own (docs/deploy.md "Metrics"); unset: no metrics endpoint.
  ATRIUM_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  ATRIUM_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  ATRIUM_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
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
  /**
   * The server's disk store of uploads (ATRIUM_UPLOAD_DIR, default `<dataDir>/uploads`): one folder every server of a
   * cluster shares (docs/cluster.md "Uploads"), since any of them may be asked for a file another stored.
   */
  uploadDir: string;
  uploadMaxBytes: number;
  /** Private networks (CIDR) where an S3-compatible endpoint may lie; every other private address is refused. */
  ossPrivateNetworks: string[];
  /** Private networks (CIDR) where a tenant's data source may lie; every other private address is refused. */
  datasourcePrivateNetworks: string[];
  timeZone: string;
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDR ranges); none by default. */
  trustProxy: string[];
  /** This server's name among several (ATRIUM_SERVER_NAME), answered as X-Atrium-Server; absent: no header. */
  serverName?: string;
  /** How long a shutdown waits for requests in progress before closing their connections. */
  shutdownTimeoutMs: number;
  /**
   * Device access over MQTT (docs/devices.md "Device access"). `port`: the embedded broker's TCP port, null = no
   * embedded broker (0 here means a port the system picks, for tests); `portExplicit`: set by ATRIUM_MQTT_PORT (a
   * default port that is taken only logs an error, an explicit one stops the start); `url`: an external broker the
   * server subscribes to instead; `heartbeatSeconds`: a device silent for 3 of these goes offline.
   */
  mqtt: {
    port: number | null;
    portExplicit: boolean;
    url?: string;
    heartbeatSeconds: number;
    /** The embedded broker accepts a CONNECT without credentials (ATRIUM_MQTT_ANONYMOUS=on); absent = false. */
    anonymous?: boolean;
    /**
     * An external broker's messages are shared among the servers of this group (`$share/<group>/…`,
     * ATRIUM_MQTT_SHARE_GROUP, default `atrium`); null (`off`): every server receives every message. Absent = atrium.
     */
    shareGroup?: string | null;
  };
  /** Live video (docs/devices.md "Live video"). */
  video: VideoConfig;
  /**
   * The Prometheus endpoint (docs/deploy.md "Metrics"): served on `port` of `host` (never on the main port) when
   * `enabled`; `token`, when set, is asked as `Authorization: Bearer <token>`. Off: no request timing at all.
   */
  metrics: { enabled: boolean; port: number; host: string; token?: string };
};

export type VideoConfig = {
  /**
   * ATRIUM_FFMPEG: the ffmpeg executable (a name looked up on PATH, or a path); unset, an `ffmpeg` on PATH, else the
   * npm package's static binary (modules/video/ffmpeg.ts, docs/devices.md "Which ffmpeg").
   */
  ffmpeg?: string;
  /** Streams running at once on this server; one more is a 429. */
  maxStreams: number;
  /** Streams one tenant may have running (a share of the cap; docs/devices.md "Fair shares"). */
  maxStreamsPerTenant: number;
  /** Streams charged to one user (their share of the tenant's). */
  maxStreamsPerUser: number;
  /** A stream nobody touched for this long is stopped. */
  idleSeconds: number;
  /** How long queryDeviceVideo waits for the first playable segment before it answers why not. */
  startSeconds: number;
  /** Lifetime of the signed token in an HLS address. */
  tokenSeconds: number;
  /** Restarts of a stream whose source dropped, before it is reported failed. */
  restarts: number;
  /**
   * ATRIUM_INTERNAL_URL: where the other servers of a cluster reach this one for the streams it runs (docs/cluster.md
   * "Live video across servers"); unset: http://127.0.0.1:<the port bound>.
   */
  internalUrl?: string;
  /** A stream owner's lease: its streams are taken over when it has not renewed it (every second) for this long. */
  leaseSeconds: number;
};

/** The embedded MQTT broker's port when ATRIUM_MQTT_PORT is not set (1883 is left to a Mosquitto of the machine). */
export const DEFAULT_MQTT_PORT = 1884;

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
    uploadDir: path.resolve(e.ATRIUM_UPLOAD_DIR ?? path.join(e.ATRIUM_DATA_DIR, 'uploads')),
    uploadMaxBytes: e.ATRIUM_UPLOAD_MAX_KB * 1024,
    ossPrivateNetworks: (e.ATRIUM_OSS_PRIVATE_NETWORKS ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
    datasourcePrivateNetworks: (e.ATRIUM_DATASOURCE_PRIVATE_NETWORKS ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
    timeZone: e.ATRIUM_TIME_ZONE,
    trustProxy: (e.ATRIUM_TRUST_PROXY ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
    serverName: e.ATRIUM_SERVER_NAME,
    shutdownTimeoutMs: e.ATRIUM_SHUTDOWN_TIMEOUT_MS,
    mqtt: {
      // Default 1884 (the machine's own Mosquitto may hold 1883); off by default under NODE_ENV=test, where many
      // servers start at once; ATRIUM_MQTT_PORT=0 turns it off; an external broker (ATRIUM_MQTT_URL) replaces it.
      port: e.ATRIUM_MQTT_URL
        ? null
        : e.ATRIUM_MQTT_PORT !== undefined
          ? e.ATRIUM_MQTT_PORT || null
          : e.NODE_ENV === 'test'
            ? null
            : DEFAULT_MQTT_PORT,
      portExplicit: e.ATRIUM_MQTT_PORT !== undefined,
      url: e.ATRIUM_MQTT_URL,
      heartbeatSeconds: e.ATRIUM_DEVICE_HEARTBEAT_SECONDS,
      anonymous: e.ATRIUM_MQTT_ANONYMOUS === 'on',
      shareGroup: e.ATRIUM_MQTT_SHARE_GROUP === 'off' ? null : e.ATRIUM_MQTT_SHARE_GROUP,
    },
    video: {
      ffmpeg: e.ATRIUM_FFMPEG,
      maxStreams: e.ATRIUM_MAX_STREAMS,
      maxStreamsPerTenant: e.ATRIUM_MAX_STREAMS_PER_TENANT ?? Math.ceil(e.ATRIUM_MAX_STREAMS / 2),
      maxStreamsPerUser: e.ATRIUM_MAX_STREAMS_PER_USER ?? Math.ceil(e.ATRIUM_MAX_STREAMS / 4),
      idleSeconds: e.ATRIUM_STREAM_IDLE_SECONDS,
      startSeconds: e.ATRIUM_STREAM_START_SECONDS,
      tokenSeconds: e.ATRIUM_STREAM_TOKEN_SECONDS,
      restarts: e.ATRIUM_STREAM_RESTARTS,
      internalUrl: e.ATRIUM_INTERNAL_URL?.replace(/\/$/, ''),
      leaseSeconds: e.ATRIUM_STREAM_LEASE_SECONDS,
    },
    metrics: {
      enabled: e.ATRIUM_METRICS_PORT !== undefined,
      port: e.ATRIUM_METRICS_PORT ?? 0,
      host: e.ATRIUM_METRICS_HOST,
      token: e.ATRIUM_METRICS_TOKEN,
    },
  };
  // Metrics reachable from other machines are asked for a token: they name routes, rates and queue lengths.
  if (config.metrics.enabled && !isLoopback(config.metrics.host) && !config.metrics.token)
    throw new ConfigError(
      'Invalid configuration:\n  ATRIUM_METRICS_TOKEN: needed when ATRIUM_METRICS_HOST is not a loopback address (16+ characters)',
    );
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

/** Whether `host` is a loopback address or name (only this machine can reach it). */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
