import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { apiRuleMatches, apiRules, isPlatformAdmin, stillMustChange } from './platform/access.ts';
import { Cache } from './platform/cache.ts';
import { fail } from './platform/envelope.ts';
import { langOf, render, texts } from './platform/errors.ts';
import { registerGuard } from './platform/guard.ts';
import { registerHttpBasics } from './platform/http.ts';
import type { Services } from './platform/services.ts';
import type { Module } from './platform/resource.ts';
import { TokenService } from './platform/tokens.ts';
import { loadRevokedSessions } from './modules/auth/service.ts';
import { permissionCodes } from './modules/menu/service.ts';

/** zod schemas go through the zod provider; plain JSON response schemas (platform/response.ts) are already JSON. */
const openApiTransform: typeof jsonSchemaTransform = (doc) => {
  const response = (doc.schema as { response?: Record<string, unknown> } | undefined)?.response;
  const plain = response && Object.values(response).every((r) => r && typeof r === 'object' && 'type' in r);
  if (!plain) return jsonSchemaTransform(doc);
  const out = jsonSchemaTransform({ ...doc, schema: { ...doc.schema, response: undefined } });
  return { ...out, schema: { ...out.schema, response } };
};

/**
 * Modules are found, not listed: every `modules/<name>/module.ts` exports a Fastify plugin as default
 * (docs/resources.md "Modules"), so a new module touches no shared file.
 */
async function registerModules(app: FastifyInstance, services: Services) {
  const dir = fileURLToPath(new URL('./modules', import.meta.url));
  for (const name of fs.readdirSync(dir).sort()) {
    const file = ['module.ts', 'module.js'].map((f) => path.join(dir, name, f)).find((f) => fs.existsSync(f));
    if (!file) continue;
    const mod = (await import(pathToFileURL(file).href)) as { default: Module };
    await mod.default(app, services);
  }
}

export type AppDeps = {
  config: Config;
  db: Db;
  signingKey: string;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  /** Test harnesses only: learn the code of each captcha drawn. The production start never sets it. */
  onCaptcha?: (key: string, text: string) => void;
};

export type RouteEntry = {
  method: string;
  url: string;
  auth: 'none' | 'user';
  permission?: string | string[];
  platform?: boolean;
};

export async function buildApp(
  deps: AppDeps,
): Promise<{ app: FastifyInstance; services: Services; routeTable: RouteEntry[] }> {
  const now = deps.now ?? (() => new Date());
  const app = Fastify({
    logger: deps.logger ?? false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
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

  const services: Services = {
    db: deps.db,
    config: deps.config,
    tokens: new TokenService(deps.signingKey, now),
    now,
    cache: new Cache(),
    onCaptcha: deps.onCaptcha,
  };
  await loadRevokedSessions(services, 24 * 3600);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'https:', 'http:'],
        objectSrc: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: deps.config.uploadMaxBytes, files: 1, fields: 20 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Atrium API', version: '0.1.0' },
      components: { securitySchemes: { bladeAuth: { type: 'apiKey', in: 'header', name: 'Blade-Auth' } } },
    },
    transform: openApiTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'none' }, staticCSP: true });

  // The route table, as registered: tests derive the permission and isolation matrices from it.
  const routeTable: RouteEntry[] = [];
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    if (!r.url.startsWith('/api/') || r.url.startsWith('/api/docs')) return;
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

  registerHttpBasics(app);
  registerGuard(app, services.tokens, {
    codes: (tenantId, roleIds) => permissionCodes(services, tenantId, roleIds),
    apiGranted: async (tenantId, roleIds, method, url, wanted) =>
      apiRuleMatches(await apiRules(services, tenantId, roleIds), method, url, wanted),
    isPlatformAdmin: (auth) => isPlatformAdmin(services, auth),
    stillMustChange: (auth) => stillMustChange(services, auth),
  });

  await registerModules(app, services);

  const index = path.join(deps.config.webDist, 'index.html');
  const hasWeb = fs.existsSync(index);
  if (hasWeb) {
    await app.register(fastifyStatic, { root: deps.config.webDist, wildcard: false, index: false, maxAge: '1h' });
  }
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || req.url === '/api' || req.method !== 'GET') {
      return reply.status(404).send(fail(404, render(texts.pathNotFound, langOf(req.headers['accept-language']))));
    }
    if (!hasWeb) return reply.status(404).type('text/plain').send('The web app is not built: run `npm run build`.');
    // A missing asset is a 404, not the console's HTML (a browser would refuse it as a script anyway).
    if (/^\/assets\/|\.[a-z0-9]{1,8}$/i.test(req.url.split('?')[0]))
      return reply.status(404).type('text/plain').send('Not found');
    // SPA fallback: every other path is a console route.
    return reply.header('cache-control', 'no-cache').type('text/html').send(fs.createReadStream(index));
  });

  return { app, services, routeTable };
}
