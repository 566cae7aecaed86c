import { useState } from 'react';
import { Badge, Button, Form, Grid, Space } from 'antd';
import { DownOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useTabScope } from '../../layout/tabScope';
import FieldInput from './FieldInput';
import { searchParams } from './fieldTypes';
import type { CrudController } from './useCrudController';
import type { CrudField, Row } from './types';

/**
 * How many search fields stand open before the rest fold behind "more filters" (docs/web.md "Search form"): three on
 * a phone (below antd's `md`, 768 px), six on wider screens.
 */
export const OPEN_FIELDS = { narrow: 3, wide: 6 } as const;

/** Whether a search field holds a value that reaches the list's parameters. */
const isActive = (f: CrudField, v: unknown) => Object.keys(searchParams([f], { [f.name]: v })).length > 0;

/**
 * The search form: fields with `search` ('in' as a multi-select, 'range' as from–to); nothing when there are none.
 * Beyond `OPEN_FIELDS` the rest fold behind a toggle that counts the folded fields holding a value; folded fields stay
 * in the form (hidden, not removed), so their values still apply to the search.
 */
export function CrudSearch<R extends Row>({ c }: { c: CrudController<R> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  // Kept tabs stay in the document: a per-tab form name keeps element ids (and label targets) unique.
  const scope = useTabScope();
  const screens = Grid.useBreakpoint();
  const [expanded, setExpanded] = useState(false);
  const fields = c.schema.fields.filter((f) => f.search);
  const open = screens.md ? OPEN_FIELDS.wide : OPEN_FIELDS.narrow;
  const folds = fields.length > open;
  const folded = folds && !expanded ? fields.slice(open) : [];
  const foldedNames = new Set(folded.map((f) => f.name));
  // The folded fields holding a value (read from the form's store, so it follows typing, setting and resetting).
  const hiddenActive =
    (Form.useWatch(
      (values: Record<string, unknown>) => folded.filter((f) => isActive(f, values?.[f.name])).length,
      form,
    ) as number | undefined) ?? 0;
  if (!fields.length) return null;
  return (
    <Form
      form={form}
      name={`${scope}crud-search`}
      layout="inline"
      style={{ marginBottom: 12, rowGap: 8 }}
      onFinish={(v: Record<string, unknown>) => c.search(v)}
    >
      {fields.map((f) => (
        <Form.Item key={f.name} name={f.name} label={t(f.label)} hidden={foldedNames.has(f.name)}>
          <FieldInput f={f} search options={c.sources.options[f.name]} tree={c.sources.trees[f.name]} />
        </Form.Item>
      ))}
      <Space wrap>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('common.search')}
        </Button>
        <Button
          onClick={() => {
            form.resetFields();
            c.resetSearch();
          }}
        >
          {t('common.reset')}
        </Button>
        {folds && (
          <Button
            type="link"
            aria-expanded={expanded}
            icon={expanded ? <UpOutlined /> : <DownOutlined />}
            iconPlacement="end"
            onClick={() => setExpanded((e) => !e)}
            style={{ paddingInline: 4 }}
          >
            {expanded ? t('crud.fewerFilters') : t('crud.moreFilters')}
            {!expanded && hiddenActive > 0 && (
              <Badge
                count={hiddenActive}
                size="small"
                title={t('crud.activeFilters', { n: hiddenActive })}
                aria-label={t('crud.activeFilters', { n: hiddenActive })}
              />
            )}
          </Button>
        )}
      </Space>
    </Form>
  );
}
