import fs from 'node:fs/promises';
import path from 'node:path';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { encodeMsg } from '@atrium/contract';
import { dataScopeSql } from '../../platform/access.ts';
import { ok } from '../../platform/envelope.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { regionPrefix } from '../../platform/paging.ts';
import { defineModule } from '../../platform/resource.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { addOwnPort, checkCameraUrl, refusalText, type AddressCheck, cameraDevice } from '../device/index.ts';
import { unseal } from '../outbox/index.ts';
import { region } from '../region/index.ts';
import { failureTexts, videoTexts as texts } from './messages.ts';
import { PTZ_COMMANDS, PtzClients, PtzError } from './ptz.ts';
import { PLAYLIST, SEGMENT, StreamError, StreamManager, type Stream } from './streams.ts';
import { readHls, signHls } from './token.ts';

const tags = ['video'];
const BASE = '/api/video';
/** The permission of every call: the monitoring screen's menu code (seed `video_monitor`). */
const CODE = 'video_monitor';
/** The camera resource whose data scope decides which cameras a caller sees (docs/devices.md). */
const CAMERA_RESOURCE = 'cameradevice';
const MAX_ID = 9223372036854775807n;
const DISABLED = 2;

/** The stream manager of each app (tests reach it to move time and count processes). */
export const managers = new WeakMap<Services, StreamManager>();

const idParam = (m: { zh: string; en: string }) =>
  z
    .string({ error: encodeMsg(m) })
    .regex(/^\d{1,19}$/, encodeMsg(m))
    // Refinements run after a failed pattern too: BigInt only sees digits.
    .refine((v) => /^\d{1,19}$/.test(v) && BigInt(v) <= MAX_ID, encodeMsg(m));

/**
 * Live video (docs/devices.md "Live video"): start or join a camera's HLS stream, keep it alive by touches, serve
 * its playlist and segments to the holder of a signed token, list the cameras of a region for the wall, and steer
 * PTZ through ONVIF.
 */
