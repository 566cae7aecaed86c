import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { fill, MAX_ID } from '@atrium/contract';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { DEVICE_TYPES } from '@atrium/contract/resources/device/cameradevice';
import { deviceTexts as texts } from './messages.ts';
import { cameraDevice, nvrChannel } from './table.ts';

/** One channel of an NVR's list, as `saveNvrChannelInfo` and a device sync send it. */
export type ChannelInput = {
  channelNo: number;
  channelCode?: string | null;
  name?: string | null;
  /** Absent: the channel keeps its camera link; null: the link is cleared; an id: linked to that camera. */
  cameraId?: string | null;
};

export type ReplaceResult = { added: number; updated: number; removed: number };

/** The most channels one NVR lists. */
export const MAX_CHANNELS = 1024;

/** Checks a channel list before anything is written: numbers 1–9999 and unique, codes of 20 digits, names ≤ 64. */
export function checkChannels(channels: ChannelInput[]): void {
  if (channels.length > MAX_CHANNELS) throw badRequest(fill(texts.channelsTooMany, { max: MAX_CHANNELS }));
  const seen = new Set<number>();
  for (const c of channels) {
    if (!Number.isInteger(c.channelNo) || c.channelNo < 1 || c.channelNo > 9999) throw badRequest(texts.channelNoBad);
    if (seen.has(c.channelNo)) throw badRequest(fill(texts.channelNoDup, { no: c.channelNo }));
    seen.add(c.channelNo);
    if (c.channelCode != null && c.channelCode !== '' && !/^\d{20}$/.test(c.channelCode))
      throw badRequest(fill(texts.channelCodeBad, { no: c.channelNo }));
    if (c.name != null && c.name.length > 64) throw badRequest(fill(texts.channelNameBad, { no: c.channelNo }));
    if (c.cameraId != null && !(/^\d{1,19}$/.test(c.cameraId) && BigInt(c.cameraId) <= MAX_ID))
      throw badRequest(texts.cameraUnknown);
  }
  // A camera shows on one channel (docs/devices.md "Links between cameras and channels").
  const byCamera = new Map<string, number>();
  for (const c of channels) {
    if (!c.cameraId) continue;
    const first = byCamera.get(c.cameraId);
    if (first !== undefined) throw badRequest(fill(texts.cameraTwice, { a: first, b: c.channelNo }));
    byCamera.set(c.cameraId, c.channelNo);
  }
}

/** The unique index of links: one live camera per (NVR, channel number) (migration 0033). */
export const LINK_INDEX = 'camera_device_channel_uq';

