import fs from 'node:fs';
import path from 'node:path';
import { hkdfSync } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { API_DOCS, API_PREFIX, API_ROOT, isApiCall } from '@atrium/contract';
import type { Config } from './config.ts';
import { availabilityOf, type Db } from './db/client.ts';
import { apiRuleMatches, apiRules, isPlatformAdmin } from './platform/access.ts';
import { Cache } from './platform/cache.ts';
import { checkAnswers } from './platform/contract-route.ts';
import { fail } from './platform/envelope.ts';
import { langOf, render, texts } from './platform/errors.ts';
import { registerGuard } from './platform/guard.ts';
import { registerHealth } from './platform/health.ts';
import { registerHttpBasics } from './platform/http.ts';
import { createMetricsRegistry, registerPlatformMetrics, registerRequestMetrics } from './platform/metrics.ts';
import { requestIdOf } from './platform/request-id.ts';
import { LiveGuesses, readLiveState, speculate } from './platform/live.ts';
import { LiveMemory, watchLive } from './platform/live-memory.ts';
import { registerRateLimit } from './platform/rate-limit.ts';
import type { Services } from './platform/services.ts';
import type { Module } from './platform/resource.ts';
import { TokenService } from './platform/tokens.ts';
import { permissionCodes } from './modules/menu/index.ts';

/** zod schemas go through the zod provider; plain JSON response schemas (platform/response.ts) are already JSON. */
const openApiTransform: typeof jsonSchemaTransform = (doc) => {
  const response = (doc.schema as { response?: Record<string, unknown> } | undefined)?.response;
  const plain = response && Object.values(response).every((r) => r && typeof r === 'object' && 'type' in r);
  if (!plain) return jsonSchemaTransform(doc);
  const out = jsonSchemaTransform({ ...doc, schema: { ...doc.schema, response: undefined } });
  return { ...out, schema: { ...out.schema, response } };
};

/**
 * Modules are found, not listed: every `modules/<name>/index.ts` (the module's public entry) exports its Fastify plugin
 * as default (docs/server.md "Module boundaries"), so a new module touches no shared file. Each is registered with
 * `app.register`, in a context of its own: its hooks and decorations stay with its routes, while the guard, the
 * request decorations and the route table of the root reach them.
 */
async function registerModules(app: FastifyInstance, services: Services) {
  const dir = fileURLToPath(new URL('./modules', import.meta.url));
  for (const name of fs.readdirSync(dir).sort()) {
    const file = ['index.ts', 'index.js'].map((f) => path.join(dir, name, f)).find((f) => fs.existsSync(f));
    if (!file) continue;
    const mod = (await import(pathToFileURL(file).href)) as { default: Module };
    await app.register(async (scope) => mod.default(scope, services));
  }
}

/** The encodings the web build writes beside each compressible file (apps/web/vite.config.ts `precompress`). */
const ENCODED = /\.(br|gz)$/;

/** The console's scripts and style sheets (hashed names under `/assets/`), which a browser never renders as a page. */
const SCRIPT_OR_STYLE = /^\/assets\/[^?#]*\.(js|css)([?#]|$)/;

/**
 * The built console (docs/server.md "Static files"): each file is sent as its `.br` or `.gz` sibling when the
 * request accepts that encoding (brotli first, then gzip, else the file itself). Hashed files under `assets/` never
 * change, so browsers keep them for a year; `index.html` (and the SPA fallback, which is index.html) is
 * revalidated on every load, so a new build is seen at once.
 */
async function registerWeb(app: FastifyInstance, root: string) {
  const variants = new Set<string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) walk(file);
      else if (ENCODED.test(e.name)) variants.add(file.replace(ENCODED, ''));
    }
  };
  walk(root);
  const assets = path.join(root, 'assets') + path.sep;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    // Cache-Control is set below, per file.
    cacheControl: false,
    setHeaders: (res, file) => {
      const plain = file.replace(ENCODED, '');
      if (variants.has(plain)) res.setHeader('vary', 'Accept-Encoding');
      if (plain.startsWith(assets)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      else if (path.basename(plain) === 'index.html') res.setHeader('cache-control', 'no-cache');
      else res.setHeader('cache-control', 'public, max-age=3600');
    },
  });
}

