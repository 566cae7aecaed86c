import { describe, expect, it } from 'vitest';
import { defineResource, codesOf, screenPath } from './define.ts';
import { CHOOSE_KINDS, decodeMsg, msg, nounOf, requiredText } from './messages.ts';
import { bodySchema, idListSchema, idSchema } from './schema.ts';

const def = defineResource({
  code: 'sample',
  group: 'demo',
  base: '/api/demo/sample',
  label: { zh: '样例', en: 'Sample' },
  scope: 'tenant',
  fields: {
    code: { kind: 'text', label: { zh: '编号', en: 'Code' }, required: true, max: 8 },
    sort: { kind: 'int', label: { zh: '排序', en: 'Sort' }, min: 0, max: 99 },
    kind: { kind: 'dict', dict: 'k', keys: 'int', values: [1, 2], label: { zh: '类型', en: 'Kind' }, required: true },
    parentId: { kind: 'ref', ref: 'sample', options: { url: '/x' }, label: { zh: '上级', en: 'Parent' } },
    at: { kind: 'datetime', label: { zh: '时间', en: 'Time' } },
    day: { kind: 'date', label: { zh: '日期', en: 'Release date' } },
    name: { kind: 'text', virtual: true, label: { zh: '名称', en: 'Name' } },
  },
});

/** The messages of a failed parse, in English, by field. */
function errors(value: unknown): Record<string, string> {
  const r = bodySchema(def).safeParse(value);
  if (r.success) return {};
  return Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), decodeMsg(i.message)?.en ?? i.message]));
}

describe('bodies derived from a definition', () => {
  it('names each missing required field by its own message, in both languages', () => {
    expect(errors({})).toEqual({ code: 'Enter the code', kind: 'Select the kind' });
    const zh = bodySchema(def).safeParse({});
    expect(zh.success).toBe(false);
    expect(zh.error!.issues.map((i) => decodeMsg(i.message)?.zh)).toEqual(['请输入编号', '请选择类型']);
  });

  it('types and bounds every value, with a message instead of a database error', () => {
    expect(
      errors({ code: 'x'.repeat(9), kind: 3, sort: 'abc', parentId: '99999999999999999999', at: '10000-01-01' }),
    ).toEqual({
      code: 'Code: at most 8 characters',
      kind: 'Kind has an invalid value',
      sort: 'Sort must be a whole number',
      parentId: 'Parent must be a numeric id',
      at: 'Time is not a valid date',
    });
    expect(errors({ code: 'a\u0000', kind: 1 })).toEqual({ code: 'Code contains a character that is not allowed' });
    expect(errors({ code: 'a', kind: 1, sort: 100 })).toEqual({ sort: 'Sort must be between 0 and 99' });
  });

  it('accepts strings for numbers, trims text, drops unknown and virtual keys', () => {
    const r = bodySchema(def).parse({ code: ' a ', kind: '2', sort: '5', parentId: 12, junk: 1, name: 'x' });
    expect(r).toEqual({ code: 'a', kind: 2, sort: 5, parentId: '12' });
  });

  it('clears optional values with null or empty', () => {
    expect(bodySchema(def).parse({ code: 'a', kind: 1, sort: '', at: null })).toMatchObject({ sort: null, at: null });
  });

  it('a date is a calendar day written YYYY-MM-DD, kept as sent; anything else is refused by name', () => {
    expect(bodySchema(def).parse({ code: 'a', kind: 1, day: '2026-11-27' }).day).toBe('2026-11-27');
    expect(bodySchema(def).parse({ code: 'a', kind: 1, day: '' }).day).toBeNull();
    for (const bad of ['2026-11-27T00:00:00.000Z', '2026-02-30', '27/11/2026', '1899-12-31', '2026-1-2', 20261127])
      expect([bad, errors({ code: 'a', kind: 1, day: bad })]).toEqual([
        bad,
        { day: 'Release date must be a valid day written YYYY-MM-DD' },
      ]);
    // A datetime stays an instant.
    expect(bodySchema(def).parse({ code: 'a', kind: 1, at: '2026-11-27T00:00:00+08:00' }).at).toEqual(
      new Date('2026-11-26T16:00:00.000Z'),
    );
  });

  it('generated English texts read as sentences: the label as a noun, acronyms and overrides kept', () => {
    const field = (en: string, kind: 'text' | 'date' = 'text', noun?: string) =>
      ({ kind, label: { zh: '字段', en }, required: true, noun }) as const;
    expect(requiredText(field('Title'))).toEqual({ zh: '请输入字段', en: 'Enter the title' });
    expect(requiredText(field('Release date', 'date'))!.en).toBe('Select the release date');
    expect(nounOf(field('Client ID')).en).toBe('client ID');
    expect(nounOf(field('RTSP URL of the IPv4 camera')).en).toBe('RTSP URL of the IPv4 camera');
    expect(nounOf(field('MQTT and SMS')).en).toBe('MQTT and SMS');
    expect(nounOf(field('English name')).en).toBe('English name');
    expect(requiredText(field('TLS', 'text', 'TLS mode'))!.en).toBe('Enter the TLS mode');
    // The web asks 请选择 / "Select" for the kinds the contract names, the server answers the same.
    expect([...CHOOSE_KINDS].sort()).toEqual(['date', 'datetime', 'dict', 'ref', 'region', 'switch', 'upload']);
  });

  it('ids: bigint range, lists of 1–N', () => {
    expect(idSchema().safeParse('9223372036854775807').success).toBe(true);
    expect(idSchema().safeParse('9223372036854775808').success).toBe(false);
    expect(idListSchema().parse('1, 2,3')).toEqual(['1', '2', '3']);
    expect(decodeMsg(idListSchema().safeParse('').error!.issues[0].message)).toEqual(msg('idsRequired'));
  });

  it('codes and paths follow one convention', () => {
    expect(codesOf(def)).toEqual({
      view: 'sample',
      add: 'sample_add',
      edit: 'sample_edit',
      remove: 'sample_delete',
      viewButton: 'sample_view',
    });
    expect(screenPath(def)).toBe('/demo/sample/index');
  });
});

describe('secret fields and read-only resources (docs/resources.md)', () => {
  const vault = defineResource({
    code: 'vault',
    group: 'demo',
    base: '/api/demo/vault',
    label: { zh: 'vault', en: 'Vault' },
    scope: 'tenant',
    fields: {
      key: {
        kind: 'secret',
        label: { zh: 'key', en: 'Key' },
        mask: '******',
        reveal: 'insert',
        pattern: { regex: '^[\\s\\S]{16,}$', message: { zh: 'short', en: 'At least 16 characters' } },
      },
    },
  });
  const parse = (v: unknown) => bodySchema(vault).safeParse({ key: v });

  it('holds a secret to its pattern, but takes its mask and an empty value as "unchanged"', () => {
    expect(parse('short').success).toBe(false);
    expect(decodeMsg(parse('short').error!.issues[0].message)?.en).toBe('At least 16 characters');
    for (const kept of ['******', '', 'sixteen-chars-ok']) expect([kept, parse(kept).success]).toEqual([kept, true]);
  });

  it('refuses an add call on a read-only resource', () => {
    const bad = { ...vault, code: 'ro', readOnly: true as const, createPath: 'save' };
    expect(() => defineResource(bad)).toThrow(/read-only/);
  });
});
