import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Card, Col, Grid, Input, List, Row, Segmented, Slider, Space, Spin, Tag, Tooltip, Tree } from 'antd';
import {
  ArrowDownOutlined,
  ArrowLeftOutlined,
  ArrowRightOutlined,
  ArrowUpOutlined,
  CloseOutlined,
  FullscreenOutlined,
  VideoCameraOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { REGION_ROOT } from '@atrium/contract/resources/system/region';
import { regionChildren, type RegionNode } from '../../api/region';
import i18n from '../../i18n';
import { ptz, wallCameras, type WallCamera } from './monitor/api';
import { videoMonitorTexts } from './monitor/messages';
import Player, { type PlayState } from './monitor/Player';
import EmptyState from '../../components/EmptyState';

/**
 * 实时监控 (docs/devices.md "Live video"): the lazy region tree, the cameras of the chosen region (and below) in the
 * caller's scope, a 1 / 4 / 9 / 16 grid — click a camera (into the selected or the first free cell) or drag it onto
 * a cell to play — the PTZ pad of the selected cell (press = move, release = stop) and full screen per cell.
 */

i18n.addResourceBundle('zh', 'translation', { videoMonitor: videoMonitorTexts.zh }, true, false);
i18n.addResourceBundle('en', 'translation', { videoMonitor: videoMonitorTexts.en }, true, false);

const GRIDS = [1, 4, 9, 16] as const;
const LIST_SIZE = 200;
const DRAG_TYPE = 'application/x-atrium-camera';

const STATUS: Record<number, { key: string; color: string }> = {
  0: { key: 'offline', color: 'default' },
  1: { key: 'online', color: 'green' },
  2: { key: 'disabled', color: 'red' },
};

type TreeItem = { key: string; title: string; isLeaf: boolean; children?: TreeItem[] };

function useRegionTree() {
  const [levels, setLevels] = useState<Record<string, RegionNode[]>>({});
  const load = useCallback(async (parent: string) => {
    const nodes = await regionChildren(parent);
    setLevels((all) => ({ ...all, [parent]: nodes }));
  }, []);
  useEffect(() => {
    void load(REGION_ROOT).catch(() => undefined);
  }, [load]);
  const treeData = useMemo(() => {
    const build = (parent: string): TreeItem[] =>
      (levels[parent] ?? []).map((n) => ({
        key: n.value,
        title: n.title,
        isLeaf: !n.hasChildren,
        children: levels[n.value] ? build(n.value) : undefined,
      }));
    return build(REGION_ROOT);
  }, [levels]);
  return { treeData, levels, load };
}

const PAD: { cmd: string; icon: ReactNode }[][] = [
  [
    { cmd: 'upleft', icon: <ArrowUpOutlined rotate={-45} /> },
    { cmd: 'up', icon: <ArrowUpOutlined /> },
    { cmd: 'upright', icon: <ArrowUpOutlined rotate={45} /> },
  ],
  [
    { cmd: 'left', icon: <ArrowLeftOutlined /> },
    { cmd: '', icon: null },
    { cmd: 'right', icon: <ArrowRightOutlined /> },
  ],
  [
    { cmd: 'downleft', icon: <ArrowDownOutlined rotate={45} /> },
    { cmd: 'down', icon: <ArrowDownOutlined /> },
    { cmd: 'downright', icon: <ArrowDownOutlined rotate={-45} /> },
  ],
];

/** Press = move at the speed, release (or leaving the button) = stop. */
function PtzPad({ camera }: { camera?: WallCamera }) {
  const { t } = useTranslation();
  const [speed, setSpeed] = useState(4);
  const moving = useRef(false);
  const press = (cmd: string) => {
    if (!camera) return;
    moving.current = true;
    void ptz(camera.id, cmd, speed).catch(() => undefined);
  };
  const release = () => {
    if (!camera || !moving.current) return;
    moving.current = false;
    void ptz(camera.id, 'stop', speed).catch(() => undefined);
  };
  const button = (cmd: string, icon: ReactNode) => (
    <Tooltip title={t(`videoMonitor.${cmd}`)} key={cmd}>
      <Button
        aria-label={t(`videoMonitor.${cmd}`)}
        data-testid={`ptz-${cmd}`}
        icon={icon}
        disabled={!camera}
        onPointerDown={() => press(cmd)}
        onPointerUp={release}
        onPointerLeave={release}
      />
    </Tooltip>
  );
  return (
    <Card size="small" title={t('videoMonitor.ptz')} data-testid="ptz-pad">
      {!camera && <div style={{ opacity: 0.6, marginBottom: 8, fontSize: 12 }}>{t('videoMonitor.ptzNone')}</div>}
      <Space direction="vertical" size={4}>
        {PAD.map((row, i) => (
          <Space key={i} size={4}>
            {row.map(({ cmd, icon }) =>
              cmd ? button(cmd, icon) : <span key="mid" style={{ display: 'inline-block', width: 32 }} />,
            )}
          </Space>
        ))}
        <Space size={4}>
          {button('zoomin', <ZoomInOutlined />)}
          {button('zoomout', <ZoomOutOutlined />)}
        </Space>
        <div>
          {t('videoMonitor.speed')}
          <Slider min={1} max={8} value={speed} onChange={setSpeed} disabled={!camera} style={{ width: 140 }} />
        </div>
      </Space>
    </Card>
  );
}

function Cell({
  index,
  camera,
  selected,
  onSelect,
  onDrop,
  onClose,
  onState,
}: {
  index: number;
  camera?: WallCamera;
  selected: boolean;
  onSelect: () => void;
  onDrop: (cameraId: string) => void;
  onClose: () => void;
  onState: (s: PlayState) => void;
}) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const box = useRef<HTMLDivElement>(null);
  return (
    <div
      ref={box}
      data-testid={`cell-${index}`}
      onClick={onSelect}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault();
      }}
      onDrop={(e) => {
        const id = e.dataTransfer.getData(DRAG_TYPE);
        if (id) {
          e.preventDefault();
          onDrop(id);
        }
      }}
      style={{
        position: 'relative',
        background: '#111',
        border: `2px solid ${selected ? '#409EFF' : '#333'}`,
        minHeight: 0,
        overflow: 'hidden',
      }}
    >
      {camera ? (
        <>
          <Player camera={camera} onState={onState} />
          <div
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              right: 0,
              display: 'flex',
              alignItems: 'center',
              gap: 4,
              padding: '2px 4px',
              color: '#fff',
              background: 'linear-gradient(rgba(0,0,0,0.6), transparent)',
              fontSize: 12,
            }}
          >
            <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {camera.name}
            </span>
            <Tooltip title={t('videoMonitor.fullscreen')}>
              <Button
                size="small"
                type="text"
                aria-label={t('videoMonitor.fullscreen')}
                icon={<FullscreenOutlined style={{ color: '#fff' }} />}
                onClick={(e) => {
                  e.stopPropagation();
                  void box.current?.requestFullscreen?.().catch(() => undefined);
                }}
              />
            </Tooltip>
            <Tooltip title={t('videoMonitor.close')}>
              <Button
                size="small"
                type="text"
                aria-label={t('videoMonitor.close')}
                data-testid={`cell-close-${index}`}
                icon={<CloseOutlined style={{ color: '#fff' }} />}
                onClick={(e) => {
                  e.stopPropagation();
                  onClose();
                }}
              />
            </Tooltip>
          </div>
        </>
      ) : (
        <div
          style={{
            height: '100%',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            color: '#888',
            fontSize: 12,
            padding: 8,
            textAlign: 'center',
          }}
        >
          {/* Below the md breakpoint the camera list sits above the wall, not on its left (the Col of the page). */}
          {t(screens.md === false ? 'videoMonitor.emptyCellBelow' : 'videoMonitor.emptyCell')}
        </div>
      )}
    </div>
  );
}

