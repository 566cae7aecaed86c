import { describe, expect, it } from 'vitest';
import { fill } from '../../resource/messages.ts';
import { checkConfigValue, configProblemOf, configValueTexts, type ConfigRuleItem } from './configtemplateitem.ts';

const item = (over: Partial<ConfigRuleItem>): ConfigRuleItem => ({
  itemName: '帧率',
  valueType: 'number',
  defaultValue: null,
  options: null,
  min: 1,
  max: 60,
  required: 0,
  ...over,
});

describe('config value rules (one set for the server and the form)', () => {
  it('checks a value by its item: type, range, options', () => {
    expect(checkConfigValue(item({}), 25)).toEqual({ ok: 25 });
    expect(checkConfigValue(item({}), 61)).toEqual({
      error: fill(configValueTexts.configRange, { name: '帧率', min: 1, max: 60 }),
    });
    expect(checkConfigValue(item({}), '25')).toEqual({
      error: { zh: '配置项“帧率”的值必须是数字', en: 'Config item "帧率" must be a number' },
    });
    const codec = item({ itemName: 'Codec', valueType: 'enum', options: 'H264, 265' });
    expect(checkConfigValue(codec, '265')).toEqual({ ok: '265' });
    expect('error' in checkConfigValue(codec, 265)).toBe(true);
  });

  it('an empty value takes the default; a required item without either is refused', () => {
    expect(configProblemOf(item({ required: 1, defaultValue: '25' }), undefined)).toBeNull();
    expect(configProblemOf(item({ required: 1 }), '')).toEqual(fill(configValueTexts.configRequired, { name: '帧率' }));
    expect(configProblemOf(item({ required: 0 }), null)).toBeNull();
    expect(configProblemOf(item({ defaultValue: '99' }), undefined)).toEqual(
      fill(configValueTexts.configRange, { name: '帧率', min: 1, max: 60 }),
    );
  });
});
