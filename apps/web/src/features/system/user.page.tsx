import { useCallback, useMemo, useState } from 'react';
import { App, Card, Col, Empty, Row as Grid, Spin, Tag, Tree } from 'antd';
import { useTranslation } from 'react-i18next';
import { user } from '@atrium/contract/resources/system/user';
import CrudPage from '../../components/crud/CrudPage';
import { useResourceSchema } from '../../components/crud/ResourcePage';
import { useTree } from '../../components/crud/sources';
import type { CrudSchema } from '../../components/crud/types';
import type { RecordOf } from '../../components/crud/fromDefinition';
import { useSettings } from '../../stores/settings';
import { showOnce } from './once';

type User = RecordOf<(typeof user)['fields']>;
const STATUS_COLOURS: Record<number, string> = { 1: 'green', 2: 'orange', 3: 'default' };

/**
 * 用户管理 from its definition (docs/web.md "Screens by convention"): the department tree on the left filters the
 * table (that department and below) and is the new user's department; the definition's actions give 角色配置,
 * 重置密码 (the one-time passwords shown once, with copy), 审核 (register-guest applications) and 解锁.
 */
export default function UserPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const depts = useTree(user.fields.deptId.options.url);
  const [deptId, setDeptId] = useState<string | undefined>();
  // Below 768 px the tree stacks above the table instead of squeezing it.
  const narrow = useSettings((s) => s.screen === 0);

  const adjust = useCallback(
    (s: CrudSchema<User>): CrudSchema<User> => ({
      ...s,
      fields: s.fields.map((f) =>
        f.name === 'status'
          ? {
              ...f,
              kind: 'dict',
              width: 90,
              options: [1, 2, 3].map((value) => ({ value, label: `user.status${value}` })),
              render: (v: unknown) => {
                const n = Number(v);
                return (
                  <Tag color={STATUS_COLOURS[n] ?? 'default'}>{t(`user.status${n in STATUS_COLOURS ? n : 1}`)}</Tag>
                );
              },
            }
          : f,
      ),
      lifecycle: s.lifecycle?.map((a) =>
        a.name === 'reset-password'
          ? {
              ...a,
              onDone: (answer) =>
                showOnce(
                  modal,
                  t('user.resetTitle'),
                  ((answer ?? []) as { account: string; password: string }[]).map((d) => [d.account, d.password]),
                ),
            }
          : a,
      ),
      addDefaults: () => (deptId ? { deptId } : {}),
    }),
    [deptId, modal, t],
  );
  const schema = useResourceSchema(user, adjust);
  const params = useMemo(() => (deptId ? { deptId } : undefined), [deptId]);

  return (
    <Grid gutter={[12, 12]} wrap={narrow}>
      <Col flex={narrow ? '100%' : '240px'} style={{ minWidth: 0 }}>
        <Card
          title={t('user.depts')}
          size="small"
          styles={{ body: { padding: 8, maxHeight: narrow ? 200 : 'calc(100vh - 220px)', overflow: 'auto' } }}
        >
          {depts.isLoading ? (
            <Spin />
          ) : depts.data?.length ? (
            <Tree
              treeData={depts.data}
              defaultExpandAll
              blockNode
              selectedKeys={deptId ? [deptId] : []}
              onSelect={(keys) => setDeptId(keys.length ? String(keys[0]) : undefined)}
              data-testid="dept-tree"
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
          )}
        </Card>
      </Col>
      <Col flex={narrow ? '100%' : 'auto'} style={{ minWidth: 0 }}>
        <CrudPage schema={schema} params={params} />
      </Col>
    </Grid>
  );
}
