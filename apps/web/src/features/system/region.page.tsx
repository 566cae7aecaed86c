import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Dropdown,
  Form,
  Input,
  List,
  Modal,
  Progress,
  Row as Grid,
  Space,
  Table,
  Tree,
  Upload,
} from 'antd';
import { DownloadOutlined, InboxOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { website } from '@atrium/contract';
import { REGION_LEVELS, REGION_ROOT, region, regionLevel, regionPath } from '@atrium/contract/resources/system/region';
import { crudApi, errorOf } from '../../api/crud';
import { get } from '../../api/http';
import {
  exportRegions,
  forgetRegionLevels,
  importRegions,
  regionChildren,
  type ImportSummary,
  type RegionNode,
} from '../../api/region';
import { FormFields } from '../../components/crud/CrudDialog';
import { useResourceSchema } from '../../components/crud/ResourcePage';
import { useFieldSources } from '../../components/crud/sources';
import type { RecordOf } from '../../components/crud/fromDefinition';
import type { Mode } from '../../components/crud/types';
import { useTabScope } from '../../layout/tabScope';
import { useSession } from '../../stores/session';
import EmptyState from '../../components/EmptyState';

/**
 * 行政区划 (docs/product.md "Regions"): the lazy region tree on the left (one level per expand, from
 * `lazy-tree?parentCode=`), the selected region's form on the right, a search by name or code that opens the tree
 * on the region found, and the xlsx import and export with their progress. Regions are the platform
 * administrator's to change; everyone else holding the screen reads and exports them.
 */

type Region = RecordOf<typeof region.fields>;
const api = crudApi(region.base);
const FORM_FIELDS = ['parentCode', 'code', 'name', 'sort', 'remark'];

/** The open form: a region being viewed or edited, or a new one below `parentCode`. */
type Panel = { seq: number; mode: Mode; record?: Region; parentCode?: string };

export default function RegionPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const schema = useResourceSchema(region);
  const can = useSession((s) => s.permission);
  const platform = useSession((s) => s.tenantId === website.defaultTenantId && s.roles.includes('administrator'));
  // Writes are the platform administrator's (a global resource); a tenant's package may still carry the buttons.
  const may = (code: string) => !!can[code] && (platform || code === `${region.code}_export`);

  const [levels, setLevels] = useState<Record<string, RegionNode[]>>({});
  const [expanded, setExpanded] = useState<string[]>([]);
  const [selected, setSelected] = useState<string>();
  const [panel, setPanel] = useState<Panel | null>(null);
  const [results, setResults] = useState<Region[] | null>(null);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState<number | null>(null);

  /** One level, read again (a change elsewhere on the screen may have moved it). */
  const loadLevel = useCallback(async (parentCode: string, fresh = false) => {
    if (fresh) forgetRegionLevels(parentCode);
    const nodes = await regionChildren(parentCode);
    setLevels((all) => ({ ...all, [parentCode]: nodes }));
    return nodes;
  }, []);
  useEffect(() => {
    void loadLevel(REGION_ROOT).catch(() => undefined);
  }, [loadLevel]);

  const treeData = useMemo(() => {
    type Item = { key: string; title: string; isLeaf: boolean; children?: Item[] };
    const build = (parent: string): Item[] =>
      (levels[parent] ?? []).map((n) => ({
        key: n.value,
        title: n.title,
        isLeaf: !n.hasChildren,
        children: levels[n.value] ? build(n.value) : undefined,
      }));
    return build(REGION_ROOT);
  }, [levels]);

  const mayEdit = may(`${region.code}_edit`);
  const open = useCallback(
    async (code: string) => {
      setSelected(code);
      try {
        const record = await get<Region>(`${region.base}/detail`, { code });
        setPanel((p) => ({ seq: (p?.seq ?? 0) + 1, mode: mayEdit ? 'edit' : 'view', record }));
      } catch {
        // The http client showed why.
      }
    },
    [mayEdit],
  );

  /** Opens the tree down to a region (its ancestors are its code's prefixes) and selects it. */
  const reveal = async (code: string) => {
    const above = regionPath(code).slice(0, -1);
    try {
      await Promise.all([REGION_ROOT, ...above].map((p) => loadLevel(p)));
    } catch {
      return;
    }
    setExpanded((e) => [...new Set([...e, ...above])]);
    await open(code);
  };

  const search = async (text: string) => {
    const q = text.trim();
    if (!q) return setResults(null);
    const page = await api.list<Region>({ current: 1, size: 50, ...(/^\d+$/.test(q) ? { code: q } : { name: q }) });
    setResults(page.records);
  };

  /** After a write: the levels shown are read again, and the pickers of other screens forget theirs. */
  const refresh = async (...parents: string[]) => {
    forgetRegionLevels();
    await Promise.all([...new Set(parents)].map((p) => loadLevel(p, true).catch(() => undefined)));
  };

  const addBelow = (parentCode: string) => setPanel((p) => ({ seq: (p?.seq ?? 0) + 1, mode: 'add', parentCode }));

  const remove = (record: Region) =>
    modal.confirm({
      title: t('crud.confirmDelete'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await api.remove([record.id]);
        } catch {
          return;
        }
        message.success(t('crud.deleted'));
        setPanel(null);
        setSelected(undefined);
        await refresh(String(record.parentCode ?? REGION_ROOT), String(record.code));
      },
    });

  const exportNow = async (code?: string) => {
    setExporting(0);
    try {
      await exportRegions(code, setExporting);
    } catch {
      // Shown by the http client or by exportRegions.
    } finally {
      setExporting(null);
    }
  };

  const selectedName = selected ? findTitle(levels, selected) : undefined;
  const toolbar = (
    <Space wrap>
      {may(`${region.code}_add`) && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => addBelow(REGION_ROOT)}>
          {t('region.addProvince')}
        </Button>
      )}
      {may(`${region.code}_import`) && (
        <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
          {t('region.import')}
        </Button>
      )}
      {may(`${region.code}_export`) && (
        <Dropdown.Button
          icon={<DownloadOutlined />}
          disabled={exporting !== null}
          onClick={() => void exportNow(selected)}
          menu={{ items: [{ key: 'all', label: t('region.exportAll') }], onClick: () => void exportNow() }}
        >
          {selected ? t('region.exportOf', { name: selectedName ?? selected }) : t('region.exportAll')}
        </Dropdown.Button>
      )}
      {exporting !== null && (
        <Progress
          percent={exporting}
          size="small"
          style={{ width: 160 }}
          format={(p) => `${t('region.downloading')} ${p}%`}
        />
      )}
    </Space>
  );

  return (
    <Card title={t(schema.title)} extra={toolbar} data-testid="region-page">
      <Grid gutter={16}>
        <Col xs={24} md={9}>
          <Input.Search
            allowClear
            placeholder={t('region.search')}
            onSearch={(v) => void search(v).catch(() => undefined)}
            style={{ marginBottom: 8 }}
          />
          {results && (
            <List
              size="small"
              bordered
              style={{ marginBottom: 8, maxHeight: 240, overflow: 'auto' }}
              locale={{ emptyText: t('region.noResults') }}
              dataSource={results}
              renderItem={(r) => (
                <List.Item style={{ cursor: 'pointer' }} onClick={() => void reveal(String(r.code))}>
                  <Space direction="vertical" size={0}>
                    <span>
                      {r.name} <span style={{ opacity: 0.6 }}>{r.code}</span>
                    </span>
                    <span style={{ opacity: 0.6, fontSize: 12 }}>{pathNames(r)}</span>
                  </Space>
                </List.Item>
              )}
            />
          )}
          <Tree
            blockNode
            showLine
            height={560}
            treeData={treeData}
            expandedKeys={expanded}
            selectedKeys={selected ? [selected] : []}
            onExpand={(keys) => setExpanded(keys.map(String))}
            loadData={async (node) => {
              if (!levels[String(node.key)]) await loadLevel(String(node.key)).catch(() => undefined);
            }}
            onSelect={(keys) => {
              const code = keys.length ? String(keys[0]) : undefined;
              if (code) void open(code);
            }}
          />
        </Col>
        <Col xs={24} md={15}>
          {panel ? (
            <RegionForm
              key={panel.seq}
              panel={panel}
              fields={schema.fields.filter((f) => FORM_FIELDS.includes(f.name))}
              levelField={schema.fields.find((f) => f.name === 'level')!}
              mayAdd={may(`${region.code}_add`)}
              mayRemove={may(`${region.code}_delete`)}
              onAddBelow={addBelow}
              onRemove={remove}
              onSaved={async (saved, added) => {
                await refresh(String(saved.parentCode ?? REGION_ROOT));
                if (added) await reveal(String(saved.code));
                else setPanel((p) => (p ? { ...p, seq: p.seq + 1, record: saved } : p));
              }}
            />
          ) : (
            <EmptyState description={t('region.pick')} style={{ marginTop: 64 }} />
          )}
        </Col>
      </Grid>
      {importing && (
        <ImportDialog
          onClose={async (changed) => {
            setImporting(false);
            if (changed) {
              setLevels({});
              setPanel(null);
              setSelected(undefined);
              await refresh(REGION_ROOT, ...expanded);
            }
          }}
        />
      )}
    </Card>
  );
}

