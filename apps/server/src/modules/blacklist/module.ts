import { isIP } from 'node:net';
import { blackinfo } from '@atrium/contract/resources/blacklist/blackinfo';
import { badRequest } from '../../platform/errors.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { blacklistTexts } from './messages.ts';
import { blackInfo } from './table.ts';

/** A value is stored in the one form the checks compare against (lower case, trimmed). */
const rules: Record<number, (v: string) => boolean> = {
  1: (v) => /^1\d{10}$/.test(v),
  2: (v) => {
    const [ip, bits, more] = v.split('/');
    if (more !== undefined || !isIP(ip)) return false;
    if (bits === undefined) return true;
    const max = isIP(ip) === 4 ? 32 : 128;
    return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
  },
  3: (v) => !/\s/.test(v),
  4: (v) => /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(v),
  5: (v) => /^\d{20}$/.test(v),
};

/** 黑名单: plain CRUD on the definition; each type's value is checked for its form. */
export default defineModule((app, s) => {
  resourceRoutes(
    app,
    s,
    bindResource(blackinfo, blackInfo, {
      async beforeSave({ input, existing }) {
        const type = Number(input.type ?? existing?.type);
        const value = String(input.value ?? '').toLowerCase();
        if (!rules[type]?.(value)) {
          const text = blacklistTexts.badValue[type as 1];
          throw badRequest(text, [{ field: 'value', message: text }]);
        }
        return { value };
      },
    }),
  );
});
