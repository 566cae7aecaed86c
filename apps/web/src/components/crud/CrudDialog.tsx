import { useState } from 'react';
import { App, Button, Col, Form, Input, Modal, Row, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTabScope } from '../../layout/tabScope';
import FieldInput from './FieldInput';
import { fromForm, rulesOf, toForm } from './fieldTypes';
import { useFieldSources, type FieldSources } from './sources';
import { langOf } from './texts';
import type { ActingState, CrudController, DialogState } from './useCrudController';
import type { CrudField, CrudSchema, Mode, Row as CrudRow } from './types';

const inDialog = (f: CrudField, mode: Mode) =>
  f.form !== false &&
  !(f.addOnly && mode !== 'add') &&
  !(f.hideInView && mode === 'view') &&
  !(f.viewOnly && mode !== 'view');
const isDisabled = (f: CrudField, mode: Mode) =>
  mode === 'view' || f.editable === false || (f.editable === 'add' && mode !== 'add');

/** The form items of a dialog: control, label, rules (validated on change and on blur), conditional visibility. */
export function FormFields({
  fields,
  mode,
  sources,
  form,
  columns,
}: {
  fields: CrudField[];
  mode: Mode;
  sources: FieldSources;
  form: FormInstance;
  /** Two columns from the md breakpoint (a dialog in sections); a wide field takes the whole line. */
  columns?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  return fields
    .filter((f) => inDialog(f, mode))
    .map((f) => {
      const control = (
        <Form.Item
          key={f.name}
          name={f.name}
          label={t(f.label)}
          validateTrigger={['onChange', 'onBlur']}
          rules={mode === 'view' ? [] : rulesOf(f, t, lang)}
        >
          <FieldInput
            f={f}
            disabled={isDisabled(f, mode)}
            options={sources.options[f.name]}
            tree={sources.trees[f.name]}
          />
        </Form.Item>
      );
      const item = columns ? (
        <Col key={f.name} xs={24} md={f.wide ? 24 : 12}>
          {control}
        </Col>
      ) : (
        control
      );
      if (!f.visible) return item;
      return (
        <Form.Item key={f.name} noStyle shouldUpdate>
          {() => (f.visible!(form.getFieldsValue(true)) ? item : null)}
        </Form.Item>
      );
    });
}

/** The open dialogs of a screen. Each opening is its own component (keyed by its number) with its own form. */
export function CrudDialog<R extends CrudRow>({ c }: { c: CrudController<R> }) {
  return (
    <>
      {c.dialog && <RecordDialog key={c.dialog.seq} c={c} dialog={c.dialog} />}
      {c.acting && <ActionDialog key={c.acting.seq} c={c} acting={c.acting} />}
    </>
  );
}

/**
 * 新增 / 编辑 / 查看 of one record. It starts from its own record (never from a previous dialog's values), sends
 * under its own row's id, shows the server's field errors on their fields, and offers to reload on a stale edit.
 */
function RecordDialog<R extends CrudRow>({ c, dialog }: { c: CrudController<R>; dialog: DialogState<R> }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const scope = useTabScope();
  const [form] = Form.useForm();
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);
  const { mode, row } = dialog;

  const ok = async () => {
    // Invalid fields show their own messages; nothing to send.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    const result = await c.save(dialog, values);
    setSaving(false);
    if (result.ok) {
      setOpen(false);
      return;
    }
    if (result.fields.length) form.setFields(result.fields.map((f) => ({ name: f.field, errors: [f.message] })));
    if (result.status === 409 && row) {
      modal.confirm({
        title: t('crud.stale'),
        okText: t('crud.reload'),
        cancelText: t('common.cancel'),
        onOk: async () => {
          try {
            form.setFieldsValue(await c.reload(row));
          } catch {
            // The http client showed why; the dialog keeps what was typed.
          }
        },
      });
    }
  };

  return (
    <Modal
      open={open}
      width={c.schema.dialogWidth ?? 640}
      destroyOnHidden
      confirmLoading={saving}
      title={t(`crud.${mode}`)}
      onCancel={() => setOpen(false)}
      afterClose={() => c.close(dialog.seq)}
      onOk={() => void ok()}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      // A view changes nothing: one button closes it.
      footer={
        mode === 'view'
          ? [
              <Button key="close" type="primary" onClick={() => setOpen(false)}>
                {t('common.close')}
              </Button>,
            ]
          : undefined
      }
    >
      <Form form={form} name={`${scope}crud-record`} layout="vertical" preserve={false} initialValues={dialog.initial}>
        <DialogFields
          fields={c.schema.fields}
          sections={c.schema.sections}
          mode={mode}
          sources={c.sources}
          form={form}
        />
        <Form.Item name="version" hidden>
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The fields of a record dialog: in the schema's sections when it has them (a title, then two columns at desktop
 * width), otherwise one after another.
 */
function DialogFields({
  fields,
  sections,
  mode,
  sources,
  form,
}: {
  fields: CrudField[];
  sections: CrudSchema['sections'];
  mode: Mode;
  sources: FieldSources;
  form: FormInstance;
}) {
  const { t } = useTranslation();
  if (!sections?.length) return <FormFields fields={fields} mode={mode} sources={sources} form={form} />;
  const listed = new Set(sections.flatMap((s) => s.fields));
  // A field follows its section's order; fields added by a screen next to a listed one (e.g. the effective config
  // after the config values) stay beside it.
  const groups = sections.map((s) => ({
    title: t(s.title),
    fields: fields.filter((f) => s.fields.includes(f.name) || followsIn(fields, f, s.fields, listed)),
  }));
  const rest = fields.filter((f) => !groups.some((g) => g.fields.includes(f)));
  if (rest.length) groups.push({ title: '', fields: rest });
  return groups
    .filter((g) => g.fields.some((f) => inDialog(f, mode)))
    .map((g, i) => (
      <section key={i} className="atrium-dialog-section">
        {g.title && <h3 className="atrium-dialog-section-title">{g.title}</h3>}
        <Row gutter={16}>
          <FormFields fields={g.fields} mode={mode} sources={sources} form={form} columns />
        </Row>
      </section>
    ));
}

/** An unlisted field right after a listed one of `names` (with only unlisted fields between). */
function followsIn(fields: CrudField[], f: CrudField, names: string[], listed: Set<string>): boolean {
  if (listed.has(f.name)) return false;
  for (let i = fields.indexOf(f) - 1; i >= 0; i--) {
    if (listed.has(fields[i].name)) return names.includes(fields[i].name);
  }
  return false;
}

const NO_FIELDS: CrudField[] = [];

/** The input of a lifecycle action (e.g. a reason), asked before the call. */
function ActionDialog<R extends CrudRow>({ c, acting }: { c: CrudController<R>; acting: ActingState<R> }) {
  const { t } = useTranslation();
  const scope = useTabScope();
  const [form] = Form.useForm();
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);
  const { action, rows } = acting;
  const fields = action.input ?? NO_FIELDS;
  const sources = useFieldSources(fields);
  // One record picked: its current values of the input's fields (a user's roles, a tenant's quota), else defaults.
  const [initial] = useState(() => {
    const defaults = Object.fromEntries(fields.filter((f) => f.default !== undefined).map((f) => [f.name, f.default]));
    if (rows.length !== 1) return defaults;
    const own = toForm(fields, rows[0]);
    return {
      ...defaults,
      ...Object.fromEntries(fields.filter((f) => rows[0][f.name] != null).map((f) => [f.name, own[f.name]])),
    };
  });

  const ok = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    const done = await c.call(action, rows, fromForm(fields, values));
    setSaving(false);
    if (done) setOpen(false);
  };

  return (
    <Modal
      open={open}
      destroyOnHidden
      confirmLoading={saving}
      title={t(action.label)}
      onCancel={() => setOpen(false)}
      afterClose={() => c.closeAction(acting.seq)}
      onOk={() => void ok()}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: action.danger }}
    >
      <Form form={form} name={`${scope}crud-action`} layout="vertical" preserve={false} initialValues={initial}>
        <FormFields fields={fields} mode="add" sources={sources} form={form} />
      </Form>
    </Modal>
  );
}