function findTitle(levels: Record<string, RegionNode[]>, code: string): string | undefined {
  for (const nodes of Object.values(levels)) {
    const n = nodes.find((x) => x.value === code);
    if (n) return n.title;
  }
  return undefined;
}

/** 浙江省 / 杭州市 / 西湖区: the names of a region's levels. */
const pathNames = (r: Region) =>
  REGION_LEVELS.map((l) => r[`${l}Name`])
    .filter(Boolean)
    .join(' / ');

/** The form of one region (keyed by its opening): view, edit, or add below a parent. */
function RegionForm({
  panel,
  fields,
  levelField,
  mayAdd,
  mayRemove,
  onAddBelow,
  onRemove,
  onSaved,
}: {
  panel: Panel;
  fields: ReturnType<typeof useResourceSchema<typeof region.fields>>['fields'];
  levelField: ReturnType<typeof useResourceSchema<typeof region.fields>>['fields'][number];
  mayAdd: boolean;
  mayRemove: boolean;
  onAddBelow: (parentCode: string) => void;
  onRemove: (record: Region) => void;
  onSaved: (saved: Region, added: boolean) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [form] = Form.useForm();
  const scope = useTabScope();
  const [saving, setSaving] = useState(false);
  const levelSources = useFieldSources(useMemo(() => [levelField], [levelField]));
  const { mode, record } = panel;
  const initial = useMemo(
    () =>
      record
        ? { ...record, parentCode: record.parentCode === REGION_ROOT ? '' : record.parentCode }
        : {
            parentCode: panel.parentCode === REGION_ROOT ? '' : panel.parentCode,
            code: panel.parentCode === REGION_ROOT ? '' : panel.parentCode,
            sort: 0,
          },
    [record, panel.parentCode],
  );

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    const body = {
      ...values,
      parentCode: values.parentCode || REGION_ROOT,
      ...(record ? { id: record.id, version: record.version } : {}),
    };
    try {
      const saved = await api.submit<Region>(body);
      message.success(t(record ? 'crud.updated' : 'crud.added'));
      await onSaved(saved, !record);
    } catch (err) {
      const { status, fields: errors } = errorOf(err);
      if (errors.length) form.setFields(errors.map((f) => ({ name: f.field, errors: [f.message] })));
      if (status === 409 && record) modal.info({ title: t('crud.stale'), onOk: () => onSaved(record, false) });
    } finally {
      setSaving(false);
    }
  };

  const level = record ? Number(record.level) : regionLevel(String(panel.parentCode ?? '')) + 1;
  const levelLabel = levelSources.labels.level?.get(String(level)) ?? String(level);
  return (
    <Card
      size="small"
      title={record ? `${record.name} (${record.code})` : t('region.newBelow', { level: levelLabel })}
      extra={
        record && (
          <Space>
            {mayAdd && level < 5 && (
              <Button size="small" icon={<PlusOutlined />} onClick={() => onAddBelow(String(record.code))}>
                {t('region.addChild')}
              </Button>
            )}
            {mayRemove && (
              <Button size="small" danger onClick={() => onRemove(record)}>
                {t('crud.delete')}
              </Button>
            )}
          </Space>
        )
      }
    >
      {record && (
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t(levelField.label)}>{levelLabel}</Descriptions.Item>
          <Descriptions.Item label={t('region.path')}>{pathNames(record)}</Descriptions.Item>
        </Descriptions>
      )}
      <Form form={form} name={`${scope}region-form`} layout="vertical" initialValues={initial}>
        <FormFields fields={fields} mode={mode} sources={levelSources} form={form} />
      </Form>
      {mode !== 'view' && (
        <Button type="primary" loading={saving} onClick={() => void save()}>
          {t('common.save')}
        </Button>
      )}
    </Card>
  );
}

