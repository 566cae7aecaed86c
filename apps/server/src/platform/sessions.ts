import { and, inArray, isNull, ne } from 'drizzle-orm';
import { authSession } from '../db/schema/index.ts';
import type { Services } from './services.ts';

/**
 * Ends every live session of the users (but `exceptSid`): their next request is refused by the live-state check
 * (platform/live.ts). Kept in the platform, below the modules, because the auth, user, tenant and client modules all
 * end sessions (docs/server.md "Module boundaries").
 */
export async function revokeUserSessions(s: Services, userIds: string[], exceptSid?: string) {
  if (!userIds.length) return;
  await s.db
    .update(authSession)
    .set({ revokedAt: s.now() })
    .where(
      and(
        inArray(authSession.userId, userIds),
        isNull(authSession.revokedAt),
        exceptSid ? ne(authSession.id, exceptSid) : undefined,
      ),
    );
}
