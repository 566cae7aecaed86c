import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMenu } from '../stores/menu';
import { flatten } from '../stores/menuRoutes';
import { useErrorLog } from '../stores/errorLog';
import { useSession } from '../stores/session';
import { tokenDatetime } from '../stores/session';

/** The console (/wel/dashboard, hidden from the menu): figures of this session. */
export default function Dashboard() {
  const { t } = useTranslation();
  const menus = flatten(useMenu((s) => s.allMenus));
  const tops = useMenu((s) => s.topMenus);
  const logs = useErrorLog((s) => s.logs);
  const permission = useSession((s) => s.permission);
  const since = tokenDatetime();
  return (
    <Card title={t('home.dashboardTitle')}>
      <Row gutter={16}>
        <Col span={6}>
          <Statistic title={t('home.menus')} value={menus.length} />
        </Col>
        <Col span={6}>
          <Statistic title={t('home.topMenus')} value={tops.length} />
        </Col>
        <Col span={6}>
          <Statistic title={t('home.errors')} value={logs.length} />
        </Col>
        <Col span={6}>
          <Statistic
            title={t('home.session')}
            value={since ? new Date(since).toLocaleTimeString() : '—'}
            suffix={`· ${Object.keys(permission).length}`}
          />
        </Col>
      </Row>
    </Card>
  );
}
