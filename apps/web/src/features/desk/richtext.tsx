import { Suspense, lazy } from 'react';
import { Spin } from 'antd';
import { registerFieldType, type InputProps } from '../../components/crud/fieldTypes';
import './notice.css';

/**
 * The `richtext` widget (docs/notices.md "Editor"): a notice's content. The record dialog edits it in Tiptap, loaded
 * as a lazy chunk when the dialog first shows it; the view dialog shows the stored HTML, which the server sanitised.
 */
const RichEditor = lazy(() => import('./RichEditor'));

function RichTextInput(p: InputProps) {
  if (p.disabled)
    return (
      <div
        className="notice-content"
        data-testid="notice-content"
        // Sanitised by the server on every save (apps/server/src/modules/notice/sanitise.ts).
        dangerouslySetInnerHTML={{ __html: typeof p.value === 'string' ? p.value : '' }}
      />
    );
  return (
    <Suspense fallback={<Spin />}>
      <RichEditor {...p} />
    </Suspense>
  );
}

registerFieldType('richtext', { input: RichTextInput, text: true });
