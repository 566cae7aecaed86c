import { useCallback, useState } from 'react';
import { App, Drawer, Table, Tag } from 'antd';
import { ClusterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { cameradevice, DEVICE_TYPES } from '@atrium/contract/resources/device/cameradevice';
import { nvrchannelinfo } from '@atrium/contract/resources/device/nvrchannelinfo';
import { get } from '../../api/http';
import ResourcePage, { type ResourceHooks } from '../../components/crud/ResourcePage';
import type { RecordOf } from '../../components/crud/fromDefinition';
import i18n from '../../i18n';
import { showOnce } from '../system/once';
import { devicePageTexts } from './messages';
import './fields';
import { withConfigFields } from './config';
import EmptyState from '../../components/EmptyState';

/**
 * 摄像机设备 (docs/devices.md "Device records"): the definition's screen (region cascader, client picker, range-checked
 * longitude and latitude, the dictionary's type / manufacturer / model pickers), plus the device secret shown once
 * after `save`, and an NVR's channels in a drawer.
 */

i18n.addResourceBundle('zh', 'translation', { devicePage: devicePageTexts.zh }, true, false);
i18n.addResourceBundle('en', 'translation', { devicePage: devicePageTexts.en }, true, false);

type Rec = RecordOf<typeof cameradevice.fields>;
type Channel = {
  id: string;
  channelNo: number;
  channelCode: string | null;
  name: string | null;
  cameraName: string | null;
  status: number;
};

function ChannelDrawer({ nvr, onClose }: { nvr: Rec | null; onClose: () => void }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['nvr-channels', nvr?.id],
    queryFn: () => get<{ records: Channel[] }>(`${nvrchannelinfo.base}/list`, { nvrDeviceId: nvr!.id, size: 1000 }),
    enabled: !!nvr,
  });
  return (
    <Drawer
      open={!!nvr}
      onClose={onClose}
      size={720}
      title={t('devicePage.channelsTitle', { name: nvr?.name ?? '' })}
      destroyOnHidden
    >
      <Table<Channel>
        rowKey="id"
        size="small"
        loading={q.isLoading}
        dataSource={q.data?.records ?? []}
        pagination={false}
        locale={{ emptyText: <EmptyState description={t('devicePage.noChannels')} /> }}
        columns={[
          { title: t('devicePage.channelNo'), dataIndex: 'channelNo', width: 80 },
          { title: t('devicePage.channelCode'), dataIndex: 'channelCode' },
          { title: t('devicePage.channelName'), dataIndex: 'name' },
          { title: t('devicePage.camera'), dataIndex: 'cameraName' },
          {
            title: t('devicePage.status'),
            dataIndex: 'status',
            width: 80,
            render: (s: number) =>
              s === 1 ? <Tag color="green">{t('devicePage.online')}</Tag> : <Tag>{t('devicePage.offline')}</Tag>,
          },
        ]}
      />
    </Drawer>
  );
}

export default function CameraDevicePage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [nvr, setNvr] = useState<Rec | null>(null);
  const adjust = useCallback<NonNullable<ResourceHooks<Rec>['schema']>>(
    (derived) => ({
      ...derived,
      // The config values item by item, the effective config in the view (docs/devices.md "Config form").
      fields: withConfigFields(derived.fields),
      onSaved: (saved, mode) => {
        const secret = saved.deviceSecret;
        if (mode === 'add' && typeof secret === 'string' && secret) {
          showOnce(modal, t('devicePage.secretTitle'), [
            [t('devicePage.deviceCode'), String(saved.deviceCode ?? '')],
            [t('devicePage.secret'), secret],
          ]);
        }
        derived.onSaved?.(saved, mode);
      },
      rowActions: [
        ...(derived.rowActions ?? []),
        {
          code: nvrchannelinfo.code,
          label: 'devicePage.channels',
          icon: <ClusterOutlined />,
          when: (row) => row.deviceType === DEVICE_TYPES.nvr,
          onClick: ([row]) => setNvr(row),
        },
      ],
    }),
    [modal, t],
  );
  const [hooks] = useState<ResourceHooks<Rec>>(() => ({ schema: adjust }));
  return (
    <>
      <ResourcePage def={cameradevice} hooks={hooks} />
      <ChannelDrawer nvr={nvr} onClose={() => setNvr(null)} />
    </>
  );
}
