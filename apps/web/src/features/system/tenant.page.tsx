import { useCallback, useEffect, useState } from 'react';
import { App, Checkbox, Modal, Progress, Select, Upload } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { website } from '@atrium/contract';
import { tenant } from '@atrium/contract/resources/system/tenant';
import CrudPage from '../../components/crud/CrudPage';
import { DATE_FORMAT } from '../../components/crud/FieldInput';
import { useResourceSchema } from '../../components/crud/ResourcePage';
import type { CrudSchema, Row } from '../../components/crud/types';
import { showOnce } from './once';
import { bindTenant, datasourceOptions, downloadTenant, uploadTenant } from '../../api/tenant';
import { sizeText } from '../../api/download';

type Repaired = { tenantId: string; account: string; password: string };
const notPlatform = (r: Row) => String(r.tenantId) !== website.defaultTenantId;

/** 数据源: moves the tenant's rows to a data source, or back to the main database (docs/tenants.md). */
function BindDialog({ tenantId, onClose }: { tenantId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [options, setOptions] = useState<{ value: string; label: string }[] | null>(null);
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  // Seconds since the move began: it runs in one request (a large tenant takes tens of seconds), so the time is shown.
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    void datasourceOptions().then(setOptions, () => setOptions([]));
  }, []);
  useEffect(() => {
    if (!busy) return;
    setSeconds(0);
    const timer = setInterval(() => setSeconds((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [busy]);
  return (
    <Modal
      open
      title={t('tenant.bindTitle', { tenantId })}
      okButtonProps={{ loading: busy }}
      onCancel={onClose}
      onOk={async () => {
        setBusy(true);
        try {
          const done = await bindTenant(tenantId, chosen);
          message.success(t('tenant.moved', { rows: done.rows, ms: done.ms }));
          onClose();
        } catch {
          // The refusal was shown by the client's error toast.
        } finally {
          setBusy(false);
        }
      }}
    >
      <p>{t('tenant.bindHint')}</p>
      <Select
        style={{ width: '100%' }}
        value={chosen}
        loading={options === null}
        onChange={setChosen}
        options={[{ value: '', label: t('tenant.mainDatabase') }, ...(options ?? [])]}
        disabled={busy}
      />
      {busy && (
        <p style={{ marginTop: 12 }} data-testid="tenant-moving">
          {t('tenant.moving', { s: seconds })}
        </p>
      )}
    </Modal>
  );
}

/** 导入: one export file into the chosen tenant, optionally replacing what it holds (docs/tenants.md). */
function ImportDialog({ tenantId, onClose }: { tenantId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [replace, setReplace] = useState(false);
  const [busy, setBusy] = useState(false);
  // How much of the file is sent; at 100 the server is writing the rows.
  const [sent, setSent] = useState<number | null>(null);
  return (
    <Modal
      open
      title={t('tenant.importTitle', { tenantId })}
      okText={t('tenant.import')}
      okButtonProps={{ disabled: !file, loading: busy, danger: replace }}
      onCancel={onClose}
      onOk={async () => {
        if (!file) return;
        setBusy(true);
        try {
          setSent(0);
          message.success(await uploadTenant(tenantId, file, replace, setSent));
          onClose();
        } catch {
          // The refusal was shown by the client's error toast.
        } finally {
          setBusy(false);
          setSent(null);
        }
      }}
    >
      <Upload
        accept=".gz,.ndjson"
        maxCount={1}
        beforeUpload={(f) => {
          setFile(f);
          return false;
        }}
        onRemove={() => setFile(null)}
      >
        <a>{t('tenant.chooseFile')}</a>
      </Upload>
      <Checkbox checked={replace} onChange={(e) => setReplace(e.target.checked)} style={{ marginTop: 12 }}>
        {t('tenant.replace')}
      </Checkbox>
      {sent !== null && (
        <Progress
          data-testid="tenant-import-progress"
          percent={sent}
          status="active"
          format={(p) => (p === 100 ? t('tenant.writing') : `${t('tenant.uploading')} ${p}%`)}
        />
      )}
    </Modal>
  );
}

/**
 * 租户管理 from its definition: a new tenant's administrator account and password are shown once, and so is the
 * one-time password of 修复管理员; 授权配置 (the definition's `setting`) sets accounts and expiry; no quota and
 * no expiry read 不限.
 */
export default function TenantPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  // 导出: the bytes received so far in a message that stays until the file is saved (a large tenant takes a while).
  const exportTenant = useCallback(
    async (tenantId: string) => {
      const key = `tenant-export-${tenantId}`;
      const show = (loaded: number) =>
        void message.open({
          key,
          type: 'loading',
          duration: 0,
          content: t('tenant.exporting', { tenantId, size: sizeText(loaded) }),
        });
      show(0);
      try {
        await downloadTenant(tenantId, show);
        void message.open({ key, type: 'success', content: t('tenant.exported', { tenantId }) });
      } catch {
        // The refusal was shown by the client's error toast.
        message.destroy(key);
      }
    },
    [message, t],
  );
  const [importing, setImporting] = useState<string | null>(null);
  const [binding, setBinding] = useState<string | null>(null);
  const adjust = useCallback(
    (s: CrudSchema): CrudSchema => {
      const unlimited = t('tenant.unlimited');
      const render: Record<string, (v: unknown) => string> = {
        accountNumber: (v) => (v === -1 || v === '-1' || v === null || v === undefined ? unlimited : String(v)),
        expireTime: (v) => (v ? dayjs(v as string).format(DATE_FORMAT) : unlimited),
      };
      const label = (name: string) => t(`tenant:fields.${name}.label`);
      return {
        ...s,
        fields: s.fields.map((f) => (render[f.name] ? { ...f, render: render[f.name] } : f)),
        lifecycle: s.lifecycle?.map((a) =>
          a.name === 'repair-admin'
            ? {
                ...a,
                onDone: (answer) => {
                  const done = answer as Repaired;
                  showOnce(modal, t('tenant.repairTitle'), [
                    [label('tenantId'), done.tenantId],
                    [t('tenant.adminAccount'), done.account],
                    [t('tenant.oneTimePassword'), done.password],
                  ]);
                },
              }
            : a,
        ),
        rowActions: [
          ...(s.rowActions ?? []),
          {
            code: 'tenant_setting',
            label: 'tenant.export',
            onClick: ([row]) => void exportTenant(String(row.tenantId)),
          },
          // The platform's own rows are never imported nor moved (the server refuses it too).
          {
            code: 'tenant_setting',
            label: 'tenant.import',
            when: notPlatform,
            onClick: ([row]) => setImporting(String(row.tenantId)),
          },
          {
            code: 'tenant_setting',
            label: 'tenant.bind',
            when: notPlatform,
            onClick: ([row]) => setBinding(String(row.tenantId)),
          },
        ],
        onSaved: (saved, mode) => {
          if (mode === 'add' && saved.adminAccount) {
            showOnce(modal, t('tenant.adminTitle'), [
              [label('tenantId'), String(saved.tenantId ?? '')],
              [t('tenant.adminAccount'), String(saved.adminAccount)],
              [t('tenant.adminPassword'), String(saved.adminPassword ?? '')],
            ]);
          }
        },
      };
    },
    [modal, t, exportTenant],
  );
  return (
    <>
      <CrudPage schema={useResourceSchema(tenant, adjust)} />
      {importing && <ImportDialog tenantId={importing} onClose={() => setImporting(null)} />}
      {binding && <BindDialog tenantId={binding} onClose={() => setBinding(null)} />}
    </>
  );
}
