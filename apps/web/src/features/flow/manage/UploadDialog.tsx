import { useState } from 'react';
import { App, Button, Form, Upload, type UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { flowCalls } from './common';
import { DeployDialog } from './DeployDialog';

/** The largest BPMN file the server takes (docs/workflow.md "Checks"), checked here first. */
export const MAX_BPMN_BYTES = 1024 * 1024;
const BPMN_FILE = /\.(bpmn|bpmn20\.xml)$/i;

/** Why a picked file is refused before sending (an i18n key), or null. */
export function fileProblem(file: { name: string; size: number }): string | null {
  if (!BPMN_FILE.test(file.name)) return 'flowManage.badType';
  if (file.size > MAX_BPMN_BYTES) return 'flowManage.tooBig';
  return null;
}

/**
 * 上传部署: a category, the tenants (platform only) and one or more .bpmn / .bpmn20.xml files, sent as one multipart
 * `manager/deploy-upload`. A wrong type or a file over 1 MiB is refused when picked; the server's 400 (a file that is
 * no BPMN model, a refused element) stays shown in the dialog.
 */
export function UploadDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [filesError, setFilesError] = useState('');

  return (
    <DeployDialog
      title={t('flowManage.uploadTitle')}
      okText={t('flowManage.upload')}
      formName="flow-deploy-upload"
      onClose={onClose}
      ready={() => {
        if (!files.length) setFilesError(t('flowManage.filesRequired'));
        return files.length > 0;
      }}
      send={async ({ category, tenantIds }) => {
        const body = new FormData();
        if (category) body.append('category', category);
        if (tenantIds) body.append('tenantIds', tenantIds.join(','));
        for (const f of files) body.append('files', f.originFileObj as File, f.name);
        const answer = await flowCalls.deployUpload(body);
        void message.success(t('flowManage.uploaded', { n: answer.definitions.length }));
        onDone();
      }}
    >
      <Form.Item
        label={t('flowManage.files')}
        required
        extra={t('flowManage.filesHelp')}
        validateStatus={filesError ? 'error' : undefined}
        help={filesError || undefined}
      >
        <Upload
          multiple
          accept=".bpmn,.xml"
          fileList={files}
          beforeUpload={(file) => {
            const why = fileProblem(file);
            if (why) setFilesError(t(why, { name: file.name }));
            else {
              setFilesError('');
              const entry: UploadFile = { uid: file.uid, name: file.name, size: file.size, originFileObj: file };
              setFiles((list) => [...list, entry]);
            }
            // Sent together with the form, never on its own.
            return Upload.LIST_IGNORE;
          }}
          onRemove={(f) => setFiles((list) => list.filter((x) => x.uid !== f.uid))}
        >
          <Button icon={<UploadOutlined />}>{t('flowManage.chooseFiles')}</Button>
        </Upload>
      </Form.Item>
    </DeployDialog>
  );
}
