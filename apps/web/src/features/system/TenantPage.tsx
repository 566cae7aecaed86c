import { useMemo, useState } from 'react';
import { App, DatePicker, Form, InputNumber, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import CrudPage from '../../components/crud/CrudPage';
import { DATE_FORMAT } from '../../components/crud/FieldInput';
import { useSubmit } from '../../components/crud/useSubmit';
import type { CrudContext, CrudField, CrudSchema, Row } from '../../components/crud/types';
import { repairTenantAdmin, tenantSetting } from '../../api/system';
import i18n from '../../i18n';
import { showOnce } from './once';

const unlimitedAccounts = (v: unknown) =>
  v === -1 || v === '-1' || v === null || v === undefined ? i18n.t('tenant.unlimited') : String(v);
const expiry = (v: unknown) => (v ? dayjs(v as string).format(DATE_FORMAT) : i18n.t('tenant.unlimited'));

const fields: CrudField[] = [
  {
    name: 'tenantId',
    label: 'tenant.tenantId',
    editable: 'add',
    placeholder: 'tenant.idHint',
    search: true,
    width: 110,
  },
  { name: 'tenantName', label: 'tenant.tenantName', required: true, search: true },
  { name: 'linkman', label: 'tenant.linkman', search: true },
  { name: 'contactNumber', label: 'tenant.contactNumber' },
  { name: 'domain', label: 'tenant.domain' },
  { name: 'address', label: 'tenant.address', column: false },
  { name: 'backgroundUrl', label: 'tenant.backgroundUrl', column: false },
  {
    name: 'accountNumber',
    label: 'tenant.accountNumber',
    type: 'number',
    default: -1,
    render: unlimitedAccounts,
    placeholder: 'tenant.accountHint',
  },
  { name: 'expireTime', label: 'tenant.expireTime', type: 'date', render: expiry },
];

function SettingDialog({ rows, onClose, ctx }: { rows: Row[]; onClose: () => void; ctx: CrudContext }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ accountNumber: number; expireTime?: Dayjs | null }>();
  const [saving, submit] = useSubmit();
  const one = rows.length === 1 ? rows[0] : undefined;
  const ok = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    await submit(
      () =>
        tenantSetting(
          rows.map((r) => r.id),
          { accountNumber: v.accountNumber ?? -1, expireTime: v.expireTime ? v.expireTime.format() : null },
        ),
      t('tenant.settingSaved'),
      async () => {
        onClose();
        await ctx.refresh();
      },
    );
  };
  return (
    <Modal
      open
      title={t('tenant.setting')}
      onCancel={onClose}
      onOk={() => void ok()}
      confirmLoading={saving}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
    >
      <Form
        form={form}
        layout="vertical"
        name="tenant-setting"
        initialValues={{
          accountNumber: (one?.accountNumber as number | undefined) ?? -1,
          expireTime: one?.expireTime ? dayjs(one.expireTime as string) : null,
        }}
      >
        <Form.Item
          name="accountNumber"
          label={t('tenant.accountNumber')}
          extra={t('tenant.accountHint')}
          rules={[{ required: true, message: t('tenant.accountRequired') }]}
        >
          <InputNumber min={-1} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="expireTime" label={t('tenant.expireTime')} extra={t('tenant.expireHint')}>
          <DatePicker showTime style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 租户管理: a new tenant's administrator account and password are shown once; 授权配置 sets accounts and expiry. */
export default function TenantPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [setting, setSetting] = useState<{ rows: Row[]; ctx: CrudContext } | null>(null);
  const schema = useMemo<CrudSchema>(
    () => ({
      base: '/api/blade-system/tenant',
      title: 'tenant.title',
      codes: { add: 'tenant_add', edit: 'tenant_edit', delete: 'tenant_delete', view: 'tenant_view' },
      fields,
      actions: [
        {
          code: 'tenant_setting',
          label: 'tenant.setting',
          needsSelection: true,
          onClick: (rows, ctx) => setSetting({ rows, ctx }),
        },
        {
          code: 'tenant_setting',
          label: 'tenant.repairAdmin',
          needsSelection: true,
          onClick: (rows) =>
            modal.confirm({
              title: t('tenant.repairConfirm'),
              okText: t('common.ok'),
              cancelText: t('common.cancel'),
              onOk: async () => {
                for (const row of rows) {
                  const done = await repairTenantAdmin(row.id);
                  showOnce(modal, t('tenant.repairTitle'), [
                    [t('tenant.tenantId'), done.tenantId],
                    [t('tenant.adminAccount'), done.account],
                    [t('tenant.oneTimePassword'), done.password],
                  ]);
                }
              },
            }),
        },
      ],
      onSaved: (saved, mode) => {
        if (mode === 'add' && saved.adminAccount) {
          showOnce(modal, t('tenant.adminTitle'), [
            [t('tenant.tenantId'), String(saved.tenantId ?? '')],
            [t('tenant.adminAccount'), String(saved.adminAccount)],
            [t('tenant.adminPassword'), String(saved.adminPassword ?? '')],
          ]);
        }
      },
    }),
    [modal, t],
  );
  return (
    <>
      <CrudPage schema={schema} />
      {setting && <SettingDialog rows={setting.rows} ctx={setting.ctx} onClose={() => setSetting(null)} />}
    </>
  );
}
