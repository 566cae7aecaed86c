import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Input, Space, Table } from 'antd';
import type { TableProps } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { useTabScope } from '../../../layout/tabScope';
import type { ListParams, Page } from './api';
import './texts';

/** The query key of a work list: a screen reloads its list after an action by invalidating it. */
export const listKey = (name: string) => ['flow-work', name] as const;

/** A time as the lists show it (local, to the minute); empty for none. */
export const showTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '');

type Props<R> = {
  /** Query key of the list (the screen's name). */
  name: string;
  load: (params: ListParams) => Promise<Page<R>>;
  columns: NonNullable<TableProps<R>['columns']>;
  rowKey: keyof R & string;
  /** The list filter the search box sends (a `like` filter of the server's list rules on the process name). */
  filterField?: string;
  extra?: ReactNode;
};

type Sort = { ascs?: string; descs?: string };

/**
 * One of the 我的事务 lists (docs/workflow.md "Screens: my work and leave"): a search box, the table with server paging
 * and sorting, and its loading, empty and error states.
 */
export default function WorkList<R extends object>({
  name,
  load,
  columns,
  rowKey,
  filterField = 'processDefinitionName',
  extra,
}: Props<R>) {
  const { t } = useTranslation();
  const placeholder = t('flowWork.processNamePlaceholder');
  const scope = useTabScope();
  const [typed, setTyped] = useState('');
  const [text, setText] = useState('');
  const [paging, setPaging] = useState({ current: 1, size: 10 });
  const [sort, setSort] = useState<Sort>({});
  const params: ListParams = { ...paging, ...sort, ...(text ? { [filterField]: text } : {}) };
  const list = useQuery({
    queryKey: [...listKey(name), params],
    queryFn: () => load(params),
    placeholderData: keepPreviousData,
  });

  const search = (value: string) => {
    setText(value.trim());
    setPaging((p) => ({ ...p, current: 1 }));
  };
  const onChange: TableProps<R>['onChange'] = (pg, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = s?.order ? String(s.columnKey ?? s.field) : undefined;
    setSort(field ? (s.order === 'ascend' ? { ascs: field } : { descs: field }) : {});
    setPaging({ current: pg.current ?? 1, size: pg.pageSize ?? 10 });
  };

  return (
    <Card variant="borderless">
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          id={`${scope}flow-work-${name}-search`}
          allowClear
          value={typed}
          placeholder={placeholder}
          aria-label={placeholder}
          enterButton={t('flowWork.search')}
          onChange={(e) => setTyped(e.target.value)}
          onSearch={search}
          style={{ width: 320, maxWidth: '100%' }}
        />
        <Button
          onClick={() => {
            setTyped('');
            search('');
          }}
        >
          {t('flowWork.reset')}
        </Button>
        <Button icon={<ReloadOutlined />} aria-label={t('flowWork.refresh')} onClick={() => void list.refetch()} />
        {extra}
      </Space>
      {list.isError && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('flowWork.loadFailed')}
          action={
            <Button size="small" onClick={() => void list.refetch()}>
              {t('flowWork.retry')}
            </Button>
          }
        />
      )}
      <Table<R>
        rowKey={rowKey}
        size="middle"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.records ?? []}
        onChange={onChange}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: paging.current,
          pageSize: paging.size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('flowWork.total', { total }),
        }}
      />
    </Card>
  );
}
