import { useCallback, useState } from 'react';
import { ReadOutlined } from '@ant-design/icons';
import { notice } from '@atrium/contract/resources/desk/notice';
import ResourcePage, { type ResourceHooks } from '../../components/crud/ResourcePage';
import type { RecordOf } from '../../components/crud/fromDefinition';
import NoticeReader from './NoticeReader';
import './richtext';

type Rec = RecordOf<typeof notice.fields>;

/**
 * 通知公告 (docs/notices.md): the definition's screen with the rich-text editor for the content, and 阅读 opening the
 * read view the bell opens.
 */
export default function NoticePage() {
  const [reading, setReading] = useState<string | null>(null);
  const adjust = useCallback<NonNullable<ResourceHooks<Rec>['schema']>>(
    (derived) => ({
      ...derived,
      fields: derived.fields.map((f) => (f.name === 'content' ? { ...f, wide: true } : f)),
      rowActions: [
        ...(derived.rowActions ?? []),
        {
          code: `${notice.code}_view`,
          label: 'notice.read',
          icon: <ReadOutlined />,
          onClick: (rows) => setReading(rows[0].id),
        },
      ],
    }),
    [],
  );
  const [hooks] = useState<ResourceHooks<Rec>>(() => ({ schema: adjust }));
  return (
    <>
      <ResourcePage def={notice} hooks={hooks} />
      <NoticeReader id={reading} onClose={() => setReading(null)} />
    </>
  );
}
