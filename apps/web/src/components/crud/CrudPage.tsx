import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, InputNumber, Modal, Select, Space, Table, type TableColumnsType } from 'antd';
import { DeleteOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@atrium/contract';
import { crudApi, errorOf } from '../../api/crud';
import { useSession } from '../../stores/session';
import type { CrudField, CrudSchema } from './types';

type Row = Record<string, unknown> & { id: string; version?: number };
type Mode = 'add' | 'edit' | 'view';

/** The control of a field; Form.Item injects id, value and onChange, which are passed through. */
function FieldInput({ f, disabled, ...control }: { f: CrudField; disabled?: boolean } & Record<string, unknown>) {
  if (f.type === 'number') return <InputNumber {...control} style={{ width: '100%' }} disabled={disabled} />;
  if (f.type === 'textarea') return <Input.TextArea {...control} rows={3} disabled={disabled} />;
  if (f.type === 'select') return <Select {...control} options={f.options} disabled={disabled} allowClear style={{ minWidth: 140 }} />;
  return <Input {...control} disabled={disabled} />;
}

/**
 * The one CRUD screen (spec §2 "Generic CRUD list screens", §8 messages, §9 page sizes): search, add / view /
 * edit / delete, multi-select delete, paging; buttons by the user's permission codes; server field errors on
 * their fields; a stale edit (409) offers to reload.
 */
export default function CrudPage({ schema }: { schema: CrudSchema }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const api = crudApi(schema.base, schema.listPath);
  const can = useSession((s) => s.permission);
  const queryClient = useQueryClient();
  const [searchForm] = Form.useForm();
  const [form] = Form.useForm();
  const [query, setQuery] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ current: 1, size: DEFAULT_PAGE_SIZE });
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<{ mode: Mode; row?: Row } | null>(null);
  const [saving, setSaving] = useState(false);

  const key = ['crud', schema.base, page, query];
  const list = useQuery({ queryKey: key, queryFn: () => api.list<Row>({ ...query, current: page.current, size: page.size }), placeholderData: keepPreviousData });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['crud', schema.base] });

  const label = (f: CrudField) => t(f.label);
  const open = async (mode: Mode, row?: Row) => {
    setDialog({ mode, row });
    form.resetFields();
    if (row) form.setFieldsValue(await api.detail<Row>(row.id));
  };
  const remove = (ids: string[]) => {
    if (!ids.length) {
      message.warning(t('crud.selectOne'));
      return;
    }
    modal.confirm({
      title: t('crud.confirmDelete'), okText: t('common.ok'), cancelText: t('common.cancel'),
      onOk: async () => {
        await api.remove(ids);
        message.success(t('crud.deleted'));
        setSelected([]);
        await refresh();
      },
    });
  };
  const save = async () => {
    // Invalid fields show their own messages; nothing to send.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const row = dialog?.row;
    setSaving(true);
    try {
      await api.submit(row ? { ...values, id: row.id, version: form.getFieldValue('version') ?? row.version } : values);
      message.success(t(row ? 'crud.updated' : 'crud.added'));
      setDialog(null);
      await refresh();
    } catch (err) {
      const { status, fields } = errorOf(err);
      if (fields.length) form.setFields(fields.map((f) => ({ name: f.field, errors: [f.message] })));
      if (status === 409) {
        modal.confirm({
          title: t('crud.stale'), okText: t('crud.reload'), cancelText: t('common.cancel'),
          onOk: async () => { if (row) form.setFieldsValue(await api.detail<Row>(row.id)); await refresh(); },
        });
      }
    } finally {
      setSaving(false);
    }
  };

  const columns: TableColumnsType<Row> = [
    ...schema.fields.filter((f) => f.column !== false).map((f) => ({
      title: label(f), dataIndex: f.name, key: f.name, width: f.width, ellipsis: true,
      render: (v: unknown, r: Row) => (f.render ? f.render(v, r) : f.options ? f.options.find((o) => String(o.value) === String(v))?.label ?? String(v ?? '') : String(v ?? '')),
    })),
    {
      title: t('crud.actions'), key: '_actions', width: 200, fixed: 'right' as const,
      render: (_: unknown, r: Row) => (
        <Space size={0}>
          {can[schema.codes.view] && <Button type="link" size="small" onClick={() => void open('view', r)}>{t('crud.view')}</Button>}
          {can[schema.codes.edit] && <Button type="link" size="small" onClick={() => void open('edit', r)}>{t('crud.edit')}</Button>}
          {can[schema.codes.delete] && <Button type="link" size="small" danger onClick={() => remove([r.id])}>{t('crud.delete')}</Button>}
        </Space>
      ),
    },
  ];
  const searchFields = schema.fields.filter((f) => f.search);
  const data = list.data;

  return (
    <Card title={t(schema.title)} data-testid="crud-page">
      {searchFields.length > 0 && (
        <Form form={searchForm} name="crud-search" layout="inline" style={{ marginBottom: 12, rowGap: 8 }}
          onFinish={(v) => { setQuery(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== ''))); setPage((p) => ({ ...p, current: 1 })); }}>
          {searchFields.map((f) => <Form.Item key={f.name} name={f.name} label={label(f)}><FieldInput f={{ ...f, type: f.type === 'textarea' ? 'text' : f.type }} /></Form.Item>)}
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>{t('common.search')}</Button>
            <Button onClick={() => { searchForm.resetFields(); setQuery({}); }}>{t('common.reset')}</Button>
          </Space>
        </Form>
      )}
      <Space style={{ marginBottom: 12 }}>
        {can[schema.codes.add] && <Button type="primary" icon={<PlusOutlined />} onClick={() => void open('add')}>{t('crud.add')}</Button>}
        {can[schema.codes.delete] && <Button danger icon={<DeleteOutlined />} onClick={() => remove(selected)}>{t('crud.delete')}</Button>}
        <Button icon={<ReloadOutlined />} onClick={() => void refresh()} aria-label={t('common.refresh')} />
      </Space>
      <Table<Row> rowKey="id" size="middle" loading={list.isFetching} columns={columns} dataSource={data?.records ?? []} scroll={{ x: 'max-content' }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
        pagination={{
          current: page.current, pageSize: page.size, total: data?.total ?? 0, pageSizeOptions: PAGE_SIZES.map(String), showSizeChanger: true,
          showTotal: (n) => t('crud.total', { n }), onChange: (current, size) => setPage({ current, size }),
        }} />
      <Modal open={!!dialog} width={640} destroyOnHidden confirmLoading={saving}
        title={dialog ? t(`crud.${dialog.mode}`) : ''} onCancel={() => setDialog(null)}
        onOk={dialog?.mode === 'view' ? () => setDialog(null) : () => void save()} okText={t(dialog?.mode === 'view' ? 'common.ok' : 'common.submit')} cancelText={t('common.cancel')}>
        <Form form={form} name="crud-record" layout="vertical" preserve={false}>
          {schema.fields.filter((f) => f.form !== false).map((f) => (
            <Form.Item key={f.name} name={f.name} label={label(f)} rules={f.required ? [{ required: true, message: t(f.requiredMessage ?? 'crud.required', { field: label(f) }) }] : []}>
              <FieldInput f={f} disabled={dialog?.mode === 'view'} />
            </Form.Item>
          ))}
          <Form.Item name="version" hidden><Input /></Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