export default defineModule(async (root, s) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const cfg = s.config.video;
  const manager = new StreamManager({
    dir: path.join(s.config.dataDir, 'video'),
    ffmpeg: cfg.ffmpeg,
    maxStreams: cfg.maxStreams,
    maxPerTenant: cfg.maxStreamsPerTenant,
    maxPerUser: cfg.maxStreamsPerUser,
    idleMs: cfg.idleSeconds * 1000,
    startMs: cfg.startSeconds * 1000,
    restarts: cfg.restarts,
    now: () => s.now().getTime(),
    log: root.log,
  });
  managers.set(s, manager);
  const ptz = new PtzClients();
  const hlsKey = s.deriveKey('video-hls/v1');
  root.addHook('onReady', async () => manager.start());
  // Every ffmpeg ends with the server (docs/server.md "Shutdown": the app's close hooks run before the database closes).
  root.addHook('onClose', async () => {
    await manager.close();
    ptz.clear();
  });

  const scope = (auth: AuthContext) =>
    dataScopeSql(s, auth, {
      code: CAMERA_RESOURCE,
      owner: cameraDevice.createUser,
      dept: cameraDevice.createDept,
      region: cameraDevice.regionCode,
      client: cameraDevice.clientId,
      columns: {
        regionCode: { column: cameraDevice.regionCode, kind: 'text' },
        clientId: { column: cameraDevice.clientId, kind: 'id' },
        deviceCode: { column: cameraDevice.deviceCode, kind: 'text' },
        deviceType: { column: cameraDevice.deviceType, kind: 'text' },
      },
    });

  /** One camera of the caller's tenant and data scope, or 404. */
  async function cameraOf(auth: AuthContext, id: string) {
    const where = await scope(auth);
    const [row] = await withTenant(s.db, auth.tenantId, (tx) =>
      tx
        .select({
          id: cameraDevice.id,
          status: cameraDevice.status,
          ptz: cameraDevice.ptz,
          streamUrl: cameraDevice.streamUrl,
          streamUrlSealed: cameraDevice.streamUrlSealed,
          onvifUrl: cameraDevice.onvifUrl,
          onvifUser: cameraDevice.onvifUser,
          onvifPasswordSealed: cameraDevice.onvifPasswordSealed,
        })
        .from(cameraDevice)
        .where(
          and(eq(cameraDevice.tenantId, auth.tenantId), eq(cameraDevice.id, id), eq(cameraDevice.isDeleted, 0), where),
        )
        .limit(1),
    );
    if (!row) throw notFound();
    return row;
  }

  function address(stream: Stream, auth: AuthContext) {
    const exp = Math.floor(s.now().getTime() / 1000) + cfg.tokenSeconds;
    const token = signHls(hlsKey, { streamId: stream.id, tenantId: auth.tenantId, userId: auth.userId, exp });
    return {
      streamId: stream.id,
      hls: `${BASE}/hls/${stream.id}/${PLAYLIST}?token=${encodeURIComponent(token)}`,
      // The low-latency path (docs/devices.md "Low latency"): fragmented MP4 over a WebSocket, same token.
      live: `${BASE}/live/${stream.id}?token=${encodeURIComponent(token)}`,
      expiresAt: new Date(exp * 1000).toISOString(),
      state: stream.state,
    };
  }

  /** A client account is not staff: it reads one text for every failure of the source (docs/devices.md). */
  const isClient = (auth: AuthContext) => !!auth.clientInfoId;

  /** The cap and the fair shares (docs/devices.md "Fair shares"): each refusal names the limit reached. */
  const LIMITS: ReadonlySet<StreamError['reason']> = new Set(['full', 'fullTenant', 'fullUser']);
  const streamFailure = (auth: AuthContext, reason: StreamError['reason']) =>
    LIMITS.has(reason) || reason === 'ffmpegMissing'
      ? new AppError(LIMITS.has(reason) ? 429 : 500, failureTexts[reason])
      : new AppError(400, isClient(auth) ? texts.cannotPlay : failureTexts[reason]);

  /**
   * A camera URL checked again right before the server connects (the tenant's networks may have changed, the name
   * may resolve elsewhere now): the URL to connect to (host pinned to the address checked), or the refusal.
   */
  async function allowed(auth: AuthContext, raw: string, clientText: { zh: string; en: string }): Promise<string> {
    let checked: AddressCheck | null = null;
    try {
      checked = await checkCameraUrl(s, auth.tenantId, raw);
    } catch {
      // Not a URL: refused below.
    }
    if (checked?.ok) return checked.pinned;
    throw badRequest(isClient(auth) || !checked ? clientText : refusalText(checked));
  }

  // The port the server was bound to (a port the system picked): never a camera's (docs/devices.md).
  root.addHook('onListen', async () => {
    const a = root.server.address();
    if (a && typeof a === 'object') addOwnPort(s, a.port);
  });

  // ——— Start or join ———
  app.get(
    `${BASE}/queryDeviceVideo`,
    {
      config: { permission: CODE },
      schema: {
        tags,
        querystring: z.object({
          deviceInfoId: idParam(texts.deviceId),
          // `live`: answer once the low-latency output has a key frame (sooner than the first HLS segment).
          wait: z.enum(['hls', 'live'], { error: encodeMsg(texts.wait) }).default('hls'),
        }),
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const cam = await cameraOf(auth, req.query.deviceInfoId);
      if (cam.status === DISABLED) throw badRequest(texts.disabled);
      const source = unseal(s, cam.streamUrlSealed) ?? cam.streamUrl;
      if (!source) throw badRequest(texts.noSource);
      if (!/^(rtsps?|https?):\/\/[^\s]+$/i.test(source)) throw badRequest(texts.badSource);
      // Checked again at every play, and ffmpeg pulls from the address checked (docs/devices.md "Camera addresses").
      const pinned = await allowed(auth, source, texts.cannotPlay);
      let stream: Stream;
      try {
        stream = manager.acquire({
          tenantId: auth.tenantId,
          cameraId: String(cam.id),
          source: pinned,
          userId: auth.userId,
        });
        const ready = manager.waitReady(stream);
        if (req.query.wait === 'live') {
          // Whichever comes first: a key frame on the low-latency output, the first HLS segment, or the failure.
          ready.catch(() => {});
          await Promise.race([ready, stream.live.keyReady]);
        } else await ready;
      } catch (e) {
        if (e instanceof StreamError) throw streamFailure(auth, e.reason);
        throw e;
      }
      return ok(address(stream, auth));
    },
  );

  // ——— Heartbeat: every 10 s per viewer; answers a fresh address (token) and the state ———
  app.get(
    `${BASE}/streamTouch`,
    {
      config: { permission: CODE },
      schema: {
        tags,
        querystring: z.object({
          streamId: z.string({ error: encodeMsg(texts.streamId) }).regex(/^[0-9a-f]{24}$/, encodeMsg(texts.streamId)),
        }),
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const stream = manager.touch(req.query.streamId, auth.tenantId, auth.userId);
      if (!stream) throw new AppError(404, texts.streamGone);
      if (stream.state === 'failed') {
        const reason = stream.failure ?? 'failed';
        void manager.stop(stream.id);
        throw streamFailure(auth, reason);
      }
      return ok(address(stream, auth));
    },
  );

  /** The stream a signed token opens (docs/devices.md "HLS token"): 401 none or forged, 403 another stream's or expired, 404 gone or not this viewer's. */
  function streamOfToken(streamId: string, raw: string | undefined): Stream {
    const token = raw ? readHls(hlsKey, raw) : null;
    if (!token) throw new AppError(401, texts.tokenBad);
    if (token.streamId !== streamId) throw new AppError(403, texts.tokenBad);
    if (token.exp * 1000 <= s.now().getTime()) throw new AppError(403, texts.tokenExpired);
    const stream = manager.get(streamId);
    if (!stream || stream.tenantId !== token.tenantId || !stream.viewers.has(token.userId))
      throw new AppError(404, texts.streamGone);
    return stream;
  }

  // ——— The low-latency path: fragmented MP4 over a WebSocket, for the holder of the stream's token ———
  await root.register(fastifyWebsocket, { options: { maxPayload: 1024 } });
  const liveParams = {
    params: z.object({ streamId: z.string().max(64) }),
    querystring: z.object({ token: z.string().max(1024).optional() }),
  };
  app.get(
    `${BASE}/live/:streamId`,
    {
      websocket: true,
      config: { auth: 'none' },
      schema: { tags, ...liveParams },
      // Checked before the upgrade: a refusal is a plain HTTP answer (401/403/404), no socket is opened.
      preValidation: async (req: FastifyRequest) => {
        const { params, query } = req as FastifyRequest<{
          Params: { streamId: string };
          Querystring: { token?: string };
        }>;
        streamOfToken(params.streamId, query.token);
      },
    },
    (socket, req) => {
      const stream = manager.get(req.params.streamId);
      if (!stream) return socket.close(4004, 'gone');
      // The viewer sends nothing: anything it sends is ignored.
      stream.live.join(socket);
    },
  );

  // ——— The playlist and segments, for the holder of the stream's token (no Blade-Auth: a <video> sends none) ———
  app.get(
    `${BASE}/hls/:streamId/:file`,
    {
      config: { auth: 'none' },
      schema: {
        tags,
        params: z.object({ streamId: z.string().max(64), file: z.string().max(64) }),
        querystring: z.object({ token: z.string().max(1024).optional() }),
      },
    },
    async (req, reply) => {
      const { streamId, file } = req.params;
      const stream = streamOfToken(streamId, req.query.token);
      if (file !== PLAYLIST && !SEGMENT.test(file)) throw notFound();
      // Opened for the low-latency path (`wait=live`), the first segment may not be written yet: the playlist waits
      // for it (a player falling back to HLS right away).
      if (file === PLAYLIST && stream.state === 'starting') await manager.waitReady(stream).catch(() => undefined);
      let data: Buffer;
      try {
        data = await fs.readFile(path.join(stream.dir, file));
      } catch {
        throw notFound();
      }
      reply.header('cache-control', 'no-store');
      if (file === PLAYLIST) {
        // Segment lines carry the same token (hls.js asks for them relative to the playlist).
        const q = `?token=${encodeURIComponent(req.query.token!)}`;
        const text = data
          .toString('utf8')
          .split('\n')
          .map((l) => (l && !l.startsWith('#') ? `${l.trim()}${q}` : l))
          .join('\n');
        return reply.type('application/vnd.apple.mpegurl').send(text);
      }
      return reply.type('video/mp2t').send(data);
    },
  );

  // ——— The wall's list: cameras of a region and below, in the caller's scope ———
  app.get(
    `${BASE}/queryDeviceVideoByRegionCode`,
    {
      config: { permission: CODE },
      schema: {
        tags,
        querystring: z.object({
          regionCode: z
            .string()
            .regex(/^(\d{2,12})?$/, encodeMsg(texts.regionCode))
            .optional(),
          current: z.coerce.number().int().min(1).max(1_000_000).default(1),
          size: z.coerce.number().int().min(1).max(500).default(100),
        }),
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const { regionCode, current, size } = req.query;
      const where = and(
        eq(cameraDevice.tenantId, auth.tenantId),
        eq(cameraDevice.isDeleted, 0),
        // An index range on (tenant_id, region_code varchar_pattern_ops, id) (docs/devices.md "Tables").
        regionCode ? regionPrefix(cameraDevice.regionCode, regionCode) : undefined,
        await scope(auth),
      ) as SQL;
      const { rows, total } = await withTenant(s.db, auth.tenantId, async (tx) => {
        const [{ n }] = await tx.select({ n: count() }).from(cameraDevice).where(where);
        const rows = await tx
          .select({
            id: cameraDevice.id,
            name: cameraDevice.name,
            deviceCode: cameraDevice.deviceCode,
            deviceType: cameraDevice.deviceType,
            status: cameraDevice.status,
            ptz: cameraDevice.ptz,
            regionCode: cameraDevice.regionCode,
            regionName: region.name,
          })
          .from(cameraDevice)
          .leftJoin(region, and(eq(region.code, cameraDevice.regionCode), eq(region.isDeleted, 0)))
          .where(where)
          .orderBy(asc(cameraDevice.regionCode), asc(cameraDevice.id))
          .limit(size)
          .offset((current - 1) * size);
        return { rows, total: Number(n) };
      });
      return ok({
        records: rows.map((r) => ({ ...r, id: String(r.id) })),
        total,
        size,
        current,
        pages: Math.ceil(total / size),
      });
    },
  );

  // ——— PTZ ———
  app.get(
    `${BASE}/ptz`,
    {
      config: { permission: CODE },
      schema: {
        tags,
        querystring: z.object({
          deviceInfoId: idParam(texts.deviceId),
          command: z.enum(PTZ_COMMANDS, { error: encodeMsg(texts.command) }),
          speed: z
            .string()
            .regex(/^[1-8]$/, encodeMsg(texts.speed))
            .default('4'),
        }),
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const cam = await cameraOf(auth, req.query.deviceInfoId);
      if (cam.ptz !== 1) throw badRequest(texts.noPtz);
      if (!cam.onvifUrl || !/^https?:\/\/[^\s]+$/i.test(cam.onvifUrl)) throw badRequest(texts.noOnvif);
      // Checked again at every command; ONVIF connects to the address checked (docs/devices.md "Camera addresses").
      const url = await allowed(auth, cam.onvifUrl, texts.cannotPtz);
      try {
        await ptz.send(
          `${auth.tenantId}:${cam.id}`,
          { url, user: cam.onvifUser, password: unseal(s, cam.onvifPasswordSealed) },
          req.query.command,
          Number(req.query.speed),
        );
      } catch (e) {
        if (!(e instanceof PtzError)) throw e;
        if (isClient(auth)) throw badRequest(texts.cannotPtz);
        throw badRequest(
          e.reason === 'unreachable'
            ? texts.ptzUnreachable
            : e.reason === 'noPtz'
              ? texts.ptzNoProfile
              : texts.ptzRefused,
        );
      }
      return ok(true, texts.ptzSent);
    },
  );
});
