import { defineRoute } from '../route.ts';
import type * as S from './desk.schemas.ts';

/**
 * 工作台 beyond the notices' CRUD (docs/notices.md): the top bar's bell, its "seen" mark, and the read view of a
 * published notice. Signed in within the tenant is enough; what the bell holds beyond notices and tasks follows the
 * caller's codes (device events with `cameradevice`, failed deliveries with `outbox`).
 */

export const bell = defineRoute<typeof S.bell>()({
  method: 'GET',
  path: '/api/blade-desk/notice/bell',
  auth: 'user',
  summary:
    'The bell of the caller: latest published notices, waiting tasks, device-offline events and failed deliveries (as allowed), unread count',
});

export const bellSeen = defineRoute<typeof S.bellSeen>()({
  method: 'POST',
  path: '/api/blade-desk/notice/bell/seen',
  auth: 'user',
  summary: 'Marks everything the bell holds up to now as seen by the caller; answers the unread count (0)',
});

export const read = defineRoute<typeof S.read>()({
  method: 'GET',
  path: '/api/blade-desk/notice/read',
  auth: 'user',
  summary:
    'One notice to read (sanitised HTML): a published one released by now for any user of the tenant, a draft for the notice editors',
});
