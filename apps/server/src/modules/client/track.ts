import { sql, type SQL } from 'drizzle-orm';
import { clienttrack as def, TRACK_TYPES } from '@atrium/contract/resources/customer/clienttrack';
import type { Db } from '../../db/client.ts';
import { bindResource } from '../../platform/resource.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { addTrack, fixtureApprovedClient, withClientNames } from './service.ts';
import { clientInfo, clientTrack } from './table.ts';

/**
 * 客户跟踪 (docs/clients.md "Client tracking"): the follow-up records as a read-only resource. A record follows its
 * client's data scope — the scope of the client list (`clientScope`, the client binding's), so a region admin sees the
 * follow-ups of its region's clients and a client account those of its own client. Records are written by
 * `customerTrack` and by sent emails only (service.ts `addTrack`).
 */
export function trackBinding(clientScope: (auth: AuthContext) => Promise<SQL | undefined>) {
  return bindResource(def, clientTrack, {
    async scopeFrom(auth) {
      const visible = await clientScope(auth);
      if (!visible) return undefined;
      return sql`${clientTrack.clientId} in (select ${clientInfo.id} from ${clientInfo} where ${clientInfo.tenantId} = ${auth.tenantId} and ${visible})`;
    },
    decorate: ({ tx, auth, rows }) => withClientNames(tx, auth.tenantId, rows),
    // A call to a client made for the purpose, written the one way a record is written (the generated suites).
    fixture: ({ tx, auth }) => fixtureTrack(tx, auth),
  });
}

/** An approved client of region 110101 and one follow-up call of it; answers the follow-up's id. */
export async function fixtureTrack(tx: Db, auth: AuthContext): Promise<string> {
  const now = new Date();
  const { id: clientId } = await fixtureApprovedClient(tx, auth.tenantId, now);
  const by = { tenantId: auth.tenantId, userId: auth.userId, account: auth.account ?? 'fixture', now };
  return addTrack(tx, by, { clientId, trackType: TRACK_TYPES.call, content: 'fixture', trackTime: now });
}