export default function VideoMonitorPage() {
  const { t } = useTranslation();
  const { treeData, levels, load } = useRegionTree();
  const [region, setRegion] = useState<string>();
  const [cameras, setCameras] = useState<{ records: WallCamera[]; total: number } | null>(null);
  const [loading, setLoading] = useState(false);
  const [filter, setFilter] = useState('');
  const [grid, setGrid] = useState<(typeof GRIDS)[number]>(4);
  const [cells, setCells] = useState<(WallCamera | undefined)[]>(() => Array(16).fill(undefined));
  const [states, setStates] = useState<Record<number, PlayState>>({});
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    let stale = false;
    setLoading(true);
    wallCameras(region, LIST_SIZE)
      .then((page) => !stale && setCameras(page))
      .catch(() => !stale && setCameras({ records: [], total: 0 }))
      .finally(() => !stale && setLoading(false));
    return () => {
      stale = true;
    };
  }, [region]);

  const byId = useMemo(() => new Map((cameras?.records ?? []).map((c) => [c.id, c])), [cameras]);
  const shown = useMemo(
    () => (cameras?.records ?? []).filter((c) => !filter || c.name.toLowerCase().includes(filter.toLowerCase())),
    [cameras, filter],
  );

  const put = (index: number, camera: WallCamera) => {
    setCells((all) => all.map((c, i) => (i === index ? camera : c)));
    setStates((all) => ({ ...all, [index]: { kind: 'starting' } }));
    setSelected(index);
  };
  /** Into the selected cell when it is free, else the first free one, else the selected one (replaced). */
  const place = (camera: WallCamera) => {
    const free = cells.slice(0, grid).findIndex((c) => !c);
    const index = selected < grid && !cells[selected] ? selected : free >= 0 ? free : Math.min(selected, grid - 1);
    put(index, camera);
  };
  const close = (index: number) => {
    setCells((all) => all.map((c, i) => (i === index ? undefined : c)));
    setStates((all) => ({ ...all, [index]: { kind: 'starting' } }));
  };
  const changeGrid = (n: (typeof GRIDS)[number]) => {
    setGrid(n);
    // Cells beyond the new grid are closed (their players stop touching).
    setCells((all) => all.map((c, i) => (i < n ? c : undefined)));
    if (selected >= n) setSelected(0);
  };

  const side = Math.sqrt(grid);
  const current = cells[selected];
  const ptzCamera = current && current.ptz === 1 && states[selected]?.kind === 'playing' ? current : undefined;

  return (
    <Row gutter={12} style={{ height: '100%' }} data-testid="video-monitor">
      <Col xs={24} md={6}>
        <Card size="small" title={t('videoMonitor.regions')} styles={{ body: { padding: 8 } }}>
          <Tree
            blockNode
            height={260}
            treeData={[{ key: '', title: t('videoMonitor.allRegions'), isLeaf: false, children: treeData }]}
            defaultExpandedKeys={['']}
            selectedKeys={[region ?? '']}
            loadData={async (node) => {
              const key = String(node.key);
              if (key && !levels[key]) await load(key).catch(() => undefined);
            }}
            onSelect={(keys) => setRegion(keys.length && keys[0] ? String(keys[0]) : undefined)}
          />
        </Card>
        <Card
          size="small"
          title={t('videoMonitor.cameras')}
          style={{ marginTop: 12 }}
          styles={{ body: { padding: 8 } }}
          data-testid="camera-list"
        >
          <Input
            allowClear
            size="small"
            placeholder={t('videoMonitor.search')}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            style={{ marginBottom: 8 }}
          />
          {loading && !cameras ? (
            <Spin style={{ display: 'block', margin: 24 }} tip={t('videoMonitor.loading')} />
          ) : (
            <List
              size="small"
              loading={loading}
              style={{ maxHeight: 360, overflow: 'auto' }}
              dataSource={shown}
              locale={{
                emptyText: <EmptyState description={t('videoMonitor.noCameras')} />,
              }}
              footer={
                cameras && cameras.total > cameras.records.length ? (
                  <span style={{ fontSize: 12, opacity: 0.7 }}>
                    {t('videoMonitor.more', { n: cameras.records.length, total: cameras.total })}
                  </span>
                ) : undefined
              }
              renderItem={(c) => {
                const st = STATUS[c.status] ?? STATUS[0];
                return (
                  <List.Item
                    data-testid="camera-item"
                    draggable
                    onDragStart={(e) => e.dataTransfer.setData(DRAG_TYPE, c.id)}
                    onClick={() => place(c)}
                    style={{ cursor: 'pointer' }}
                  >
                    <Space size={4} style={{ minWidth: 0 }}>
                      <VideoCameraOutlined />
                      <span>{c.name}</span>
                    </Space>
                    <Space size={2}>
                      {c.ptz === 1 && <Tag color="blue">{t('videoMonitor.ptzTag')}</Tag>}
                      <Tag color={st.color}>{t(`videoMonitor.${st.key}`)}</Tag>
                    </Space>
                  </List.Item>
                );
              }}
            />
          )}
        </Card>
      </Col>
      <Col xs={24} md={18}>
        <Space style={{ marginBottom: 8 }} wrap>
          <span>{t('videoMonitor.grid')}</span>
          <Segmented
            data-testid="grid-size"
            value={grid}
            onChange={(v) => changeGrid(v as (typeof GRIDS)[number])}
            options={GRIDS.map((n) => ({ value: n, label: t('videoMonitor.gridN', { n }) }))}
          />
        </Space>
        <Row gutter={12}>
          <Col flex="auto">
            <div
              data-testid="video-grid"
              style={{
                display: 'grid',
                gridTemplateColumns: `repeat(${side}, 1fr)`,
                gridTemplateRows: `repeat(${side}, 1fr)`,
                gap: 4,
                aspectRatio: '16 / 9',
                width: '100%',
              }}
            >
              {Array.from({ length: grid }, (_, i) => (
                <Cell
                  key={i}
                  index={i}
                  camera={cells[i]}
                  selected={selected === i}
                  onSelect={() => setSelected(i)}
                  onDrop={(id) => {
                    const c = byId.get(id);
                    if (c) put(i, c);
                  }}
                  onClose={() => close(i)}
                  onState={(s) => setStates((all) => ({ ...all, [i]: s }))}
                />
              ))}
            </div>
          </Col>
          <Col flex="200px">
            <PtzPad camera={ptzCamera} />
          </Col>
        </Row>
      </Col>
    </Row>
  );
}
