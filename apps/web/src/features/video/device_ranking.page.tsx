import { useState } from 'react';
import { Card, Col, Row, Segmented } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { statsApi } from './stats/api';
import { RankingBars, useTypeOptions } from './stats/StatsWidgets';
import './stats/messages';

/** 接入排名 (docs/devices.md "Statistics"): regions ranked by devices of a type, and by NVR channels joined. */
export default function DeviceRankingPage() {
  const { t } = useTranslation();
  const [deviceType, setDeviceType] = useState('');
  const types = useTypeOptions();
  const devices = useQuery({
    queryKey: ['stats-rank-devices', deviceType],
    queryFn: () => statsApi.deviceRanking({ deviceType }),
  });
  const channels = useQuery({ queryKey: ['stats-rank-channels'], queryFn: () => statsApi.channelRanking({}) });
  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} xl={12}>
        <Card
          size="small"
          title={t('stats.byDevices')}
          extra={
            <Segmented size="small" options={types} value={deviceType} onChange={(v) => setDeviceType(String(v))} />
          }
        >
          <RankingBars rows={devices.data} loading={devices.isLoading} name={t('stats.devices')} />
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card size="small" title={t('stats.byChannels')}>
          <RankingBars rows={channels.data} loading={channels.isLoading} name={t('stats.channels')} color="#13c2c2" />
        </Card>
      </Col>
    </Row>
  );
}
