import { Button, Form, Space } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useTabScope } from '../../layout/tabScope';
import FieldInput from './FieldInput';
import type { CrudController } from './useCrudController';
import type { Row } from './types';

/** The search form: fields with `search` ('in' as a multi-select, 'range' as from–to); nothing when there are none. */
export function CrudSearch<R extends Row>({ c }: { c: CrudController<R> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  // Kept tabs stay in the document: a per-tab form name keeps element ids (and label targets) unique.
  const scope = useTabScope();
  const fields = c.schema.fields.filter((f) => f.search);
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
        <Form.Item key={f.name} name={f.name} label={t(f.label)}>
          <FieldInput f={f} search options={c.sources.options[f.name]} tree={c.sources.trees[f.name]} />
        </Form.Item>
      ))}
      <Space>
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
      </Space>
    </Form>
  );
}
