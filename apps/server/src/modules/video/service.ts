import fs from 'node:fs/promises';
import path from 'node:path';
import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import { VIDEO_PREFIX, type Msg } from '@atrium/contract';
import { dataScopeSql } from '../../platform/access.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { regionPrefix } from '../../platform/paging.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { checkCameraUrl, refusalText, type AddressCheck } from '../device/index.ts';
import { cameraDevice } from '../device/index.ts';
import { unseal } from '../../platform/secrets.ts';
import { region } from '../region/index.ts';
import { failureTexts, videoTexts as texts } from './messages.ts';
import type { Owners } from './owners.ts';
import { PtzError, type PtzClients, type PtzCommand } from './ptz.ts';
import { PLAYLIST, SEGMENT, StreamError, type Stream, type StreamManager } from './streams.ts';
import { readHls, signHls } from './token.ts';

/**
 * The rules and SQL of live video (docs/devices.md "Live video"): which camera a caller may play or steer, the
 * address (signed token) of a stream, what a token opens, the wall's page, PTZ. The routes (routes/*.ts) only
 * parse and answer.
 */

/** The video plugins' prefix (declared in the contract). */
export const BASE = VIDEO_PREFIX;
/** The camera resource whose data scope decides which cameras a caller sees (docs/devices.md). */
const CAMERA_RESOURCE = 'cameradevice';
const DISABLED = 2;

/**
 * What the video calls share: the app's services, its stream manager, the cluster's stream owners, PTZ clients and
 * the HLS token key.
 */
export type Video = { s: Services; manager: StreamManager; owners: Owners; ptz: PtzClients; hlsKey: Buffer };

/**
 * A call another server answers (docs/cluster.md "Live video across servers"): the living owner of the stream, at the
 * internal address it wrote itself. The route passes the request on as it came (the same token or signed address).
 */
export type Forward = { forward: string };

/** A request already passed on by another server carries this header; it is never passed on again. */
export const VIA_HEADER = 'x-atrium-via';

/** A request passed on once that would be passed on again (the owner changed meanwhile): the viewer tries again. */
const moved = () => new AppError(503, texts.streamMoving);