/** 导入: an xlsx upload with its progress; a refused file lists its bad rows, and nothing was written. */
function ImportDialog({ onClose }: { onClose: (changed: boolean) => void }) {
  const { t } = useTranslation();
  const [percent, setPercent] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; msg: string; summary: ImportSummary } | null>(null);
  const busy = percent !== null && !outcome;
  return (
    <Modal
      open
      width={720}
      title={t('region.importTitle')}
      onCancel={() => !busy && onClose(!!outcome?.ok)}
      footer={
        <Button onClick={() => onClose(!!outcome?.ok)} disabled={busy}>
          {t('common.ok')}
        </Button>
      }
    >
      <Alert type="info" showIcon message={t('region.importHint')} style={{ marginBottom: 12 }} />
      <Upload.Dragger
        accept=".xlsx"
        showUploadList={false}
        disabled={busy}
        customRequest={async ({ file }) => {
          setOutcome(null);
          setPercent(0);
          try {
            setOutcome(await importRegions(file as File, setPercent));
          } catch {
            setPercent(null);
          }
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>{t('region.importDrop')}</p>
      </Upload.Dragger>
      {percent !== null && (
        <Progress
          percent={outcome ? 100 : percent}
          status={outcome ? (outcome.ok ? 'success' : 'exception') : 'active'}
          format={(p) => (outcome || p !== 100 ? `${p}%` : t('region.processing'))}
          style={{ marginTop: 12 }}
        />
      )}
      {outcome && (
        <Alert
          style={{ marginTop: 12 }}
          type={outcome.ok ? 'success' : 'error'}
          showIcon
          message={outcome.msg}
          description={outcome.ok ? t('region.importCounts', outcome.summary) : undefined}
        />
      )}
      {outcome && !outcome.ok && (
        <Table
          style={{ marginTop: 12 }}
          size="small"
          rowKey={(e) => `${e.row}-${e.code}`}
          pagination={{ pageSize: 10, showSizeChanger: false }}
          dataSource={outcome.summary.errors}
          columns={[
            { title: t('region.row'), dataIndex: 'row', width: 80 },
            { title: t(`${region.code}:fields.code.label`), dataIndex: 'code', width: 140 },
            { title: t('region.error'), dataIndex: 'message' },
          ]}
        />
      )}
    </Modal>
  );
}
