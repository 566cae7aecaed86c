import { describe, expect, it } from 'vitest';
import { userTexts as texts } from '../src/modules/user/messages.ts';
import { checkRegionReach, checkRoles } from '../src/modules/user/rules.ts';
import { admin, refusal, serviceTest } from './support/service-test.ts';

/** The user administration's rules called as functions on a database, without the app (modules/user/rules.ts). */

const { run } = serviceTest();

describe('checkRegionReach', () => {
  it('a region no live row has is refused as unknown (400 naming regionCode), before any reach is judged', async () => {
    const err = await refusal(run((tx) => checkRegionReach(tx, admin, '990101')));
    expect(err.status).toBe(400);
    expect(err.text).toEqual(texts.regionUnknown);
    expect(err.fields).toEqual([{ field: 'regionCode', message: texts.regionUnknown }]);
  });
});

describe('checkRoles', () => {
  it("a role id that is not one of the tenant's live roles is a 404, like any foreign id", async () => {
    expect((await refusal(run((tx) => checkRoles(tx, admin, ['4242424242'])))).status).toBe(404);
  });
});
