import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Space,
  Table,
  type FormRule,
  type TableColumnsType,
  type TableProps,
} from 'antd';
import { DeleteOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@atrium/contract';
import { crudApi, errorOf } from '../../api/crud';
import { useSession } from '../../stores/session';
import FieldInput from './FieldInput';
import { CellValue, RowActions, type RowButton } from './cells';
import { useCrudRows } from './rows';
import { useFieldSources } from './sources';
import type { CrudContext, CrudField, CrudSchema, Mode, Row } from './types';

type Dialog = { mode: Mode; row?: Row; initial: Record<string, unknown> };

/** A record → the form's values: secrets left out, the "none" value of a tree shown empty, comma lists as arrays. */
function toForm(fields: CrudField[], record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record };
  for (const f of fields) {
    const v = record[f.name];
    if (f.secret) delete out[f.name];
    else if (f.root !== undefined && (v === f.root || String(v) === f.root)) out[f.name] = undefined;
    else if (f.multiple && typeof v === 'string') out[f.name] = v.split(',').filter(Boolean);
  }
  return out;
}

/** The form's values → the body: empty secrets not sent, an empty tree choice sent as its "none" value. */
function fromForm(fields: CrudField[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const f of fields) {
    if (!(f.name in out)) continue;
    const v = out[f.name];
    const empty = v === undefined || v === null || v === '';
    if (f.secret && empty) delete out[f.name];
    else if (f.root !== undefined && empty) out[f.name] = f.root;
  }
  return out;
}

/** The validator's type of a field (without one it checks for a string, and 0 or [1] would fail "required"). */
function requiredRule(f: CrudField, message: string): FormRule {
  if (f.type === 'number' || f.type === 'switch') return { type: 'number', required: true, message };
  if (f.multiple) return { type: 'array', required: true, message };
  if (f.type === 'select' || f.type === 'tree') {
    return {
      required: true,
      message,
      validator: (_, v) =>
        v === undefined || v === null || v === '' ? Promise.reject(new Error(message)) : Promise.resolve(),
    };
  }
  return {
    type: 'string',
    required: true,
    message,
    whitespace: !f.type || f.type === 'text' || f.type === 'textarea' || f.type === 'password',
  };
}

const inDialog = (f: CrudField, mode: Mode) =>
  f.form !== false && !(f.addOnly && mode !== 'add') && !(f.hideInView && mode === 'view');
const isDisabled = (f: CrudField, mode: Mode) =>
  mode === 'view' || f.editable === false || (f.editable === 'add' && mode !== 'add');

/**
 * The one CRUD screen (spec §2 "Generic CRUD list screens", §8 messages, §9 page sizes): search, add / view /
 * edit / delete, multi-select delete, paging, or a (lazy) tree table; options from dictionaries, URLs and trees;
 * buttons and row actions by the user's permission codes; server field errors on their fields; a stale edit (409)
 * offers to reload. `params` are fixed filters (e.g. the department picked beside the user table).
 */
