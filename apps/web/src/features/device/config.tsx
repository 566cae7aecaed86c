import { useEffect, useRef, type ReactNode } from 'react';
import { Col, Descriptions, Form, Input, InputNumber, Row, Select, Switch, Tag, Typography, theme } from 'antd';
import type { FormRule } from 'antd';
import { FormItemInputContext } from 'antd/es/form/context';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { deviceApi } from '@atrium/contract';
import {
  configDefaultOf,
  configOptionsOf,
  configProblemOf,
  type ConfigValueType,
} from '@atrium/contract/resources/device/configtemplateitem';
import { call } from '../../api/call';
import { registerFieldType, type InputProps } from '../../components/crud/fieldTypes';
import { langOf } from '../../components/crud/texts';
import type { CrudField } from '../../components/crud/types';
import i18n from '../../i18n';
import { deviceConfigTexts } from './messages';
import './config.css';
import EmptyState from '../../components/EmptyState';

/**
 * A camera's config, item by item (docs/devices.md "Config form"): the items of the chosen template
 * (`cameraDevice/configItems`) drawn as one control each — a number, a select of the options, a switch, a text — with
 * the template's default as the hint. The form holds the device's own values as an object; the body carries them as
 * the JSON text `configValues` the server reads. The view shows `effectiveConfig` (defaults merged with the values).
 */

i18n.addResourceBundle('zh', 'translation', { deviceConfig: deviceConfigTexts.zh }, true, false);
i18n.addResourceBundle('en', 'translation', { deviceConfig: deviceConfigTexts.en }, true, false);

/** One item as `cameraDevice/configItems` answers it. */
export type ConfigItem = {
  itemKey: string;
  itemName: string;
  valueType: ConfigValueType;
  defaultValue: string | null;
  options: string | null;
  unit: string | null;
  min: number | null;
  max: number | null;
  required: number;
};
type Value = string | number | boolean;
type Values = Record<string, Value>;

/** The items of the templates loaded so far (read by the form rule, which has no hooks). */
const loaded = new Map<string, ConfigItem[]>();

