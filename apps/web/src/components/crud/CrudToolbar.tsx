import type { ReactNode } from 'react';
import { App, Button, Space } from 'antd';
import { DeleteOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { CrudController } from './useCrudController';
import type { Row } from './types';

/**
 * 新增 (unless the schema says `create: false`) / 删除 (of the selection; neither on a read-only schema), the schema's toolbar actions, the lifecycle actions that take several records,
 * `children` (a screen's own buttons) and refresh; each by the user's permission codes.
 */
export function CrudToolbar<R extends Row>({ c, children }: { c: CrudController<R>; children?: ReactNode }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { schema, can } = c;
  const toolbar = (schema.actions ?? []).filter((a) => !a.code || can[a.code]);
  const many = (schema.lifecycle ?? []).filter((a) => a.many && can[a.code]);
  return (
    <Space style={{ marginBottom: 12 }} wrap>
      {schema.create !== false && can[schema.codes.add] && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => void c.open('add')}>
          {t('crud.add')}
        </Button>
      )}
      {!schema.readOnly && can[schema.codes.delete] && (
        <Button danger icon={<DeleteOutlined />} onClick={() => c.remove(c.selected)}>
          {t('crud.delete')}
        </Button>
      )}
      {toolbar.map((a) => (
        <Button
          key={a.label}
          icon={a.icon}
          danger={a.danger}
          onClick={() => {
            const picked = c.selectedRows();
            if (a.needsSelection && !picked.length) message.warning(t('crud.selectOne'));
            else a.onClick(picked, c.ctx);
          }}
        >
          {t(a.label)}
        </Button>
      ))}
      {many.map((a) => (
        <Button key={a.name} danger={a.danger} onClick={() => c.act(a, c.selectedRows())}>
          {t(a.label)}
        </Button>
      ))}
      {children}
      <Button icon={<ReloadOutlined />} onClick={() => void c.refresh()} aria-label={t('common.refresh')} />
    </Space>
  );
}