export default function CrudPage({
  schema,
  params,
  extra,
}: {
  schema: CrudSchema;
  params?: Record<string, unknown>;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const api = useMemo(() => crudApi(schema.base, schema.listPath), [schema.base, schema.listPath]);
  const can = useSession((s) => s.permission);
  const queryClient = useQueryClient();
  const [searchForm] = Form.useForm();
  const [form] = Form.useForm();
  const [query, setQuery] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ current: 1, size: schema.pageSize ?? DEFAULT_PAGE_SIZE });
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [saving, setSaving] = useState(false);

  // New fixed filters (another department, another dictionary): back to the first page, nothing selected.
  const paramsKey = JSON.stringify(params ?? {});
  const [seenParams, setSeenParams] = useState(paramsKey);
  if (seenParams !== paramsKey) {
    setSeenParams(paramsKey);
    setPage((p) => ({ ...p, current: 1 }));
    setSelected([]);
  }

  const { fields } = schema;
  const sources = useFieldSources(fields);
  const { rows, total, loading, expanded, onExpand } = useCrudRows(schema, params, page, query);

  const refresh = useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['crud', schema.base] }),
      queryClient.invalidateQueries({ queryKey: ['tree'] }),
      queryClient.invalidateQueries({ queryKey: ['options'] }),
    ]);
  }, [queryClient, schema.base]);

  const open = async (mode: Mode, row?: Row, defaults?: Record<string, unknown>) => {
    if (row) {
      const record = await api.detail<Row>(row.id);
      setDialog({ mode, row, initial: toForm(fields, record) });
      return;
    }
    const initial: Record<string, unknown> = {};
    for (const f of fields) if (f.default !== undefined) initial[f.name] = f.default;
    setDialog({ mode, initial: toForm(fields, { ...initial, ...schema.addDefaults?.(), ...defaults }) });
  };
  const remove = (ids: string[]) => {
    if (!ids.length) {
      message.warning(t('crud.selectOne'));
      return;
    }
    modal.confirm({
      title: t('crud.confirmDelete'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
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
    const body = fromForm(fields, values);
    setSaving(true);
    try {
      const saved = row
        ? await api.submit<Record<string, unknown>>(
            { ...body, id: row.id, version: form.getFieldValue('version') ?? row.version },
            schema.updatePath,
          )
        : await api.submit<Record<string, unknown>>(body);
      message.success(t(row ? 'crud.updated' : 'crud.added'));
      setDialog(null);
      schema.onSaved?.(saved ?? {}, row ? 'edit' : 'add');
      await refresh();
    } catch (err) {
      const { status, fields: errors } = errorOf(err);
      if (errors.length) form.setFields(errors.map((f) => ({ name: f.field, errors: [f.message] })));
      if (status === 409) {
        modal.confirm({
          title: t('crud.stale'),
          okText: t('crud.reload'),
          cancelText: t('common.cancel'),
          onOk: async () => {
            if (row) form.setFieldsValue(toForm(fields, await api.detail<Row>(row.id)));
            await refresh();
          },
        });
      }
    } finally {
      setSaving(false);
    }
  };

  // Every dialog starts from its own record: the one form store must not carry values over from the last dialog.
  useEffect(() => {
    if (dialog) form.resetFields();
  }, [dialog, form]);

  const ctx: CrudContext = { refresh, add: (values) => void open('add', undefined, values) };
  // Row buttons call through a ref, so the memoised columns and cells never see a new handler.
  const latest = useRef({ open, remove, ctx, schema });
  useLayoutEffect(() => {
    latest.current = { open, remove, ctx, schema };
  });
  const onAction = useCallback((key: string, row: Row) => {
    const { open: o, remove: r, ctx: c, schema: s } = latest.current;
    if (key === '_view' || key === '_edit') void o(key === '_view' ? 'view' : 'edit', row);
    else if (key === '_delete') r([row.id]);
    else if (key === '_child')
      void o('add', undefined, s.addDefaults?.(row) ?? { [s.tree?.parentField ?? 'parentId']: row.id });
    else s.rowActions?.find((a) => `x:${a.label}` === key)?.onClick([row], c);
  }, []);

  const buttons = useMemo<RowButton[]>(
    () => [
      ...(can[schema.codes.view] ? [{ key: '_view', label: t('crud.view') }] : []),
      ...(can[schema.codes.edit] ? [{ key: '_edit', label: t('crud.edit') }] : []),
      ...(can[schema.codes.delete] ? [{ key: '_delete', label: t('crud.delete'), danger: true }] : []),
      ...(schema.tree && can[schema.codes.add] ? [{ key: '_child', label: t('crud.addChild') }] : []),
      ...(schema.rowActions ?? [])
        .filter((a) => !a.code || can[a.code])
        .map((a) => ({ key: `x:${a.label}`, label: t(a.label), danger: a.danger })),
    ],
    [can, schema.codes, schema.tree, schema.rowActions, t],
  );

  const columns = useMemo<TableColumnsType<Row>>(
    () => [
      ...fields
        .filter((f) => f.column !== false)
        .map((f) => ({
          title: t(f.label),
          dataIndex: f.name,
          key: f.name,
          width: f.width,
          ellipsis: true,
          render: (v: unknown, r: Row) => <CellValue f={f} value={v} row={r} labels={sources.labels[f.name]} />,
        })),
      ...(buttons.length
        ? [
            {
              title: t('crud.actions'),
              key: '_actions',
              width: schema.actionWidth ?? Math.max(120, buttons.length * 56),
              fixed: 'right' as const,
              render: (_: unknown, r: Row) => <RowActions row={r} buttons={buttons} onAction={onAction} />,
            },
          ]
        : []),
    ],
    [fields, sources.labels, buttons, onAction, schema.actionWidth, t],
  );

  const rowSelection = useMemo<TableProps<Row>['rowSelection']>(
    () => ({ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)), checkStrictly: true }),
    [selected],
  );
  const pagination = useMemo<TableProps<Row>['pagination']>(
    () =>
      schema.tree
        ? false
        : {
            current: page.current,
            pageSize: page.size,
            total,
            pageSizeOptions: PAGE_SIZES.map(String),
            showSizeChanger: true,
            showTotal: (n: number) => t('crud.total', { n }),
            onChange: (current: number, size: number) => setPage({ current, size }),
          },
    [schema.tree, page, total, t],
  );
  const expandable = useMemo<TableProps<Row>['expandable']>(
    () => (schema.tree?.lazy ? { expandedRowKeys: expanded, onExpand } : undefined),
    [schema.tree, expanded, onExpand],
  );
  const onRowClick = schema.onRowClick;
  const onRow = useCallback((r: Row) => ({ onClick: () => onRowClick?.(r) }), [onRowClick]);
  const activeId = schema.activeRowId;
  const rowClassName = useCallback((r: Row) => (r.id === activeId ? 'crud-row-active' : ''), [activeId]);

  const searchFields = fields.filter((f) => f.search);
  const toolbar = (schema.actions ?? []).filter((a) => !a.code || can[a.code]);
  const selectedRows = () => {
    const all: Row[] = [];
    const walk = (list: Row[]) =>
      list.forEach((r) => {
        all.push(r);
        if (r.children) walk(r.children);
      });
    walk(rows);
    return all.filter((r) => selected.includes(r.id));
  };
  const mode = dialog?.mode ?? 'view';

  return (
    <Card title={t(schema.title)} data-testid="crud-page" extra={extra}>
      {searchFields.length > 0 && (
        <Form
          form={searchForm}
          name="crud-search"
          layout="inline"
          style={{ marginBottom: 12, rowGap: 8 }}
          onFinish={(v) => {
            setQuery(
              Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== null && x !== '')),
            );
            setPage((p) => ({ ...p, current: 1 }));
          }}
        >
          {searchFields.map((f) => (
            <Form.Item key={f.name} name={f.name} label={t(f.label)}>
              <FieldInput f={f} search options={sources.options[f.name]} tree={sources.trees[f.name]} />
            </Form.Item>
          ))}
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              {t('common.search')}
            </Button>
            <Button
              onClick={() => {
                searchForm.resetFields();
                setQuery({});
              }}
            >
              {t('common.reset')}
            </Button>
          </Space>
        </Form>
      )}
      <Space style={{ marginBottom: 12 }} wrap>
        {can[schema.codes.add] && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void open('add')}>
            {t('crud.add')}
          </Button>
        )}
        {can[schema.codes.delete] && (
          <Button danger icon={<DeleteOutlined />} onClick={() => remove(selected)}>
            {t('crud.delete')}
          </Button>
        )}
        {toolbar.map((a) => (
          <Button
            key={a.label}
            icon={a.icon}
            danger={a.danger}
            onClick={() => {
              const picked = selectedRows();
              if (a.needsSelection && !picked.length) message.warning(t('crud.selectOne'));
              else a.onClick(picked, ctx);
            }}
          >
            {t(a.label)}
          </Button>
        ))}
        <Button icon={<ReloadOutlined />} onClick={() => void refresh()} aria-label={t('common.refresh')} />
      </Space>
      <Table<Row>
        rowKey="id"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        rowSelection={rowSelection}
        pagination={pagination}
        expandable={expandable}
        onRow={onRow}
        rowClassName={rowClassName}
      />
      <Modal
        open={!!dialog}
        width={schema.dialogWidth ?? 640}
        destroyOnHidden
        confirmLoading={saving}
        title={dialog ? t(`crud.${dialog.mode}`) : ''}
        onCancel={() => setDialog(null)}
        onOk={mode === 'view' ? () => setDialog(null) : () => void save()}
        okText={t(mode === 'view' ? 'common.ok' : 'common.submit')}
        cancelText={t('common.cancel')}
      >
        {dialog && (
          <Form form={form} name="crud-record" layout="vertical" preserve={false} initialValues={dialog.initial}>
            {fields
              .filter((f) => inDialog(f, mode))
              .map((f) => {
                const item = (
                  <Form.Item
                    key={f.name}
                    name={f.name}
                    label={t(f.label)}
                    validateTrigger={['onChange', 'onBlur']}
                    rules={
                      f.required
                        ? [requiredRule(f, t(f.requiredMessage ?? 'crud.required', { field: t(f.label) }))]
                        : []
                    }
                  >
                    <FieldInput
                      f={f}
                      disabled={isDisabled(f, mode)}
                      options={sources.options[f.name]}
                      tree={sources.trees[f.name]}
                    />
                  </Form.Item>
                );
                if (!f.visible) return item;
                return (
                  <Form.Item key={f.name} noStyle shouldUpdate>
                    {() => (f.visible!(form.getFieldsValue(true)) ? item : null)}
                  </Form.Item>
                );
              })}
            <Form.Item name="version" hidden>
              <Input />
            </Form.Item>
          </Form>
        )}
      </Modal>
    </Card>
  );
}
