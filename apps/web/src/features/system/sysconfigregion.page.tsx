import { Button, Checkbox, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { fill, type Lang, type Msg } from '@atrium/contract';
import {
  CONFIG_DEFAULT_REGION,
  CONFIG_KEY_PATTERN,
  configTexts,
  parseConfig,
  sysconfigregion,
  type ConfigObject,
} from '@atrium/contract/resources/system/sysconfigregion';
import ResourcePage, { type ResourceHooks } from '../../components/crud/ResourcePage';
import { RegionCascader } from '../../components/crud/RegionCascader';
import { registerFieldType, type InputProps } from '../../components/crud/fieldTypes';
import type { RecordOf } from '../../components/crud/fromDefinition';
import { catalogue } from '../../components/crud/texts';

/**
 * 区域配置 (docs/product.md "Config by region"): the definition's screen, with two controls of its own — the region
 * (a cascader, or the tenant default '00') and the settings, edited as a list of key, type and value rows and
 * checked by the same rules as the server (`parseConfig` of the definition).
 */

type SettingRow = { key: string; type: 'text' | 'number' | 'boolean'; value: string | number | boolean | null };

const langOf = (language: string): Lang => (language.startsWith('en') ? 'en' : 'zh');
const useText = () => {
  const { i18n } = useTranslation();
  const lang = langOf(i18n.language);
  return (m: Msg) => m[lang];
};

/** The stored object → the rows of the editor. */
const toRows = (v: unknown): SettingRow[] => {
  const parsed = parseConfig(v);
  if (!parsed.ok) return Array.isArray(v) ? (v as SettingRow[]) : [];
  return Object.entries(parsed.config).map(([key, value]) => ({
    key,
    type: typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'text',
    value,
  }));
};

/** The rows → the object sent; the first problem as a message, if any. */
function fromRows(rows: SettingRow[]): { config?: ConfigObject; problem?: Msg } {
  const seen = new Set<string>();
  const out: Record<string, unknown> = {};
  for (const r of rows) {
    const key = r.key.trim();
    if (seen.has(key)) return { problem: fill(configTexts.duplicateKey, { key }) };
    seen.add(key);
    if (r.type === 'number' && (r.value === null || r.value === '' || !Number.isFinite(Number(r.value))))
      return { problem: fill(configTexts.badNumber, { key }) };
    out[key] = r.type === 'number' ? Number(r.value) : r.type === 'boolean' ? r.value === true : String(r.value ?? '');
  }
  const parsed = parseConfig(out);
  return parsed.ok ? { config: parsed.config } : { problem: parsed.message };
}

function SettingsInput(p: InputProps) {
  const text = useText();
  const rows = Array.isArray(p.value) ? (p.value as SettingRow[]) : [];
  const set = (next: SettingRow[]) => p.onChange?.(next);
  const change = (i: number, patch: Partial<SettingRow>) => set(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <Space direction="vertical" style={{ width: '100%' }} id={p.id}>
      {rows.map((r, i) => (
        <Space key={i} align="start" wrap>
          <Input
            placeholder={text(configTexts.key)}
            value={r.key}
            disabled={p.disabled}
            status={r.key && !CONFIG_KEY_PATTERN.test(r.key) ? 'error' : undefined}
            onChange={(e) => change(i, { key: e.target.value })}
            style={{ width: 200 }}
          />
          <Select
            value={r.type}
            disabled={p.disabled}
            style={{ width: 100 }}
            onChange={(type: SettingRow['type']) =>
              change(i, { type, value: type === 'boolean' ? false : type === 'number' ? null : '' })
            }
            options={[
              { value: 'text', label: text(configTexts.typeText) },
              { value: 'number', label: text(configTexts.typeNumber) },
              { value: 'boolean', label: text(configTexts.typeBoolean) },
            ]}
          />
          {r.type === 'boolean' ? (
            <Switch checked={r.value === true} disabled={p.disabled} onChange={(v) => change(i, { value: v })} />
          ) : r.type === 'number' ? (
            <InputNumber
              placeholder={text(configTexts.value)}
              value={typeof r.value === 'number' ? r.value : null}
              disabled={p.disabled}
              onChange={(v) => change(i, { value: v })}
              style={{ width: 220 }}
            />
          ) : (
            <Input
              placeholder={text(configTexts.value)}
              value={String(r.value ?? '')}
              disabled={p.disabled}
              onChange={(e) => change(i, { value: e.target.value })}
              style={{ width: 220 }}
            />
          )}
          {!p.disabled && (
            <Button
              aria-label={text(configTexts.remove)}
              icon={<DeleteOutlined />}
              onClick={() => set(rows.filter((_, j) => j !== i))}
            />
          )}
        </Space>
      ))}
      {!p.disabled && (
        <Button icon={<PlusOutlined />} onClick={() => set([...rows, { key: '', type: 'text', value: '' }])}>
          {text(configTexts.addSetting)}
        </Button>
      )}
    </Space>
  );
}

function ConfigRegionInput(p: InputProps) {
  const text = useText();
  const isDefault = p.value === CONFIG_DEFAULT_REGION;
  if (p.search) return <RegionCascader {...p} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Checkbox
        checked={isDefault}
        disabled={p.disabled}
        onChange={(e) => p.onChange?.(e.target.checked ? CONFIG_DEFAULT_REGION : undefined)}
      >
        {text(configTexts.tenantDefault)}
      </Checkbox>
      {!isDefault && <RegionCascader {...p} />}
    </Space>
  );
}

const summary = (v: unknown) =>
  Object.entries((v ?? {}) as Record<string, unknown>)
    .map(([k, x]) => `${k}=${String(x)}`)
    .join(', ');

registerFieldType('config-object', {
  input: SettingsInput,
  toForm: (v) => toRows(v),
  fromForm: (v) => (Array.isArray(v) ? (fromRows(v as SettingRow[]).config ?? v) : v),
  cell: (v) => (
    <Typography.Text ellipsis={{ tooltip: summary(v) }} style={{ maxWidth: 320 }}>
      {summary(v)}
    </Typography.Text>
  ),
  rules: (_f, { lang }) => [
    {
      validator: (_, v) => {
        const rows = Array.isArray(v) ? (v as SettingRow[]) : toRows(v);
        const { problem } = fromRows(rows);
        return problem ? Promise.reject(new Error(problem[lang])) : Promise.resolve();
      },
    },
  ],
});

registerFieldType('config-region', {
  input: ConfigRegionInput,
  search: RegionCascader,
  text: true,
  rules: (_f, { lang, label }) => [{ pattern: /^\d{2,12}$/, message: catalogue('badFormat', lang, { label }) }],
});

type Row = RecordOf<typeof sysconfigregion.fields>;

const hooks: ResourceHooks<Row> = {
  schema: (derived) => ({
    ...derived,
    fields: derived.fields.map((f) =>
      f.name === 'regionCode'
        ? {
            ...f,
            render: (v: unknown, row: Row) =>
              v === CONFIG_DEFAULT_REGION ? <DefaultLabel /> : `${row.regionName ?? ''} (${String(v)})`,
          }
        : f,
    ),
  }),
};

function DefaultLabel() {
  const text = useText();
  return <>{text(configTexts.tenantDefault)}</>;
}

export default function SysConfigRegionPage() {
  return <ResourcePage def={sysconfigregion} hooks={hooks} />;
}
