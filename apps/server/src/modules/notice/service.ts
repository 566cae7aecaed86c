import { and, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { AnswerOf, deskApi } from '@atrium/contract';
import { NOTICE_STATES } from '@atrium/contract/resources/desk/notice';
import type { Db } from '../../db/client.ts';
import { user } from '../../db/schema/index.ts';
import { dataScopeSql } from '../../platform/access.ts';
import { AppError } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { readTenant, withTenant } from '../../platform/tenant-db.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { deviceStatusEvent } from '../device-access/index.ts';
import { cameraDevice } from '../device/index.ts';
import { waitingCount } from '../flow/index.ts';
import { outbox } from '../outbox/index.ts';
import { noticeTexts as texts } from './messages.ts';
import { notice, noticeSeen } from './table.ts';

/**
 * The bell and the read view (docs/notices.md "The bell"): what the caller may see, read under their tenant's
 * row-level security; the CRUD is the definition's (module.ts).
 */

/** At most this many items of each source. */
export const BELL_LIMIT = 10;
/** Device events and failed deliveries older than this are not the bell's. */
export const BELL_DAYS = 7;
/** The codes that open the bell's device and delivery sources (menu codes of 摄像机设备 and 发件箱). */
export const BELL_CODES = { devices: 'cameradevice', failures: 'outbox', notices: 'notice' } as const;

type Bell = AnswerOf<typeof deskApi.bell>;
const OUTBOX_FAILED = 3;
const DEVICE_OFFLINE = 0;
const DAY_MS = 86_400_000;

const published = (now: Date) =>
  and(eq(notice.status, NOTICE_STATES.published), eq(notice.isDeleted, 0), lte(notice.releaseTime, now));

async function seenOf(tx: Db, auth: AuthContext): Promise<Date | null> {
  const [row] = await tx
    .select({ at: noticeSeen.seenUpTo })
    .from(noticeSeen)
    .where(and(eq(noticeSeen.tenantId, auth.tenantId), eq(noticeSeen.userId, auth.userId)));
  return row?.at ?? null;
}

/** The offline events of devices in the caller's data scope on cameras, newest first. */
async function offlineEvents(tx: Db, auth: AuthContext, where: SQL | undefined, since: Date) {
  return tx
    .select({
      id: deviceStatusEvent.id,
      deviceId: deviceStatusEvent.deviceId,
      deviceCode: deviceStatusEvent.deviceCode,
      name: cameraDevice.name,
      at: deviceStatusEvent.at,
    })
    .from(deviceStatusEvent)
    .innerJoin(
      cameraDevice,
      and(eq(cameraDevice.id, deviceStatusEvent.deviceId), eq(cameraDevice.tenantId, deviceStatusEvent.tenantId)),
    )
    .where(
      and(
        eq(deviceStatusEvent.tenantId, auth.tenantId),
        eq(deviceStatusEvent.toStatus, DEVICE_OFFLINE),
        gte(deviceStatusEvent.at, since),
        eq(cameraDevice.isDeleted, 0),
        where,
      ),
    )
    .orderBy(desc(deviceStatusEvent.at))
    .limit(BELL_LIMIT);
}

async function failedDeliveries(tx: Db, auth: AuthContext, since: Date) {
  return tx
    .select({
      id: outbox.id,
      channel: outbox.channel,
      recipient: outbox.recipient,
      lastError: outbox.lastError,
      at: outbox.updateTime,
    })
    .from(outbox)
    .where(
      and(
        eq(outbox.tenantId, auth.tenantId),
        eq(outbox.status, OUTBOX_FAILED),
        eq(outbox.isDeleted, 0),
        gte(outbox.updateTime, since),
      ),
    )
    .orderBy(desc(outbox.updateTime))
    .limit(BELL_LIMIT);
}

/**
 * The caller's bell: the tenant's latest published notices released by now, the caller's waiting tasks, and — for
 * holders of `cameradevice` / `outbox` — recent offline events of devices in their data scope and failed deliveries.
 * An item is unread when it happened after the caller last opened the bell.
 */
export async function bellOf(s: Services, auth: AuthContext): Promise<Bell> {
  const now = s.now();
  const since = new Date(now.getTime() - BELL_DAYS * DAY_MS);
  const codes = await s.permissionCodes(auth.tenantId, auth.roleIds);
  const devicesAllowed = codes.has(BELL_CODES.devices);
  // Cached reads before the transaction (the embedded database has one connection).
  const where = devicesAllowed
    ? await dataScopeSql(s, auth, {
        code: 'cameradevice',
        owner: cameraDevice.createUser,
        dept: cameraDevice.createDept,
        region: cameraDevice.regionCode,
        client: cameraDevice.clientId,
        regionPrefixes: { 2: cameraDevice.regionP2, 4: cameraDevice.regionP4 },
        // A custom rule on cameras matches nothing here: the bell errs on showing less.
        columns: {},
      })
    : undefined;
  return readTenant(s.db, auth.tenantId, async (tx) => {
    const seen = await seenOf(tx, auth);
    const fresh = (at: Date) => !seen || at > seen;
    const notices = await tx
      .select({
        id: notice.id,
        title: notice.title,
        category: notice.category,
        releaseTime: notice.releaseTime,
        updateTime: notice.updateTime,
      })
      .from(notice)
      .where(and(eq(notice.tenantId, auth.tenantId), published(now)))
      .orderBy(desc(notice.releaseTime), desc(notice.id))
      .limit(BELL_LIMIT);
    const waiting = await waitingCount(tx, auth);
    const devices = devicesAllowed ? await offlineEvents(tx, auth, where, since) : [];
    const failures = codes.has(BELL_CODES.failures) ? await failedDeliveries(tx, auth, since) : [];
    const items = {
      // A notice counts from when it showed: its release, or its last edit (published after the release time).
      notices: notices.map(({ updateTime, ...n }) => ({
        ...n,
        releaseTime: n.releaseTime.toISOString(),
        unread: fresh(updateTime > n.releaseTime ? updateTime : n.releaseTime),
      })),
      devices: devices.map((d) => ({ ...d, at: d.at.toISOString(), unread: fresh(d.at) })),
      failures: failures.map((f) => ({ ...f, at: f.at.toISOString(), unread: fresh(f.at) })),
    };
    const unread = [...items.notices, ...items.devices, ...items.failures].filter((i) => i.unread).length;
    return { ...items, waiting, unread, seenUpTo: seen?.toISOString() ?? null };
  });
}

/** Marks everything up to now as seen by the caller (one row per user, moved forward only). */
export async function markSeen(s: Services, auth: AuthContext) {
  const at = s.now();
  await withTenant(s.db, auth.tenantId, (tx) =>
    tx
      .insert(noticeSeen)
      .values({ tenantId: auth.tenantId, userId: auth.userId, seenUpTo: at })
      .onConflictDoUpdate({
        target: [noticeSeen.tenantId, noticeSeen.userId],
        set: { seenUpTo: sql`greatest(${noticeSeen.seenUpTo}, excluded.seen_up_to)` },
      }),
  );
  return { unread: 0, seenUpTo: at.toISOString() };
}

/**
 * One notice to read: published and released by now for anyone of the tenant; any live one (a draft, a notice to be
 * released later) for holders of the notice code. Otherwise — another tenant's included — a 404.
 */
export async function readNotice(s: Services, auth: AuthContext, id: string) {
  const editor = (await s.permissionCodes(auth.tenantId, auth.roleIds)).has(BELL_CODES.notices);
  const now = s.now();
  const row = await readTenant(s.db, auth.tenantId, async (tx) => {
    const [r] = await tx
      .select({
        id: notice.id,
        title: notice.title,
        category: notice.category,
        releaseTime: notice.releaseTime,
        status: notice.status,
        content: notice.content,
        createUserName: sql<string | null>`coalesce(${user.realName}, ${user.name})`,
      })
      .from(notice)
      .leftJoin(user, and(eq(user.id, notice.createUser), eq(user.tenantId, notice.tenantId)))
      .where(
        and(eq(notice.tenantId, auth.tenantId), eq(notice.id, id), editor ? eq(notice.isDeleted, 0) : published(now)),
      );
    return r;
  });
  if (!row) throw new AppError(404, texts.missing);
  return { ...row, releaseTime: row.releaseTime.toISOString() };
}