export type AppDeps = {
  config: Config;
  db: Db;
  signingKey: string;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
};

export type RouteEntry = {
  method: string;
  url: string;
  auth: 'none' | 'user';
  permission?: string | string[];
  platform?: boolean;
};

/** The options of helmet's security headers (the same for every answer). */
export const SECURITY_HEADERS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      // Live video: hls.js plays through a MediaSource (a blob: URL) (docs/devices.md "Live video").
      mediaSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameSrc: ["'self'", 'https:', 'http:'],
      objectSrc: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/**
 * The services of one app (what every module gets, platform/services.ts), its registry still empty: `buildApp` hands
 * them to the modules; a test that calls services without the app builds its own here.
 */
export function createServices(deps: Pick<AppDeps, 'config' | 'db' | 'signingKey' | 'now'>): Services {
  const now = deps.now ?? (() => new Date());
  const services: Services = {
    db: deps.db,
    config: deps.config,
    tokens: new TokenService(deps.signingKey, now),
    now,
    cache: new Cache(),
    liveGuesses: new LiveGuesses(),
    liveMemory: new LiveMemory(),
    deriveKey: (purpose) => Buffer.from(hkdfSync('sha256', deps.signingKey, 'atrium', purpose, 32)),
    permissionCodes: (tenantId, roleIds) => permissionCodes(services, tenantId, roleIds),
    metrics: createMetricsRegistry(),
    registry: { bindings: new Map(), scopeResources: new Map() },
  };
  return services;
}

export async function buildApp(
  deps: AppDeps,
): Promise<{ app: FastifyInstance; services: Services; routeTable: RouteEntry[] }> {
  const app = Fastify({
    logger: deps.logger ?? false,
    // The proxy's X-Request-Id when it looks like one, else a new id (docs/deploy.md "Request ids").
    requestIdHeader: false,
    genReqId: requestIdOf,
    bodyLimit: 2 * 1024 * 1024,
    // X-Forwarded-For is believed only from the proxies named in ATRIUM_TRUST_PROXY: the client IP stored for
    // logins, sessions and rate limits cannot be forged by a client.
    trustProxy: deps.config.trustProxy.length ? deps.config.trustProxy : false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  const services = createServices(deps);

  // Security headers: helmet's, which depend on nothing of the request, are worked out once at start and set on every
  // answer as one object (docs/server.md "Security headers"); running helmet's middleware chain per request cost more.
  const securityHeaders = staticHeadersOf(helmet(SECURITY_HEADERS));
  const apiHeaders = apiHeadersOf(securityHeaders);
  const assetHeaders = assetHeadersOf(securityHeaders);
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(isApiCall(req.url) ? apiHeaders : SCRIPT_OR_STYLE.test(req.url) ? assetHeaders : securityHeaders);
    done();
  });
  // Cookies are written (the files cookie, platform/file-access.ts) and parsed only where read: no parsing hook.
  await app.register(cookie, { hook: false });
  await app.register(multipart, { limits: { fileSize: deps.config.uploadMaxBytes, files: 1, fields: 20 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Atrium API', version: '0.1.0' },
      components: { securitySchemes: { bladeAuth: { type: 'apiKey', in: 'header', name: 'Blade-Auth' } } },
    },
    transform: openApiTransform,
  });
  await app.register(swaggerUi, { routePrefix: API_DOCS, uiConfig: { docExpansion: 'none' }, staticCSP: true });

  // The route table, as registered: tests derive the permission and isolation matrices from it.
  const routeTable: RouteEntry[] = [];
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    if (!isApiCall(r.url)) return;
    for (const method of methods)
      if (method !== 'HEAD')
        routeTable.push({
          method,
          url: r.url,
          auth: r.config?.auth ?? 'user',
          permission: r.config?.permission,
          platform: r.config?.platform,
        });
  });

  // The live state held in memory, fed by the database's write events (docs/server.md "Live state and cache epochs").
  const unwatchLive = await watchLive(deps.db, services.liveMemory);
  app.addHook('onClose', async () => unwatchLive());

  const availability = availabilityOf(deps.db);
  registerHttpBasics(app, availability, deps.config.serverName);
  // Health, readiness and metrics (docs/deploy.md): the request timing only when metrics are served.
  registerHealth(app, services, availability);
  registerPlatformMetrics(services.metrics, deps.db, availability);
  if (deps.config.metrics.enabled) registerRequestMetrics(app, services.metrics);
  // The tests hold every declared route's answer to its schema (docs/api.md "Answers").
  if (deps.config.env === 'test') checkAnswers(app);
  registerGuard(app, services.tokens, {
    live: (claims) => readLiveState(services, claims),
    speculate: (claims) => speculate(services, claims),
    codes: services.permissionCodes,
    apiGranted: async (tenantId, roleIds, method, url, wanted) =>
      apiRuleMatches(await apiRules(services, tenantId, roleIds), method, url, wanted),
    isPlatformAdmin: (auth) => isPlatformAdmin(services, auth),
  });

  await registerRateLimit(app);
  await registerModules(app, services);

  const hasWeb = fs.existsSync(path.join(deps.config.webDist, 'index.html'));
  if (hasWeb) await registerWeb(app, deps.config.webDist);
  app.setNotFoundHandler((req, reply) => {
    const page = req.method === 'GET' || req.method === 'HEAD';
    if (req.url.startsWith(API_PREFIX) || req.url === API_ROOT || !page) {
      return reply.status(404).send(fail(404, render(texts.pathNotFound, langOf(req.headers['accept-language']))));
    }
    if (!hasWeb) return reply.status(404).type('text/plain').send('The web app is not built: run `npm run build`.');
    // A missing asset is a 404, not the console's HTML (a browser would refuse it as a script anyway).
    if (/^\/assets\/|\.[a-z0-9]{1,8}$/i.test(req.url.split('?')[0]))
      return reply.status(404).type('text/plain').send('Not found');
    // SPA fallback: every other path is a console route, answered with index.html (compressed like the files).
    return reply.sendFile('index.html');
  });

  return { app, services, routeTable };
}

