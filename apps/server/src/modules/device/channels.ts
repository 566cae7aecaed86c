import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { fill, MAX_ID } from '@atrium/contract';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
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
}

/**
 * Replaces one NVR's channel list (docs/devices.md "Device records"), in the caller's transaction: the NVR row is
 * locked FOR UPDATE (two replaces of one NVR take turns: the last one wins), channels are upserted by number, the
 * live channels missing from the list are soft-removed, camera links are kept unless the list names them, and
 * every channel takes the NVR's region and client. The NVR must be a live type-118 device of the tenant (404
 * otherwise); a linked camera must be a live non-NVR device of the tenant (400). Used by `saveNvrChannelInfo` and
 * by device access when a device message carries a channel list.
 */
export async function replaceChannels(
  tx: Db,
  tenantId: string,
  nvrId: string,
  channels: ChannelInput[],
  opts: { userId?: string | null; now?: Date } = {},
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

  const cameraIds = [...new Set(channels.map((c) => c.cameraId).filter((id): id is string => !!id))];
  if (cameraIds.length) {
    const found = await tx
      .select({ id: cameraDevice.id })
      .from(cameraDevice)
      .where(
        and(
          eq(cameraDevice.tenantId, tenantId),
          inArray(cameraDevice.id, cameraIds),
          eq(cameraDevice.isDeleted, 0),
          ne(cameraDevice.deviceType, DEVICE_TYPES.nvr),
        ),
      );
    if (found.length !== cameraIds.length) throw badRequest(texts.cameraUnknown);
  }

  const existing = await tx
    .select()
    .from(nvrChannel)
    .where(and(eq(nvrChannel.tenantId, tenantId), eq(nvrChannel.nvrDeviceId, nvrId), eq(nvrChannel.isDeleted, 0)));
  const byNo = new Map(existing.map((c) => [c.channelNo, c]));
  const wanted = new Set(channels.map((c) => c.channelNo));
  const result: ReplaceResult = { added: 0, updated: 0, removed: 0 };

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
      inserts.push({
        id: newId(),
        tenantId,
        nvrDeviceId: nvrId,
        channelNo: c.channelNo,
        channelCode: code,
        name,
        cameraId: c.cameraId ?? null,
        regionCode: nvr.regionCode,
        clientId: nvr.clientId,
        status: 0,
        createUser: userId,
        createTime: now,
        updateUser: userId,
        updateTime: now,
      });
      continue;
    }
    const cameraId = c.cameraId === undefined ? old.cameraId : c.cameraId;
    const same =
      old.channelCode === code &&
      old.name === name &&
      old.cameraId === cameraId &&
      old.regionCode === nvr.regionCode &&
      old.clientId === nvr.clientId;
    if (same) continue;
    await tx
      .update(nvrChannel)
      .set({
        channelCode: code,
        name,
        cameraId,
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
