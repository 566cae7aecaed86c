import { useMemo, useState } from 'react';
import { App, Card, Col, Empty, Form, Modal, Row as Grid, Spin, Tag, Tree, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import CrudPage from '../../components/crud/CrudPage';
import { useTree } from '../../components/crud/sources';
import { useSubmit } from '../../components/crud/useSubmit';
import type { CrudContext, CrudField, CrudSchema, Row } from '../../components/crud/types';
import { approveUsers, grantUserRoles, resetPasswords, unlockUsers } from '../../api/system';
import i18n from '../../i18n';
import { useSettings } from '../../stores/settings';
import { showOnce } from './once';

const DEPT_TREE = '/api/blade-system/dept/tree';
const ROLE_TREE = '/api/blade-system/role/tree';

const STATUS_COLOURS: Record<number, string> = { 1: 'green', 2: 'orange', 3: 'default' };
const statusTag = (v: unknown) => {
  const n = Number(v);
  return <Tag color={STATUS_COLOURS[n] ?? 'default'}>{i18n.t(`user.status${n in STATUS_COLOURS ? n : 1}`)}</Tag>;
};

const fields: CrudField[] = [
  { name: 'account', label: 'user.account', required: true, search: true },
  // Sent as typed on insert (the server checks the policy); never loaded, never on edit.
  {
    name: 'password',
    label: 'user.password',
    type: 'password',
    addOnly: true,
    secret: true,
    required: true,
    column: false,
  },
  { name: 'realName', label: 'user.realName', required: true, search: true },
  { name: 'name', label: 'user.name' },
  { name: 'phone', label: 'user.phone', search: true },
  { name: 'email', label: 'user.email', column: false },
  { name: 'birthday', label: 'user.birthday', type: 'date', dateOnly: true, column: false },
  {
    name: 'sex',
    label: 'user.sex',
    type: 'select',
    dict: 'sex',
    width: 70,
    options: [
      { value: 1, label: 'user.male' },
      { value: 2, label: 'user.female' },
      { value: 3, label: 'user.unknown' },
    ],
  },
  { name: 'deptId', label: 'user.deptId', type: 'tree', treeUrl: DEPT_TREE, display: 'deptName' },
  {
    name: 'postId',
    label: 'user.postId',
    type: 'select',
    optionsUrl: '/api/blade-system/post/select',
    optionLabel: 'postName',
    display: 'postName',
  },
  { name: 'roleIds', label: 'user.roleIds', type: 'tree', treeUrl: ROLE_TREE, multiple: true, display: 'roleName' },
  // "Own region and below" data scopes follow it (docs/system-api.md); the form only.
  { name: 'regionCode', label: 'user.regionCode', kind: 'region', column: false },
  {
    name: 'status',
    label: 'user.status',
    type: 'select',
    form: false,
    search: true,
    width: 90,
    render: statusTag,
    options: [1, 2, 3].map((value) => ({ value, label: `user.status${value}` })),
  },
];

function RolesDialog({ rows, ctx, onClose }: { rows: Row[]; ctx: CrudContext; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const roles = useTree(ROLE_TREE);
  const [roleIds, setRoleIds] = useState<string[]>(() =>
    rows.length === 1
      ? String(rows[0].roleIds ?? '')
          .split(',')
          .filter(Boolean)
      : [],
  );
  const [saving, submit] = useSubmit();
  const ok = async () => {
    if (!roleIds.length) {
      message.warning(t('user.pickRoles'));
      return;
    }
    await submit(
      () => grantUserRoles({ userIds: rows.map((r) => r.id), roleIds }),
      t('system.granted'),
      async () => {
        onClose();
        await ctx.refresh();
      },
    );
  };
  return (
    <Modal
      open
      title={t('user.roleConfig')}
      onCancel={onClose}
      onOk={() => void ok()}
      confirmLoading={saving}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
    >
      <Form layout="vertical">
        <Form.Item label={t('user.roleIds')}>
          <TreeSelect
            treeData={roles.data}
            value={roleIds}
            onChange={(v) => setRoleIds((v as string[]).map(String))}
            multiple
            treeCheckable
            showCheckedStrategy={TreeSelect.SHOW_ALL}
            treeDefaultExpandAll
            style={{ width: '100%' }}
            loading={roles.isLoading}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * 用户管理: the department tree on the left filters the table (that department and below); toolbar 角色配置,
 * 重置密码 (one-time passwords shown once, with copy), 审核 (register-guest applications), 解锁.
 */
export default function UserPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const depts = useTree(DEPT_TREE);
  const [deptId, setDeptId] = useState<string | undefined>();
  const [granting, setGranting] = useState<{ rows: Row[]; ctx: CrudContext } | null>(null);
  // Below 768 px the tree stacks above the table instead of squeezing it.
  const narrow = useSettings((s) => s.screen === 0);

  const schema = useMemo<CrudSchema>(() => {
    const confirmThen = (title: string, run: () => Promise<unknown>, done: string, ctx: CrudContext) =>
      modal.confirm({
        title,
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        onOk: async () => {
          await run();
          message.success(t(done));
          await ctx.refresh();
        },
      });
    return {
      base: '/api/blade-user',
      listPath: 'page',
      updatePath: 'update',
      title: 'user.title',
      codes: { add: 'user_add', edit: 'user_edit', delete: 'user_delete', view: 'user_view' },
      fields,
      actions: [
        {
          code: 'user_role',
          label: 'user.roleConfig',
          needsSelection: true,
          onClick: (rows, ctx) => setGranting({ rows, ctx }),
        },
        {
          code: 'user_reset',
          label: 'user.resetPassword',
          needsSelection: true,
          onClick: (rows) =>
            modal.confirm({
              title: t('user.resetConfirm'),
              okText: t('common.ok'),
              cancelText: t('common.cancel'),
              onOk: async () => {
                const done = await resetPasswords(rows.map((r) => r.id));
                showOnce(
                  modal,
                  t('user.resetTitle'),
                  (done ?? []).map((d) => [d.account, d.password]),
                );
              },
            }),
        },
        {
          code: 'user_approve',
          label: 'user.approve',
          needsSelection: true,
          onClick: (rows, ctx) =>
            confirmThen(t('user.approveConfirm'), () => approveUsers(rows.map((r) => r.id)), 'user.approved', ctx),
        },
        {
          code: 'user_unlock',
          label: 'user.unlock',
          needsSelection: true,
          onClick: (rows, ctx) =>
            confirmThen(t('user.unlockConfirm'), () => unlockUsers(rows.map((r) => r.id)), 'user.unlocked', ctx),
        },
      ],
      addDefaults: () => (deptId ? { deptId } : {}),
    };
  }, [message, modal, t, deptId]);
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
      {granting && <RolesDialog rows={granting.rows} ctx={granting.ctx} onClose={() => setGranting(null)} />}
    </Grid>
  );
}