/**
 * The headers of an API answer (JSON, or a file a call returns), which no browser renders as a page: what guards data
 * (`nosniff`, a policy that loads nothing and frames nothing, no referrer, same-origin resource policy, HSTS) and
 * `no-store` — an answer read with a token is never kept by a cache; a call whose answer may be kept sets its own
 * `Cache-Control` over it. The page-only headers of helmet (script and style sources, window isolation) stay with the console's
 * pages and files. docs/server.md "Security headers".
 */
export function apiHeadersOf(page: Record<string, string>): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    ...(page['strict-transport-security'] ? { 'strict-transport-security': page['strict-transport-security'] } : {}),
    'cache-control': 'no-store',
  };
}

/**
 * The headers of the console's scripts and style sheets: what a subresource uses — `nosniff` (a script or style
 * sheet is run only with its own type), same-origin resource policy, no referrer for what a style sheet loads, HSTS.
 * The page-only headers (the CSP, frame and window isolation, the old-IE ones) act on documents only, and at ≈ 530
 * bytes an answer they were a fifth of a small chunk's bytes on the wire. docs/server.md "Security headers".
 */
export function assetHeadersOf(page: Record<string, string>): Record<string, string> {
  const keep = [
    'x-content-type-options',
    'cross-origin-resource-policy',
    'referrer-policy',
    'strict-transport-security',
  ];
  return Object.fromEntries(Object.entries(page).filter(([k]) => keep.includes(k)));
}

/**
 * The headers a helmet middleware sets, read by running it once on a stand-in answer. Helmet's headers are fixed by
 * its options (no nonce, nothing read from the request); `test/auth.test.ts` compares them with the middleware's own.
 */
export function staticHeadersOf(
  middleware: (req: never, res: never, next: (err?: unknown) => void) => void,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  let done = false;
  // Stand-ins for node's request and response with only what a header middleware (helmet) reads and calls.
  middleware({ headers: {}, method: 'GET', url: '/' } as never, res as never, (err) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('staticHeadersOf: the middleware did not finish at once');
  return headers;
}
