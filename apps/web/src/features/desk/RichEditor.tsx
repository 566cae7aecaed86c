import { useEffect } from 'react';
import { Button, Tooltip } from 'antd';
import {
  BoldOutlined,
  CodeOutlined,
  DisconnectOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useTranslation } from 'react-i18next';
import type { InputProps } from '../../components/crud/fieldTypes';
import './notice.css';

/**
 * The notice's rich-text editor (docs/notices.md "Editor"): Tiptap's starter kit (paragraphs, headings, emphasis,
 * lists, quotes, code, links), a lazy chunk of its own. It writes HTML; the server sanitises it on save whatever it
 * holds, so the editor is a convenience, not the guard.
 */

const LINK = /^(https?:|mailto:)/i;

function Bar({ editor, disabled }: { editor: Editor; disabled?: boolean }) {
  const { t } = useTranslation();
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      code: e.isActive('codeBlock'),
      link: e.isActive('link'),
    }),
  });
  const chain = () => editor.chain().focus();
  const item = (key: string, label: string, icon: React.ReactNode, active: boolean, run: () => void) => (
    <Tooltip title={label} key={key}>
      <Button
        size="small"
        type={active ? 'primary' : 'text'}
        icon={icon}
        aria-label={label}
        aria-pressed={active}
        disabled={disabled}
        onClick={run}
      />
    </Tooltip>
  );
  const link = () => {
    const href = window.prompt(t('notice.editor.linkPrompt'), String(editor.getAttributes('link').href ?? 'https://'));
    if (href && LINK.test(href.trim())) chain().extendMarkRange('link').setLink({ href: href.trim() }).run();
  };
  const heading = (level: 2 | 3) => (
    <Tooltip title={t('notice.editor.heading', { level })} key={`h${level}`}>
      <Button
        size="small"
        type={state[`h${level}`] ? 'primary' : 'text'}
        aria-label={t('notice.editor.heading', { level })}
        aria-pressed={state[`h${level}`]}
        disabled={disabled}
        onClick={() => chain().toggleHeading({ level }).run()}
      >
        H{level}
      </Button>
    </Tooltip>
  );
  return (
    <div className="notice-editor-bar" role="toolbar">
      {item('bold', t('notice.editor.bold'), <BoldOutlined />, state.bold, () => chain().toggleBold().run())}
      {item('italic', t('notice.editor.italic'), <ItalicOutlined />, state.italic, () => chain().toggleItalic().run())}
      {item('underline', t('notice.editor.underline'), <UnderlineOutlined />, state.underline, () =>
        chain().toggleUnderline().run(),
      )}
      {item('strike', t('notice.editor.strike'), <StrikethroughOutlined />, state.strike, () =>
        chain().toggleStrike().run(),
      )}
      {heading(2)}
      {heading(3)}
      {item('bullet', t('notice.editor.bulletList'), <UnorderedListOutlined />, state.bullet, () =>
        chain().toggleBulletList().run(),
      )}
      {item('ordered', t('notice.editor.orderedList'), <OrderedListOutlined />, state.ordered, () =>
        chain().toggleOrderedList().run(),
      )}
      {item('quote', t('notice.editor.quote'), <span aria-hidden>❝</span>, state.quote, () =>
        chain().toggleBlockquote().run(),
      )}
      {item('code', t('notice.editor.code'), <CodeOutlined />, state.code, () => chain().toggleCodeBlock().run())}
      {item('link', t('notice.editor.link'), <LinkOutlined />, state.link, link)}
      {item('unlink', t('notice.editor.unlink'), <DisconnectOutlined />, false, () => chain().unsetLink().run())}
      {item('undo', t('notice.editor.undo'), <UndoOutlined />, false, () => chain().undo().run())}
      {item('redo', t('notice.editor.redo'), <RedoOutlined />, false, () => chain().redo().run())}
    </div>
  );
}

export default function RichEditor({ value, onChange, onBlur, disabled, id }: InputProps) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false, protocols: ['http', 'https', 'mailto'] } })],
    content: typeof value === 'string' ? value : '',
    editable: !disabled,
    immediatelyRender: true,
    onUpdate: ({ editor: e }) => onChange?.(e.isEmpty ? '' : e.getHTML()),
    onBlur: () => onBlur?.(),
  });
  // A value set from outside (the dialog loading a record) replaces the content; the editor's own echo does not.
  useEffect(() => {
    const next = typeof value === 'string' ? value : '';
    if (editor && next !== (editor.isEmpty ? '' : editor.getHTML()))
      editor.commands.setContent(next, { emitUpdate: false });
  }, [editor, value]);
  useEffect(() => {
    editor?.setEditable(!disabled);
  }, [editor, disabled]);
  if (!editor) return null;
  return (
    <div className="notice-editor" id={id} data-testid="notice-editor">
      {!disabled && <Bar editor={editor} disabled={disabled} />}
      <EditorContent editor={editor} className="notice-content" />
    </div>
  );
}