/** The caller's data scope on cameras. */
export const cameraScope = (s: Services, auth: AuthContext) =>
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
export async function cameraOf(s: Services, auth: AuthContext, id: string) {
  const where = await cameraScope(s, auth);
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

/** A stream's addresses for this viewer: HLS and the low-latency path, with a fresh signed token. */
export function addressOf(v: Video, stream: Stream, auth: AuthContext) {
  const exp = Math.floor(v.s.now().getTime() / 1000) + v.s.config.video.tokenSeconds;
  const token = signHls(v.hlsKey, { streamId: stream.id, tenantId: auth.tenantId, userId: auth.userId, exp });
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
export const streamFailure = (auth: AuthContext, reason: StreamError['reason']) =>
  LIMITS.has(reason) || reason === 'ffmpegMissing'
    ? new AppError(LIMITS.has(reason) ? 429 : 500, failureTexts[reason])
    : new AppError(400, isClient(auth) ? texts.cannotPlay : failureTexts[reason]);

/**
 * A camera URL checked again right before the server connects (the tenant's networks may have changed, the name
 * may resolve elsewhere now): the URL to connect to (host pinned to the address checked), or the refusal.
 */
export async function allowedUrl(s: Services, auth: AuthContext, raw: string, clientText: Msg): Promise<string> {
  let checked: AddressCheck | null = null;
  try {
    checked = await checkCameraUrl(s, auth.tenantId, raw);
  } catch {
    // Not a URL: refused below.
  }
  if (checked?.ok) return checked.pinned;
  throw badRequest(isClient(auth) || !checked ? clientText : refusalText(checked));
}

/** The URL ffmpeg pulls for this camera, after every check a play makes (404, 400 with the reason). */
async function sourceOf(v: Video, auth: AuthContext, cameraId: string) {
  const cam = await cameraOf(v.s, auth, cameraId);
  if (cam.status === DISABLED) throw badRequest(texts.disabled);
  const source = unseal(v.s, cam.streamUrlSealed) ?? cam.streamUrl;
  if (!source) throw badRequest(texts.noSource);
  if (!/^(rtsps?|https?):\/\/[^\s]+$/i.test(source)) throw badRequest(texts.badSource);
  // Checked again at every play, and ffmpeg pulls from the address checked (docs/devices.md "Camera addresses").
  return { id: String(cam.id), source: await allowedUrl(v.s, auth, source, texts.cannotPlay) };
}

/**
 * Starts or joins a camera's stream; answers once it plays (`hls`: the first segment; `live`: whichever comes first
 * of a key frame on the low-latency output, the first segment, or the failure). A camera another living server runs
 * is answered by that server (`forward`); `via`: the request was passed on already.
 */
export async function playCamera(
  v: Video,
  auth: AuthContext,
  cameraId: string,
  wait: 'hls' | 'live',
  via = false,
): Promise<ReturnType<typeof addressOf> | Forward> {
  const cam = await sourceOf(v, auth, cameraId);
  let stream: Stream;
  try {
    const claim = await v.owners.claim({
      tenantId: auth.tenantId,
      cameraId: cam.id,
      source: cam.source,
      userId: auth.userId,
    });
    if (claim.kind === 'remote') {
      if (via) throw moved();
      return { forward: claim.url };
    }
    stream = claim.stream;
    const ready = v.manager.waitReady(stream);
    if (wait === 'live') {
      ready.catch(() => {});
      await Promise.race([ready, stream.live.keyReady]);
    } else await ready;
  } catch (e) {
    if (e instanceof StreamError) throw streamFailure(auth, e.reason);
    throw e;
  }
  return addressOf(v, stream, auth);
}

/**
 * A viewer's heartbeat: the stream kept alive, a fresh address; a failed stream is stopped and its failure answered.
 * A stream another living server runs is answered there (`forward`); one whose server died is started again here,
 * under the same id, for its viewers (docs/cluster.md "Live video across servers").
 */
export async function touchStream(
  v: Video,
  auth: AuthContext,
  streamId: string,
  via = false,
): Promise<ReturnType<typeof addressOf> | Forward> {
  const stream = v.manager.touch(streamId, auth.tenantId, auth.userId);
  if (!stream) {
    const row = v.manager.get(streamId) ? undefined : await v.owners.lookup(streamId);
    // Another tenant's stream, or one this user never opened, is as unknown as a stream that is gone.
    if (!row || row.tenantId !== auth.tenantId || !row.viewers.includes(auth.userId) || row.serverId === v.owners.id)
      throw new AppError(404, texts.streamGone);
    if (row.alive) {
      if (via) throw moved();
      return { forward: row.url };
    }
    return takeOver(v, auth, row.cameraId, streamId, via);
  }
  if (stream.state === 'failed') {
    const reason = stream.failure ?? 'failed';
    void v.manager.stop(stream.id);
    throw streamFailure(auth, reason);
  }
  return addressOf(v, stream, auth);
}

/** The owner of a stream died: this server starts it again (the checks of a play first), same id, same viewers. */
async function takeOver(v: Video, auth: AuthContext, cameraId: string, streamId: string, via: boolean) {
  const cam = await sourceOf(v, auth, cameraId);
  try {
    const claim = await v.owners.claim({ tenantId: auth.tenantId, cameraId, source: cam.source, userId: auth.userId });
    if (claim.kind === 'remote') {
      if (via) throw moved();
      return { forward: claim.url };
    }
    // Replaced meanwhile (a play of the camera with another source): this viewer's stream is gone.
    if (claim.stream.id !== streamId) throw new AppError(404, texts.streamGone);
    return { ...addressOf(v, claim.stream, auth), state: 'restarting' as const };
  } catch (e) {
    if (e instanceof StreamError) throw streamFailure(auth, e.reason);
    throw e;
  }
}

/**
 * The stream a signed token opens (docs/devices.md "HLS token"): 401 none or forged, 403 another stream's or expired,
 * 404 gone or not this viewer's; one another living server runs is answered there (`forward`), one whose server died
 * is a 503 until a viewer's touch starts it again.
 */
export async function streamOfToken(
  v: Video,
  streamId: string,
  raw: string | undefined,
  via = false,
): Promise<{ stream: Stream } | Forward> {
  const token = raw ? readHls(v.hlsKey, raw) : null;
  if (!token) throw new AppError(401, texts.tokenBad);
  if (token.streamId !== streamId) throw new AppError(403, texts.tokenBad);
  if (token.exp * 1000 <= v.s.now().getTime()) throw new AppError(403, texts.tokenExpired);
  const stream = v.manager.get(streamId);
  if (stream) {
    if (stream.tenantId !== token.tenantId || !stream.viewers.has(token.userId))
      throw new AppError(404, texts.streamGone);
    return { stream };
  }
  const row = await v.owners.lookup(streamId);
  if (!row || row.tenantId !== token.tenantId || !row.viewers.includes(token.userId) || row.serverId === v.owners.id)
    throw new AppError(404, texts.streamGone);
  if (!row.alive) throw new AppError(503, texts.streamRestarting);
  if (via) throw moved();
  return { forward: row.url };
}

/**
 * A file of a stream for the holder of its token: the playlist (its segment lines carrying the same token, as hls.js
 * asks for them relative to the playlist) or a segment; anything else 404.
 */
export async function hlsFile(
  v: Video,
  streamId: string,
  file: string,
  token: string | undefined,
  via = false,
): Promise<{ type: string; body: Buffer | string } | Forward> {
  const found = await streamOfToken(v, streamId, token, via);
  if (file !== PLAYLIST && !SEGMENT.test(file)) throw notFound();
  if ('forward' in found) return found;
  const { stream } = found;
  // Opened for the low-latency path (`wait=live`), the first segment may not be written yet: the playlist waits
  // for it (a player falling back to HLS right away).
  if (file === PLAYLIST && stream.state === 'starting') await v.manager.waitReady(stream).catch(() => undefined);
  let data: Buffer;
  try {
    data = await fs.readFile(path.join(stream.dir, file));
  } catch {
    throw notFound();
  }
  if (file !== PLAYLIST) return { type: 'video/mp2t', body: data as Buffer | string };
  const q = `?token=${encodeURIComponent(token!)}`;
  const text = data
    .toString('utf8')
    .split('\n')
    .map((l) => (l && !l.startsWith('#') ? `${l.trim()}${q}` : l))
    .join('\n');
  return { type: 'application/vnd.apple.mpegurl', body: text as Buffer | string };
}

/** The wall's page: cameras of a region and below, in the caller's scope, with their region's name. */
export async function wallPage(
  s: Services,
  auth: AuthContext,
  q: { regionCode?: string; current: number; size: number },
) {
  const { regionCode, current, size } = q;
  const where = and(
    eq(cameraDevice.tenantId, auth.tenantId),
    eq(cameraDevice.isDeleted, 0),
    // An index range on (tenant_id, region_code varchar_pattern_ops, id) (docs/devices.md "Tables").
    regionCode ? regionPrefix(cameraDevice.regionCode, regionCode) : undefined,
    await cameraScope(s, auth),
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
  return {
    records: rows.map((r) => ({ ...r, id: String(r.id) })),
    total,
    size,
    current,
    pages: Math.ceil(total / size),
  };
}

/** A PTZ command to a camera with PTZ and an ONVIF address; staff read why it failed, a client account one text. */
export async function steerCamera(
  v: Video,
  auth: AuthContext,
  cmd: { cameraId: string; command: PtzCommand; speed: number },
): Promise<void> {
  const cam = await cameraOf(v.s, auth, cmd.cameraId);
  if (cam.ptz !== 1) throw badRequest(texts.noPtz);
  if (!cam.onvifUrl || !/^https?:\/\/[^\s]+$/i.test(cam.onvifUrl)) throw badRequest(texts.noOnvif);
  // Checked again at every command; ONVIF connects to the address checked (docs/devices.md "Camera addresses").
  const url = await allowedUrl(v.s, auth, cam.onvifUrl, texts.cannotPtz);
  try {
    const camera = { url, user: cam.onvifUser, password: unseal(v.s, cam.onvifPasswordSealed) };
    await v.ptz.send(`${auth.tenantId}:${cam.id}`, camera, cmd.command, cmd.speed);
  } catch (e) {
    if (!(e instanceof PtzError)) throw e;
    if (isClient(auth)) throw badRequest(texts.cannotPtz);
    throw badRequest(
      e.reason === 'unreachable' ? texts.ptzUnreachable : e.reason === 'noPtz' ? texts.ptzNoProfile : texts.ptzRefused,
    );
  }
}
