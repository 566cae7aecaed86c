import { useCallback, useState } from 'react';
import { Modal } from 'antd';
import { DownloadOutlined, EyeOutlined } from '@ant-design/icons';
import { attach } from '@atrium/contract/resources/resource/attach';
import ResourcePage, { type ResourceHooks } from '../../components/crud/ResourcePage';
import type { RecordOf } from '../../components/crud/fromDefinition';
import i18n from '../../i18n';
import { attachTexts } from './messages';

/**
 * 附件管理 (docs/system-api.md "Files"): the definition's screen (list, rename, remove — the stored object goes too)
 * plus a preview of images and a download of any file, from the link the upload answered.
 */

i18n.addResourceBundle('zh', 'translation', { attachFiles: attachTexts.zh }, true, false);
i18n.addResourceBundle('en', 'translation', { attachFiles: attachTexts.en }, true, false);

type Rec = RecordOf<typeof attach.fields>;

const IMAGES = ['jpg', 'png', 'gif', 'webp'];
const isImage = (r: Rec) => IMAGES.includes(String(r.extension ?? ''));

function download(r: Rec) {
  const a = document.createElement('a');
  a.href = String(r.link);
  a.download = String(r.originalName ?? r.name);
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export default function AttachPage() {
  const [preview, setPreview] = useState<Rec | null>(null);
  const adjust = useCallback<NonNullable<ResourceHooks<Rec>['schema']>>(
    (derived) => ({
      ...derived,
      rowActions: [
        ...(derived.rowActions ?? []),
        {
          code: `${attach.code}_view`,
          label: 'attachFiles.preview',
          icon: <EyeOutlined />,
          when: isImage,
          onClick: (rows) => setPreview(rows[0]),
        },
        {
          code: `${attach.code}_view`,
          label: 'attachFiles.download',
          icon: <DownloadOutlined />,
          onClick: (rows) => download(rows[0]),
        },
      ],
    }),
    [],
  );
  const [hooks] = useState<ResourceHooks<Rec>>(() => ({ schema: adjust }));
  return (
    <>
      <ResourcePage def={attach} hooks={hooks} />
      <Modal
        open={!!preview}
        title={preview ? String(preview.originalName ?? preview.name) : ''}
        footer={null}
        onCancel={() => setPreview(null)}
        destroyOnHidden
      >
        {preview && (
          <img
            src={String(preview.link)}
            alt={String(preview.originalName ?? preview.name)}
            data-testid="attach-preview"
            style={{ maxWidth: '100%' }}
          />
        )}
      </Modal>
    </>
  );
}
