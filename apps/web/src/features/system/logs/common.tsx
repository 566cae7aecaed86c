import { useState } from 'react';
import { Alert, Button, DatePicker, Form, Input, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import type { ResourceDef } from '@atrium/contract';
import { DATE_FORMAT } from '../../../components/crud/formats';
import { langOf } from '../../../components/crud/texts';
import i18n from '../../../i18n';
import { useTabScope } from '../../../layout/tabScope';
import { logViewTexts, recordFieldLabels } from './messages';

/** Shared parts of the log screens (docs/web.md "Log screens"): texts, the filter bar, times, field labels. */

i18n.addResourceBundle('zh', 'translation', { logView: logViewTexts.zh }, true, false);
i18n.addResourceBundle('en', 'translation', { logView: logViewTexts.en }, true, false);

/** A time as the console shows it (empty for none). */
export const timeText = (v: string | null | undefined) => (v && dayjs(v).isValid() ? dayjs(v).format(DATE_FORMAT) : '');

export type Filters = Record<string, string>;
type FilterField = { name: string; label: string };

/** The filter bar: text fields and a time range (createTime_dategt / _datelt); searching starts at page 1. */
export function FilterBar({ fields, onSearch }: { fields: FilterField[]; onSearch: (f: Filters) => void }) {
  const { t } = useTranslation();
  const scope = useTabScope();
  const [form] = Form.useForm();
  const search = () => {
    const v = form.getFieldsValue() as Record<string, unknown>;
    const out: Filters = {};
    for (const f of fields) {
      const s = String(v[f.name] ?? '').trim();
      if (s) out[f.name] = s;
    }
    const range = v.range as [Dayjs | null, Dayjs | null] | undefined;
    if (range?.[0]) out.createTime_dategt = range[0].toISOString();
    if (range?.[1]) out.createTime_datelt = range[1].toISOString();
    onSearch(out);
  };
  return (
    <Form
      form={form}
      name={`${scope}log-filters`}
      layout="inline"
      style={{ marginBottom: 12, rowGap: 8 }}
      onFinish={search}
    >
      {fields.map((f) => (
        <Form.Item key={f.name} name={f.name} label={f.label}>
          <Input allowClear style={{ width: 150 }} />
        </Form.Item>
      ))}
      <Form.Item name="range" label={t('logView.range')}>
        <DatePicker.RangePicker showTime />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit">
          {t('logView.search')}
        </Button>
        <Button
          onClick={() => {
            form.resetFields();
            onSearch({});
          }}
        >
          {t('logView.reset')}
        </Button>
      </Space>
    </Form>
  );
}

/** The warning a list shows when more rows match than it pages. */
export function CappedNote({ capped, limit }: { capped?: boolean; limit: number }) {
  const { t } = useTranslation();
  if (!capped) return null;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 12 }}
      title={t('logView.capped', { n: limit.toLocaleString() })}
    />
  );
}

/** A paged list's state: filters and page, reset to page 1 on a new search. */
export function usePaged(size: number) {
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ current: 1, size });
  return {
    query: { ...filters, current: page.current, size: page.size },
    page,
    setPage,
    search: (f: Filters) => {
      setFilters(f);
      setPage((p) => ({ ...p, current: 1 }));
    },
  };
}

// The contract's resource definitions, one lazy chunk each, by file name (`<group>/<code>.ts`).
const definitions = import.meta.glob<Record<string, unknown>>([
  '../../../../../../packages/contract/src/resources/*/*.ts',
  '!../../../../../../packages/contract/src/resources/*/*.test.ts',
]);

/** The resource definition an audit row's entity names, if it is a resource's code. */
export function useEntityDef(entity: string | undefined) {
  return useQuery({
    queryKey: ['logView', 'def', entity],
    enabled: !!entity,
    staleTime: Infinity,
    queryFn: async (): Promise<ResourceDef | null> => {
      const file = Object.keys(definitions).find((f) => f.endsWith(`/${entity}.ts`));
      if (!file) return null;
      const mod = await definitions[file]();
      const def = Object.values(mod).find(
        (v) => !!v && typeof v === 'object' && (v as ResourceDef).code === entity && 'fields' in v,
      );
      return (def as ResourceDef | undefined) ?? null;
    },
  });
}

/** A field's label in the console's language: the definition's, the record columns', else its name. */
export function fieldLabel(def: ResourceDef | null | undefined, field: string): string {
  const lang = langOf(i18n.language);
  const label = def?.fields[field]?.label ?? recordFieldLabels[field];
  return label ? label[lang] : field;
}

/** An entity's name in the console's language: its definition's label, else its code. */
export const entityLabel = (def: ResourceDef | null | undefined, entity: string) =>
  def ? `${def.label[langOf(i18n.language)]} (${entity})` : entity;

/** A value of a diff as text: empty shows as '—', records and lists as JSON. */
export function valueText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