/** A write that met another transaction's link to the same channel (the unique index): a 400, never a 500. */
export function linkConflict(err: unknown): AppError | null {
  let e: unknown = err;
  for (let i = 0; i < 3 && e; i++) {
    const pgErr = e as { code?: string; constraint?: string; constraint_name?: string };
    if (pgErr.code === '23505' && (pgErr.constraint ?? pgErr.constraint_name) === LINK_INDEX)
      return badRequest(texts.channelTakenRace);
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Locks NVR rows in id order. `key share` (a camera naming or leaving an NVR) lets heartbeats and other cameras go on
 * but waits for `update` (a channel list replaced, a channel's link written, the NVR removed), so the channel rows of
 * one NVR are written by one of those at a time (docs/devices.md "Links between cameras and channels").
 */
export async function lockNvrs(
  tx: Db,
  tenantId: string,
  ids: (string | null | undefined)[],
  strength: 'update' | 'key share',
) {
  const list = [...new Set(ids.filter((id): id is string => !!id))];
  if (!list.length) return [];
  return tx
    .select({ id: cameraDevice.id, deviceType: cameraDevice.deviceType, isDeleted: cameraDevice.isDeleted })
    .from(cameraDevice)
    .where(and(eq(cameraDevice.tenantId, tenantId), inArray(cameraDevice.id, list)))
    .orderBy(asc(cameraDevice.id))
    .for(strength);
}

/**
 * Links one channel (NVR, number) to a camera, or unlinks it (`cameraId` null), by writing the truth — the cameras'
 * `nvr_id` / `channel_no` — in the caller's transaction; the triggers of migration 0032 derive the channels'
 * `camera_id`. The camera that showed on the channel loses its channel number (it stays behind the NVR); the camera
 * linked leaves the channel it showed on. The caller holds the NVR `FOR UPDATE` and checked the camera.
 */
export async function setChannelCamera(
  tx: Db,
  tenantId: string,
  nvrId: string,
  channelNo: number,
  cameraId: string | null,
): Promise<boolean> {
  const holders = await tx
    .update(cameraDevice)
    .set({ channelNo: null, version: sql`${cameraDevice.version} + 1` })
    .where(
      and(
        eq(cameraDevice.tenantId, tenantId),
        eq(cameraDevice.isDeleted, 0),
        eq(cameraDevice.nvrId, nvrId),
        eq(cameraDevice.channelNo, channelNo),
        cameraId ? ne(cameraDevice.id, cameraId) : undefined,
      ),
    )
    .returning({ id: cameraDevice.id });
  if (!cameraId) return holders.length > 0;
  const moved = await tx
    .update(cameraDevice)
    .set({ nvrId, channelNo, version: sql`${cameraDevice.version} + 1` })
    .where(
      and(
        eq(cameraDevice.tenantId, tenantId),
        eq(cameraDevice.id, cameraId),
        sql`(${cameraDevice.nvrId} is distinct from ${nvrId} or ${cameraDevice.channelNo} is distinct from ${channelNo})`,
      ),
    )
    .returning({ id: cameraDevice.id });
  return holders.length > 0 || moved.length > 0;
}

/**
 * The cameras a channel-side write names: live devices of the tenant in the caller's data scope on cameras (404
 * otherwise, like every reference), none of them an NVR (400).
 */
export async function checkLinkedCameras(tx: Db, tenantId: string, ids: string[], scope?: SQL): Promise<void> {
  if (!ids.length) return;
  const found = await tx
    .select({ id: cameraDevice.id, deviceType: cameraDevice.deviceType })
    .from(cameraDevice)
    .where(
      and(eq(cameraDevice.tenantId, tenantId), inArray(cameraDevice.id, ids), eq(cameraDevice.isDeleted, 0), scope),
    );
  if (found.length !== new Set(ids).size) throw new AppError(404, texts.cameraUnknown);
  if (found.some((c) => c.deviceType === DEVICE_TYPES.nvr)) throw badRequest(texts.channelCameraIsNvr);
}

/**
 * Replaces one NVR's channel list (docs/devices.md "Channels"), in the caller's transaction: the NVR row is locked
 * FOR UPDATE (two replaces of one NVR take turns: the last one wins), channels are upserted by number, the live
 * channels missing from the list are soft-removed (the cameras naming them keep their link, shown again when the
 * number comes back), and every channel takes the NVR's region and client. A channel's `cameraId` in the list writes
 * the link's truth on the cameras (`setChannelCamera`); absent, the link stays. The NVR must be a live type-118
 * device of the tenant (404 otherwise); a linked camera must be a live camera of the tenant in `cameraScope` (404)
 * and not an NVR (400). Used by `saveNvrChannelInfo` and by device access when a device message carries a channel list.
 */
export async function replaceChannels(
  tx: Db,
  tenantId: string,
  nvrId: string,
  channels: ChannelInput[],
  opts: { userId?: string | null; now?: Date; cameraScope?: SQL } = {},
): Promise<ReplaceResult> {
  checkChannels(channels);
  const now = opts.now ?? new Date();
  const userId = opts.userId ?? null;
  const [nvr] = await tx
    .select({
      id: cameraDevice.id,
      deviceType: cameraDevice.deviceType,
      regionCode: cameraDevice.regionCode,
      clientId: cameraDevice.clientId,
    })
    .from(cameraDevice)
    .where(and(eq(cameraDevice.tenantId, tenantId), eq(cameraDevice.id, nvrId), eq(cameraDevice.isDeleted, 0)))
    .for('update');
  if (!nvr) throw notFound();
  if (nvr.deviceType !== DEVICE_TYPES.nvr) throw badRequest(texts.nvrNotNvr);

  const named = channels.filter((c) => c.cameraId !== undefined);
  await checkLinkedCameras(
    tx,
    tenantId,
    named.map((c) => c.cameraId).filter((id): id is string => !!id),
    opts.cameraScope,
  );

  const existing = await tx
    .select()
    .from(nvrChannel)
    .where(and(eq(nvrChannel.tenantId, tenantId), eq(nvrChannel.nvrDeviceId, nvrId), eq(nvrChannel.isDeleted, 0)));
  const byNo = new Map(existing.map((c) => [c.channelNo, c]));
  const wanted = new Set(channels.map((c) => c.channelNo));
  const result: ReplaceResult = { added: 0, updated: 0, removed: 0 };

  // The links first (the truth, on the cameras), channel by channel: each frees its number of any other camera, then
  // takes the camera named (which leaves its own channel) — a swap of two cameras never meets the unique index. The
  // triggers derive the channels' camera_id, new channels included.
  const relinked = new Set<number>();
  for (const c of named)
    if (await setChannelCamera(tx, tenantId, nvrId, c.channelNo, c.cameraId ?? null)) relinked.add(c.channelNo);

  const gone = existing.filter((c) => !wanted.has(c.channelNo)).map((c) => c.id);
  if (gone.length) {
    await tx
      .update(nvrChannel)
      .set({ isDeleted: 1, updateUser: userId, updateTime: now, version: sql`${nvrChannel.version} + 1` })
      .where(and(eq(nvrChannel.tenantId, tenantId), inArray(nvrChannel.id, gone)));
    result.removed = gone.length;
  }

  const inserts: (typeof nvrChannel.$inferInsert)[] = [];
  for (const c of channels) {
    const old = byNo.get(c.channelNo);
    const code = c.channelCode || null;
    const name = c.name ?? null;
    if (!old) {
      // camera_id and status are the triggers' (the camera naming this number, the NVR's status).
      inserts.push({
        id: newId(),
        tenantId,
        nvrDeviceId: nvrId,
        channelNo: c.channelNo,
        channelCode: code,
        name,
        regionCode: nvr.regionCode,
        clientId: nvr.clientId,
        createUser: userId,
        createTime: now,
        updateUser: userId,
        updateTime: now,
      });
      continue;
    }
    const same =
      old.channelCode === code &&
      old.name === name &&
      old.regionCode === nvr.regionCode &&
      old.clientId === nvr.clientId;
    if (same) {
      if (relinked.has(c.channelNo)) result.updated += 1;
      continue;
    }
    await tx
      .update(nvrChannel)
      .set({
        channelCode: code,
        name,
        regionCode: nvr.regionCode,
        clientId: nvr.clientId,
        updateUser: userId,
        updateTime: now,
        version: sql`${nvrChannel.version} + 1`,
      })
      .where(eq(nvrChannel.id, old.id));
    result.updated += 1;
  }
  for (let i = 0; i < inserts.length; i += 200) await tx.insert(nvrChannel).values(inserts.slice(i, i + 200));
  result.added = inserts.length;
  return result;
}
