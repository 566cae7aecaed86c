import { useRef, useState } from 'react';
import { Alert, App, Button, Col, Drawer, Form, Input, Result, Row, Space, Spin, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FlowModeler } from '../lazy';
import { minimalProcess } from '../xml';
import { useTabScope } from '../../../layout/tabScope';
import { useSettings } from '../../../stores/settings';
import { CategorySelect, flowCalls, refusal, type ModelRecord } from './common';

/**
 * The model editor (模型管理 新增 / 编辑 / 查看): a full-width drawer with the model's key, name, category and
 * description above the modeler. Saving sends the whole XML with the version it loaded; the server's 400 (the BPMN
 * element a check refused) and 409 (saved by someone else meanwhile) stay shown above the diagram.
 */

type Values = { modelKey: string; name: string; category?: string; description?: string };
const KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export function ModelEditor({
  model,
  readOnly,
  onClose,
  onSaved,
}: {
  /** null: a new model. */
  model: ModelRecord | null;
  readOnly?: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const narrow = useSettings((s) => s.screen === 0);
  // Unsaved changes in the body: closing asks first.
  const dirty = useRef(false);
  const close = () => {
    if (!dirty.current || readOnly) return onClose();
    modal.confirm({
      title: t('flowManage.discardTitle'),
      okText: t('flowManage.discard'),
      cancelText: t('flowManage.cancel'),
      okButtonProps: { danger: true },
      onOk: onClose,
    });
  };
  const detail = useQuery({
    queryKey: ['flowManage', 'model', model?.id],
    queryFn: () => flowCalls.modelDetail(model!.id),
    enabled: !!model,
    gcTime: 0,
    retry: false,
  });
  const title = !model
    ? t('flowManage.newModel')
    : t(readOnly ? 'flowManage.viewModel' : 'flowManage.editModel', { name: model.name });

  let body;
  if (model && detail.isPending) body = <Spin style={{ display: 'block', margin: '80px auto' }} />;
  else if (model && detail.isError)
    body = (
      <Result
        status="warning"
        title={t('flowManage.loadFailed')}
        extra={<Button onClick={() => void detail.refetch()}>{t('flowManage.retry')}</Button>}
      />
    );
  else
    body = (
      <EditorBody
        key={detail.dataUpdatedAt}
        loaded={model ? detail.data! : null}
        readOnly={readOnly}
        narrow={narrow}
        dirtyRef={dirty}
        onClose={close}
        onSaved={onSaved}
      />
    );
  return (
    <Drawer open size={narrow ? '100%' : '94vw'} title={title} onClose={close} destroyOnHidden maskClosable={false}>
      {body}
    </Drawer>
  );
}

type Loaded = ModelRecord & { xml: string };

function EditorBody({
  loaded,
  readOnly,
  narrow,
  dirtyRef,
  onClose,
  onSaved,
}: {
  loaded: Loaded | null;
  readOnly?: boolean;
  narrow: boolean;
  dirtyRef: { current: boolean };
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const scope = useTabScope();
  const [form] = Form.useForm<Values>();
  const [initialXml] = useState(
    () =>
      loaded?.xml ??
      minimalProcess({ name: t('flowDiagram.newProcess'), startName: t('flowDiagram.start'), key: 'Process_1' }),
  );
  const xml = useRef(initialXml);
  // What is saved: the record's id and version (a new model gets both from its first save).
  const saved = useRef<{ id?: string; version?: number }>({ id: loaded?.id, version: loaded?.version });
  const [dirty, setDirtyState] = useState(false);
  const setDirty = (on: boolean) => {
    dirtyRef.current = on;
    setDirtyState(on);
  };
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<{ status?: number; message: string } | null>(null);

  const save = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    setProblem(null);
    try {
      const answer = await flowCalls.modelSubmit({
        ...(saved.current.id ? { id: saved.current.id, version: saved.current.version } : {}),
        modelKey: values.modelKey.trim(),
        name: values.name.trim(),
        category: values.category || undefined,
        description: values.description?.trim() || undefined,
        xml: xml.current,
      });
      saved.current = { id: answer.id, version: answer.version };
      setDirty(false);
      void message.success(t('flowManage.saved'));
      onSaved();
    } catch (err) {
      const r = refusal(err);
      // 400 names the refused element, 409 says the model changed meanwhile; anything else was a toast already.
      if (r.status === 400 || r.status === 409) setProblem(r);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div data-testid="flow-model-editor">
      <Form
        form={form}
        name={`${scope}flow-model`}
        layout={narrow ? 'vertical' : 'inline'}
        disabled={readOnly}
        initialValues={{
          modelKey: loaded?.modelKey ?? '',
          name: loaded?.name ?? '',
          category: loaded?.category ?? undefined,
          description: loaded?.description ?? '',
        }}
        onValuesChange={() => setDirty(true)}
        style={{ marginBottom: 12, rowGap: 8 }}
      >
        <Row gutter={[12, 8]} style={{ width: '100%' }}>
          <Col xs={24} md={6}>
            <Form.Item
              name="modelKey"
              label={t('flowManage.modelKey')}
              rules={[
                { required: true, whitespace: true, message: t('flowManage.keyRequired') },
                { pattern: KEY, message: t('flowManage.keyFormat') },
                { max: 64 },
              ]}
            >
              <Input maxLength={64} disabled={readOnly || !!loaded} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item
              name="name"
              label={t('flowManage.modelName')}
              rules={[{ required: true, whitespace: true, message: t('flowManage.nameRequired') }]}
            >
              <Input maxLength={100} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={5}>
            <Form.Item name="category" label={t('flowManage.category')}>
              <CategorySelect />
            </Form.Item>
          </Col>
          <Col xs={24} md={7}>
            <Form.Item name="description" label={t('flowManage.description')}>
              <Input maxLength={500} autoComplete="off" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
      {problem && (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => setProblem(null)}
          title={<span style={{ whiteSpace: 'pre-line' }}>{problem.message}</span>}
          style={{ marginBottom: 12 }}
          data-testid="flow-model-problem"
        />
      )}
      <FlowModeler
        xml={initialXml}
        readOnly={readOnly}
        height={narrow ? 'calc(100vh - 420px)' : 'calc(100vh - 230px)'}
        onChange={(next) => {
          if (next === xml.current) return;
          xml.current = next;
          setDirty(true);
        }}
      />
      <Space style={{ marginTop: 12, width: '100%', justifyContent: 'flex-end' }} wrap>
        {dirty && !readOnly && <Tag color="warning">{t('flowManage.unsaved')}</Tag>}
        <Button onClick={onClose}>{t(readOnly ? 'flowManage.close' : 'flowManage.cancel')}</Button>
        {!readOnly && (
          <Button type="primary" loading={saving} onClick={() => void save()}>
            {t('flowManage.save')}
          </Button>
        )}
      </Space>
    </div>
  );
}
