import './messages';
import { useState } from 'react';
import { Alert, App, Button, DatePicker, Form, Input, List, Modal, Radio, Typography, Upload } from 'antd';
import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { passwordPolicyError } from '@atrium/contract';
import { clientApi } from '../../api/customer';
import { putFile, type PutFileResult } from '../../api/resource';
import { errorOf } from '../../api/crud';
import { DATE_FORMAT } from '../../components/crud/formats';
import { langOf } from '../../components/crud/texts';
import { useSubmit } from '../../components/crud/useSubmit';
import { useTabScope } from '../../layout/tabScope';
import type { Client } from './parts';

/** The client screen's dialogs: follow-up, review, email, password. Each opening is its own component. */

const TRACK_TYPES = [1, 2, 3, 4];

/** 跟踪记录: call / visit / email / message, what happened, when, and when next. */
export function TrackDialog({ client, onClose, onDone }: { client: Client; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const scope = useTabScope();
  const [form] = Form.useForm<{ trackType: number; content: string; trackTime: Dayjs; nextTrackTime?: Dayjs }>();
  const [saving, submit] = useSubmit();
  const ok = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    await submit(
      () =>
        clientApi.addTrack({
          clientId: client.id,
          trackType: v.trackType,
          content: v.content,
          trackTime: v.trackTime?.format(),
          nextTrackTime: v.nextTrackTime ? v.nextTrackTime.format() : null,
        }),
      t('crud.added'),
      () => {
        onClose();
        onDone();
      },
    );
  };
  return (
    <Modal
      open
      title={`${t('customer.addTrack')} · ${client.clientName ?? ''}`}
      onCancel={onClose}
      onOk={() => void ok()}
      confirmLoading={saving}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
    >
      <Form
        form={form}
        name={`${scope}client-track`}
        layout="vertical"
        initialValues={{ trackType: 1, trackTime: dayjs() }}
      >
        <Form.Item name="trackType" label={t('customer.trackTypeLabel')} rules={[{ required: true }]}>
          <Radio.Group
            optionType="button"
            options={TRACK_TYPES.map((v) => ({ value: v, label: t(`customer.trackType.${v}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="content"
          label={t('customer.trackContent')}
          rules={[{ required: true, whitespace: true, message: t('customer.contentRequired') }, { max: 2000 }]}
        >
          <Input.TextArea rows={4} maxLength={2000} showCount />
        </Form.Item>
        <Form.Item name="trackTime" label={t('customer.trackTime')}>
          <DatePicker showTime format={DATE_FORMAT} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="nextTrackTime"
          label={t('customer.nextTrack')}
          dependencies={['trackTime']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_, v?: Dayjs) => {
                const at = getFieldValue('trackTime') as Dayjs | undefined;
                return !v || !at || v.isAfter(at)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('customer.nextAfter')));
              },
            }),
          ]}
        >
          <DatePicker showTime format={DATE_FORMAT} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 审核: approve or reject the pending reviews of these clients (`approve`); an opinion is required to reject. */
export function ReviewDialog({
  clients,
  onClose,
  onDone,
}: {
  clients: Client[];
  onClose: () => void;
  onDone: (pass: boolean) => void;
}) {
  const { t } = useTranslation();
  const scope = useTabScope();
  const [form] = Form.useForm<{ pass: boolean; opinion?: string }>();
  const pass = Form.useWatch('pass', form);
  const [saving, submit] = useSubmit();
  const ok = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    await submit(
      () =>
        clientApi.approve(
          clients.map((c) => c.id),
          v.pass,
          v.opinion?.trim() || undefined,
        ),
      t(v.pass ? 'customer.approved' : 'customer.rejected'),
      () => {
        onClose();
        onDone(v.pass);
      },
    );
  };
  return (
    <Modal
      open
      title={t('customer.review')}
      onCancel={onClose}
      onOk={() => void ok()}
      confirmLoading={saving}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: pass === false }}
    >
      <Typography.Paragraph>
        {t('customer.reviewing', { names: clients.map((c) => c.clientName).join(', ') })}
      </Typography.Paragraph>
      <Form form={form} name={`${scope}client-review`} layout="vertical" initialValues={{ pass: true }}>
        <Form.Item name="pass" label={t('customer.decision')}>
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={[
              { value: true, label: t('customer.pass') },
              { value: false, label: t('customer.reject') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="opinion"
          label={t('customer.opinion')}
          dependencies={['pass']}
          rules={[
            { max: 500 },
            ({ getFieldValue }) => ({
              validator: (_, v?: string) =>
                getFieldValue('pass') === false && !v?.trim()
                  ? Promise.reject(new Error(t('customer.opinionRequired')))
                  : Promise.resolve(),
            }),
          ]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Plain text → the HTML the server sends (paragraphs, line breaks); the server reduces it to its allowlist. */
export function textToHtml(text: string): string {
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** 发送邮件 to the selected clients: subject, body, attachments uploaded first (their attach ids are sent). */
export function EmailDialog({
  clients,
  onClose,
  onDone,
}: {
  clients: Client[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const scope = useTabScope();
  const [form] = Form.useForm<{ subject: string; content: string }>();
  const [files, setFiles] = useState<PutFileResult[]>([]);
  const [uploading, setUploading] = useState(0);
  const [saving, submit] = useSubmit();
  const noEmail = clients.filter((c) => !c.email);
  const ok = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    await submit(
      () =>
        clientApi.sendEmail({
          clientIds: clients.map((c) => c.id),
          subject: v.subject.trim(),
          content: textToHtml(v.content),
          attachIds: files.map((f) => f.attachId),
        }),
      t('customer.emailQueued'),
      () => {
        onClose();
        onDone();
      },
    );
  };
  return (
    <Modal
      open
      width={720}
      title={t('customer.sendEmail')}
      onCancel={onClose}
      onOk={() => void ok()}
      confirmLoading={saving}
      okButtonProps={{ disabled: uploading > 0 || noEmail.length > 0 }}
      okText={t('customer.send')}
      cancelText={t('common.cancel')}
    >
      <Typography.Paragraph>
        {t('customer.emailTo', { n: clients.length, names: clients.map((c) => c.clientName).join(', ') })}
      </Typography.Paragraph>
      {noEmail.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('customer.noEmail', { names: noEmail.map((c) => c.clientName).join(', ') })}
        />
      )}
      <Form form={form} name={`${scope}client-email`} layout="vertical">
        <Form.Item
          name="subject"
          label={t('customer.subject')}
          rules={[{ required: true, whitespace: true, message: t('customer.subjectRequired') }, { max: 200 }]}
        >
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="content"
          label={t('customer.body')}
          extra={t('customer.bodyHint')}
          rules={[{ required: true, whitespace: true, message: t('customer.bodyRequired') }]}
        >
          <Input.TextArea rows={8} />
        </Form.Item>
        <Form.Item label={t('customer.attachments')}>
          <Upload
            multiple
            showUploadList={false}
            customRequest={async ({ file, onSuccess, onError }) => {
              setUploading((n) => n + 1);
              try {
                const res = await putFile(file as File);
                setFiles((all) => [...all, res]);
                onSuccess?.(res);
              } catch (e) {
                onError?.(e as Error); // the http client showed why
              } finally {
                setUploading((n) => n - 1);
              }
            }}
          >
            <Button icon={<UploadOutlined />} loading={uploading > 0}>
              {t('customer.addAttachment')}
            </Button>
          </Upload>
          {files.length > 0 && (
            <List
              size="small"
              style={{ marginTop: 8 }}
              dataSource={files}
              renderItem={(f) => (
                <List.Item
                  actions={[
                    <Button
                      key="remove"
                      type="link"
                      size="small"
                      danger
                      onClick={() => setFiles((all) => all.filter((x) => x.attachId !== f.attachId))}
                    >
                      {t('crud.delete')}
                    </Button>,
                  ]}
                >
                  <a href={f.link} target="_blank" rel="noreferrer">
                    <PaperClipOutlined /> {f.originalName}
                  </a>
                </List.Item>
              )}
            />
          )}
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 修改密码 of a client's account (`updatePwd`, POST JSON); the policy checked as the server checks it. */
export function PasswordDialog({ client, onClose }: { client: Client; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const scope = useTabScope();
  const [form] = Form.useForm<{ pwd: string; confirm: string }>();
  const [saving, setSaving] = useState(false);
  const account = String(client.appClientAccount || client.operatorTel || '');
  const ok = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    try {
      await clientApi.setPassword(client.id, v.pwd);
      message.success(t('customer.passwordSet'));
      onClose();
    } catch (err) {
      const { fields } = errorOf(err);
      const msg = (err as { response?: { data?: { msg?: string } } }).response?.data?.msg;
      form.setFields([{ name: 'pwd', errors: [fields[0]?.message || msg || t('clientReg.failed')] }]);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`${t('customer.setPassword')} · ${client.clientName ?? ''}`}
      onCancel={onClose}
      onOk={() => void ok()}
      confirmLoading={saving}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
    >
      <Typography.Paragraph type="secondary">{t('customer.passwordHint', { account })}</Typography.Paragraph>
      <Form form={form} name={`${scope}client-pwd`} layout="vertical">
        <Form.Item
          name="pwd"
          label={t('clientReg.newPassword')}
          rules={[
            { required: true, message: t('clientReg.passwordRequired') },
            {
              validator: (_, v?: string) => {
                const bad = v ? passwordPolicyError(v, account) : null;
                return bad ? Promise.reject(new Error(bad[langOf(i18n.language)])) : Promise.resolve();
              },
            },
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={64} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('clientReg.confirm')}
          dependencies={['pwd']}
          rules={[
            { required: true, message: t('clientReg.confirmRequired') },
            ({ getFieldValue }) => ({
              validator: (_, v) =>
                !v || v === getFieldValue('pwd')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('clientReg.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={64} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
