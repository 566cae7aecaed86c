import { useEffect, useState } from 'react';
import { App, Alert, Avatar, Button, Card, Form, Input, Space, Tabs, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { validatePhone } from '@atrium/contract';
import { hashPassword } from '../api/auth';
import { putFile } from '../api/resource';
import { getInfo, updateInfo, updatePassword } from '../api/user';
import { useSession } from '../stores/session';
import { avatarProblem } from './avatarCheck';
import { useTabScope } from '../layout/tabScope';

type InfoFields = { avatar: string; name: string; realName: string; account: string; phone: string; email: string };
type PasswordFields = { oldPassword: string; newPassword: string; newPassword1: string };

function InfoTab() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<InfoFields>();
  const scope = useTabScope();
  const [busy, setBusy] = useState(false);
  const avatar = Form.useWatch('avatar', form);
  useEffect(() => {
    void getInfo()
      .then((u) => form.setFieldsValue(u))
      .catch(() => undefined);
  }, [form]);
  const save = async (v: InfoFields) => {
    setBusy(true);
    try {
      const u = await updateInfo({
        avatar: v.avatar,
        name: v.name,
        realName: v.realName,
        phone: v.phone,
        email: v.email,
      });
      useSession.getState().setUserInfo(u);
      message.success(t('info.updated'));
    } finally {
      setBusy(false);
    }
  };
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  return (
    <Form form={form} name={`${scope}info`} layout="vertical" style={{ maxWidth: 480 }} onFinish={(v) => void save(v)}>
      {/* The avatar's value is the uploaded file's link, set once the upload answers. The form field is a hidden input
          of its own: Form.Item would otherwise take the file input's change event (its value C:\fakepath\…) as the
          value, and the preview would load that path. */}
      <Form.Item name="avatar" hidden>
        <Input />
      </Form.Item>
      <Form.Item label={t('info.avatar')}>
        <Space>
          <Avatar size={64} src={avatar || '/avatar.svg'} data-testid="avatar" />
          <Upload
            accept="image/jpeg,image/png"
            showUploadList={false}
            beforeUpload={(file) => {
              const problem = avatarProblem(file);
              if (problem) message.error(t(problem));
              return problem ? Upload.LIST_IGNORE : true;
            }}
            customRequest={async ({ file, onSuccess, onError }) => {
              try {
                const res = await putFile(file as File);
                form.setFieldValue('avatar', res.link);
                onSuccess?.(res);
              } catch (e) {
                onError?.(e as Error);
              }
            }}
          >
            <Button icon={<UploadOutlined />}>{t('info.upload')}</Button>
          </Upload>
        </Space>
      </Form.Item>
      <Form.Item label={t('info.name')} name="name" rules={[{ max: 20 }]}>
        <Input />
      </Form.Item>
      <Form.Item label={t('info.realName')} name="realName" rules={[{ max: 10 }]}>
        <Input />
      </Form.Item>
      <Form.Item label={t('info.account')} name="account">
        <Input disabled />
      </Form.Item>
      <Form.Item
        label={t('info.phone')}
        name="phone"
        rules={[
          {
            validator: async (_, v) => {
              if (v) {
                const p = validatePhone(v);
                if (p) throw new Error(p[lang]);
              }
            },
          },
        ]}
      >
        <Input />
      </Form.Item>
      <Form.Item label={t('info.email')} name="email" rules={[{ type: 'email', message: t('info.emailBad') }]}>
        <Input />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {t('common.submit')}
      </Button>
    </Form>
  );
}

function PasswordTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordFields>();
  const scope = useTabScope();
  const [busy, setBusy] = useState(false);
  const save = async (v: PasswordFields) => {
    setBusy(true);
    try {
      // A check carries the MD5 of what was typed; a new password travels as typed so the server can apply its policy.
      await updatePassword({
        oldPassword: await hashPassword(v.oldPassword),
        newPassword: v.newPassword,
        newPassword1: v.newPassword1,
      });
      message.success(t('info.updated'));
      form.resetFields();
      useSession.setState({ mustChangePassword: false });
    } finally {
      setBusy(false);
    }
  };
  const required = (field: string) => ({ required: true, message: t('info.required', { field: t(field) }) });
  return (
    <Form
      form={form}
      name={`${scope}password`}
      layout="vertical"
      style={{ maxWidth: 480 }}
      onFinish={(v) => void save(v)}
    >
      <Form.Item label={t('info.oldPassword')} name="oldPassword" rules={[required('info.oldPassword')]}>
        <Input.Password />
      </Form.Item>
      <Form.Item label={t('info.newPassword')} name="newPassword" rules={[required('info.newPassword'), { min: 8 }]}>
        <Input.Password />
      </Form.Item>
      <Form.Item
        label={t('info.newPassword1')}
        name="newPassword1"
        dependencies={['newPassword']}
        rules={[
          required('info.newPassword1'),
          ({ getFieldValue }) => ({
            validator: async (_, v) => {
              if (v && v !== getFieldValue('newPassword')) throw new Error(t('info.mismatch'));
            },
          }),
        ]}
      >
        <Input.Password />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {t('common.submit')}
      </Button>
    </Form>
  );
}

export default function Info() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const mustChange = useSession((s) => s.mustChangePassword);
  return (
    <Card>
      {mustChange && <Alert type="warning" showIcon message={t('info.mustChange')} style={{ marginBottom: 12 }} />}
      <Tabs
        defaultActiveKey={params.get('tab') === 'password' || mustChange ? 'password' : 'info'}
        items={[
          { key: 'info', label: t('info.tabInfo'), children: <InfoTab /> },
          { key: 'password', label: t('info.tabPassword'), children: <PasswordTab /> },
        ]}
      />
    </Card>
  );
}
