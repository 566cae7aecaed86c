import { describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { REGION_NAMES_MAX } from '@atrium/contract/resources/system/region';
import { AppError } from '../src/platform/errors.ts';
import { regionTexts as texts } from '../src/modules/region/messages.ts';
import { namesAsked } from '../src/modules/region/service.ts';
import { region } from '../src/modules/region/table.ts';
import { importRows } from '../src/modules/region/transfer.ts';
import { by, serviceTest } from './support/service-test.ts';

/** The region module's import and names rules called as functions, without the app (modules/region/transfer.ts, service.ts). */

const { run } = serviceTest();
const live = (codes: string[]) =>
  run((tx) =>
    tx
      .select({ code: region.code, name: region.name, districtName: region.districtName })
      .from(region)
      .where(and(inArray(region.code, codes), eq(region.isDeleted, 0))),
  );

describe('importRows', () => {
  it('a row whose parent is neither live nor in the file refuses the whole file: nothing is written', async () => {
    const rows = [
      { row: 2, code: '110101901', name: '服务测试街道' },
      { row: 3, code: '990101', name: '无上级的区' },
    ];
    const result = await run((tx) => importRows(tx, by(), rows, []));
    expect(result.errors).toEqual([{ row: 3, code: '990101', message: texts.parentMissing }]);
    expect('inserted' in result).toBe(false);
    expect(await live(['110101901', '990101'])).toEqual([]);
  });

  it('rows below live regions and below each other are written in one go, then counted as updates', async () => {
    const rows = [
      { row: 2, code: '110101902', name: '服务测试镇' },
      { row: 3, code: '110101902001', name: '服务测试村' },
    ];
    expect(await run((tx) => importRows(tx, by(), rows, []))).toEqual({
      errors: [],
      total: 2,
      inserted: 2,
      updated: 0,
    });
    const written = await live(['110101902', '110101902001']);
    expect(written.map((r) => r.code).sort()).toEqual(['110101902', '110101902001']);
    const renamed = [{ row: 2, code: '110101902', name: '服务测试镇二' }];
    expect(await run((tx) => importRows(tx, by(), renamed, []))).toMatchObject({ inserted: 0, updated: 1 });
  });
});

describe('namesAsked', () => {
  it(`refuses more than ${REGION_NAMES_MAX} codes, an empty list and a malformed code, naming codes`, () => {
    const refusal = (raw: string) => {
      try {
        namesAsked(raw);
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        return e as AppError;
      }
      throw new Error(`${raw.slice(0, 20)} was accepted`);
    };
    const many = Array.from({ length: REGION_NAMES_MAX + 1 }, (_, i) => String(110000 + i)).join(',');
    expect(refusal(many).status).toBe(400);
    expect(refusal(' , ').status).toBe(400);
    expect(refusal('11,x1').status).toBe(400);
    expect(namesAsked('11, 11 ,1101')).toEqual(['11', '1101']);
  });
});