function useItems(templateId: string | null | undefined) {
  return useQuery({
    queryKey: ['device-config-items', templateId],
    queryFn: async () => {
      const items: ConfigItem[] = await call(deviceApi.configItems, { query: { templateId: templateId! } });
      loaded.set(String(templateId), items);
      return items;
    },
    enabled: !!templateId,
    staleTime: 30_000,
  });
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** An item's default (stored as text) as a value of its type; undefined when it has none. */
export const defaultOf = (item: ConfigItem): Value | undefined => configDefaultOf(item) as Value | undefined;

/**
 * What is wrong with an item's value, or null: the rules and texts the server applies, both from the contract
 * (configtemplateitem.ts, docs/devices.md "Config form").
 */
export function problemOf(item: ConfigItem, value: unknown, language: string): string | null {
  return configProblemOf(item, value)?.[langOf(language)] ?? null;
}

/** The item a server message names (by its quoted name, or its key), if any. */
function itemNamed(items: ConfigItem[], message: string): ConfigItem | undefined {
  return (
    items.find((i) => message.includes(`“${i.itemName}”`) || message.includes(`"${i.itemName}"`)) ??
    items.find((i) => new RegExp(`(^|\\s)${i.itemKey.replace(/\./g, '\\.')}(\\s|$)`).test(message))
  );
}

const shown = (item: ConfigItem, v: Value | undefined, t: TFunction): string => {
  if (v === undefined) return '';
  if (item.valueType === 'boolean') return t(v ? 'deviceConfig.yes' : 'deviceConfig.no');
  return item.unit ? `${String(v)} ${item.unit}` : String(v);
};

function ItemControl({
  item,
  id,
  value,
  onChange,
  disabled,
}: {
  item: ConfigItem;
  id: string;
  value: Value | undefined;
  onChange: (v: Value | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const d = defaultOf(item);
  const placeholder = d === undefined ? undefined : t('deviceConfig.default', { value: shown(item, d, t) });
  switch (item.valueType) {
    case 'number':
      // No min / max on the control: antd would clamp a number out of range silently; the rule says what is wrong.
      return (
        <InputNumber
          id={id}
          value={value as number | undefined}
          onChange={(v) => onChange(v as number | null)}
          placeholder={placeholder}
          disabled={disabled}
          suffix={item.unit ?? undefined}
          style={{ width: '100%' }}
        />
      );
    case 'boolean':
      return (
        <Switch
          id={id}
          checked={(value ?? d ?? false) === true}
          onChange={(v) => onChange(v)}
          disabled={disabled}
          checkedChildren={t('deviceConfig.yes')}
          unCheckedChildren={t('deviceConfig.no')}
        />
      );
    case 'enum':
      return (
        <Select
          id={id}
          value={value as string | undefined}
          onChange={(v) => onChange(v ?? null)}
          placeholder={placeholder}
          disabled={disabled}
          allowClear
          options={configOptionsOf(item).map((o) => ({ value: o, label: o }))}
          style={{ width: '100%' }}
        />
      );
    default:
      return (
        <Input
          id={id}
          value={value as string | undefined}
          onChange={(e) => onChange(e.target.value)}
          placeholder={placeholder}
          disabled={disabled}
          suffix={item.unit ?? undefined}
        />
      );
  }
}

const asValues = (v: unknown): Values => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Values) : {});

/**
 * The config control of the record dialog: the form's `configValues` (an object of the device's own values). Its
 * errors — the rule's and the server's (400 on `configValues`, naming the item) — are drawn on the item they name;
 * the field's own error line is hidden (config.css).
 */
function ConfigInput(p: InputProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const form = Form.useFormInstance();
  const templateId = Form.useWatch('configTemplateId', form) as string | null | undefined;
  const q = useItems(templateId);
  const items = q.data;
  const values = asValues(p.value);
  const { errors } = Form.Item.useStatus();
  const touched = useRef(new Set<string>());

  // Another template (or none): the values of the one before do not apply.
  const first = useRef(templateId);
  useEffect(() => {
    if (templateId === first.current) return;
    // The first template seen is the record's (useWatch answers undefined on the first render): nothing to clear.
    const before = first.current;
    first.current = templateId;
    if (before === undefined) return;
    touched.current.clear();
    if (Object.keys(asValues(p.value)).length) p.onChange?.(null);
    // Only a change of template clears; the value itself is read at that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [templateId]);

  const set = (key: string, v: Value | null) => {
    touched.current.add(key);
    const next = { ...values };
    if (isEmpty(v)) delete next[key];
    else next[key] = v!;
    p.onChange?.(next);
  };

  let body: ReactNode;
  const free: string[] = [];
  if (!templateId) body = <Typography.Text type="secondary">{t('deviceConfig.chooseTemplate')}</Typography.Text>;
  else if (!items) body = <Typography.Text type="secondary">{t('deviceConfig.loading')}</Typography.Text>;
  else if (!items.length) body = <Typography.Text type="secondary">{t('deviceConfig.noItems')}</Typography.Text>;
  else {
    // Once the field shows errors (a submit, a refusal), every item says what is wrong with it.
    const named = new Map<string, string>();
    for (const e of errors) {
      const item = itemNamed(items, String(e));
      if (item && !named.has(item.itemKey)) named.set(item.itemKey, String(e));
      else if (!item) free.push(String(e));
    }
    body = (
      <Row gutter={[16, 4]}>
        {items.map((item) => {
          const id = `${p.id ?? 'configValues'}_${item.itemKey}`;
          const own = problemOf(item, values[item.itemKey], i18n.language);
          const error = touched.current.has(item.itemKey) || errors.length ? (own ?? named.get(item.itemKey)) : null;
          const help =
            item.valueType === 'number' && (item.min !== null || item.max !== null)
              ? t('deviceConfig.range', { min: item.min ?? '-∞', max: item.max ?? '∞' })
              : null;
          return (
            <Col key={item.itemKey} xs={24} sm={12}>
              <div className="atrium-config-item">
                <label htmlFor={id} className="atrium-config-label">
                  {item.required === 1 && <span style={{ color: token.colorError, marginInlineEnd: 4 }}>*</span>}
                  {item.itemName}
                </label>
                <FormItemInputContext.Provider value={{ status: error ? 'error' : undefined }}>
                  <ItemControl
                    item={item}
                    id={id}
                    value={values[item.itemKey]}
                    onChange={(v) => set(item.itemKey, v)}
                    disabled={p.disabled}
                  />
                </FormItemInputContext.Provider>
                <div className="atrium-config-help" role={error ? 'alert' : undefined}>
                  {error ? <Typography.Text type="danger">{error}</Typography.Text> : help}
                </div>
              </div>
            </Col>
          );
        })}
      </Row>
    );
  }
  if (!items?.length) free.push(...errors.map(String));
  return (
    <div id={p.id} className="atrium-config">
      {free.map((e) => (
        <div key={e} role="alert">
          <Typography.Text type="danger">{e}</Typography.Text>
        </div>
      ))}
      {body}
    </div>
  );
}

/** The rule of the config field: every item's value checked (the messages the items show). */
const configRules = (): FormRule[] => [
  ({ getFieldValue }) => ({
    validator: (_, v: unknown) => {
      const items = loaded.get(String(getFieldValue('configTemplateId'))) ?? [];
      const values = asValues(v);
      for (const item of items) {
        const problem = problemOf(item, values[item.itemKey], i18n.language);
        if (problem) return Promise.reject(new Error(problem));
      }
      return Promise.resolve();
    },
  }),
];

/** The effective config of a device in its view: item, value, and whether the value is the template's default. */
function EffectiveConfig(p: InputProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const templateId = form.getFieldValue('configTemplateId') as string | null | undefined;
  const own = asValues(form.getFieldValue('configValues'));
  const effective = asValues(p.value);
  const q = useItems(templateId);
  if (!templateId) return <Typography.Text type="secondary">{t('deviceConfig.noTemplate')}</Typography.Text>;
  if (!q.data) return <Typography.Text type="secondary">{t('deviceConfig.loading')}</Typography.Text>;
  if (!q.data.length) return <EmptyState description={t('deviceConfig.noItems')} />;
  return (
    <Descriptions
      id={p.id}
      bordered
      size="small"
      column={1}
      items={q.data.map((item) => {
        const v = effective[item.itemKey];
        const set = item.itemKey in own;
        return {
          key: item.itemKey,
          label: item.itemName,
          children:
            v === undefined ? (
              <Typography.Text type="secondary">{t('deviceConfig.unset')}</Typography.Text>
            ) : (
              <span className="atrium-config-value">
                <span>{shown(item, v, t)}</span>
                <Tag color={set ? 'blue' : undefined}>
                  {t(set ? 'deviceConfig.fromDevice' : 'deviceConfig.fromDefault')}
                </Tag>
              </span>
            ),
        };
      })}
    />
  );
}

registerFieldType('deviceConfig', {
  input: ConfigInput,
  rules: configRules,
  // The record's JSON text → the form's object; the object → the JSON text the server reads (null when empty).
  toForm: (v) => {
    if (typeof v !== 'string' || !v.trim()) return asValues(v);
    try {
      return asValues(JSON.parse(v));
    } catch {
      return {};
    }
  },
  fromForm: (v) => {
    const values = Object.fromEntries(Object.entries(asValues(v)).filter(([, x]) => !isEmpty(x)));
    return Object.keys(values).length ? JSON.stringify(values) : null;
  },
});
registerFieldType('deviceEffectiveConfig', { input: EffectiveConfig });

/**
 * The camera schema's config fields: `configValues` drawn item by item (not shown in the view), and the effective
 * config after it, in the view only.
 */
export function withConfigFields<F extends CrudField>(fields: F[]): F[] {
  return fields.flatMap((f) =>
    f.name === 'configValues'
      ? [
          {
            ...f,
            kind: 'deviceConfig',
            label: 'deviceConfig.label',
            placeholder: undefined,
            max: undefined,
            hideInView: true,
            wide: true,
          },
          {
            ...f,
            name: 'effectiveConfig',
            kind: 'deviceEffectiveConfig',
            label: 'deviceConfig.effective',
            placeholder: undefined,
            max: undefined,
            required: false,
            viewOnly: true,
            wide: true,
            column: false,
            search: false,
          },
        ]
      : [f],
  );
}
