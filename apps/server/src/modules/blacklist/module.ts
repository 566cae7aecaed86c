import { blackinfo } from '@atrium/contract/resources/blacklist/blackinfo';
import { fill, type Msg } from '@atrium/contract';
import { badRequest } from '../../platform/errors.ts';
import { bumpEpoch } from '../../platform/live.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import {
  BLACK_TYPE,
  blacklistScope,
  type BlackType,
  emailDomainOf,
  formatRange,
  networkOf,
  normaliseDeviceCode,
  normalisePhone,
  foldWord,
  normaliseWord,
  parseRange,
} from './enforce.ts';
import { blacklistTexts } from './messages.ts';
import { blackInfo } from './table.ts';

/** A domain in ASCII (punycode labels allowed): labels of letters, digits and inner '-', a top level of letters. */
const DOMAIN = /^(?=.{3,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * An entry's value in the one form the checks compare against (enforce.ts), or the reason it is refused: phones
 * without separators or +86, ranges with their host bits clear (a /32 or /128 is the bare address), words and
 * domains folded to lower case (domains in ASCII), device codes as digits.
 */
export function normalEntry(type: number, raw: string): { value: string } | { error: Msg } {
  const v = raw.trim();
  const bad = { error: blacklistTexts.badValue[type as BlackType] ?? blacklistTexts.badValue[BLACK_TYPE.phone] };
  switch (type) {
    case BLACK_TYPE.phone: {
      const phone = normalisePhone(v);
      return /^1\d{10}$/.test(phone) ? { value: phone } : bad;
    }
    case BLACK_TYPE.ip: {
      const r = parseRange(v);
      if (!r) return bad;
      if (r.prefix < (r.family === 4 ? 8 : 16)) return { error: blacklistTexts.tooWide };
      const net = networkOf(r);
      if (net.bits !== r.bits) return { error: fill(blacklistTexts.hostBits, { network: formatRange(net) }) };
      return { value: formatRange(r) };
    }
    case BLACK_TYPE.word: {
      const word = normaliseWord(v);
      // A word of separators alone would match nothing once folded (enforce.ts `foldWord`).
      return word && !/\s/.test(word) && foldWord(word) ? { value: word } : bad;
    }
    case BLACK_TYPE.emailDomain: {
      const bare = v.replace(/^@/, '');
      if (bare.includes('@')) return { error: blacklistTexts.emailAddress };
      const domain = emailDomainOf(bare);
      return DOMAIN.test(domain) ? { value: domain } : bad;
    }
    case BLACK_TYPE.deviceCode: {
      const code = normaliseDeviceCode(v);
      return /^\d{20}$/.test(code) ? { value: code } : bad;
    }
    default:
      return bad;
  }
}

/**
 * 黑名单: plain CRUD on the definition; each type's value is checked and stored in its normal form. Every write moves
 * the cache epoch of its tenant (the platform's: the global one, its entries count everywhere) in its own
 * transaction, so `isBlocked` (enforce.ts) answers from the new entries at the next call on every server.
 */
export default defineModule((app, s) => {
  resourceRoutes(
    app,
    s,
    bindResource(blackinfo, blackInfo, {
      async beforeSave({ input, existing }) {
        const type = Number(input.type ?? existing?.type);
        const checked = normalEntry(type, String(input.value ?? existing?.value ?? ''));
        if ('error' in checked) throw badRequest(checked.error, [{ field: 'value', message: checked.error }]);
        return { value: checked.value };
      },
      async afterSave({ tx, auth }) {
        await bumpEpoch(tx, blacklistScope(auth.tenantId));
      },
      async beforeRemove({ tx, auth }) {
        await bumpEpoch(tx, blacklistScope(auth.tenantId));
      },
      afterWrite({ auth }) {
        s.cache.clear(blacklistScope(auth.tenantId));
      },
    }),
  );
});
