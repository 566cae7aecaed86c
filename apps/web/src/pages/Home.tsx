import { Avatar, Card, Col, Descriptions, Row, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMenu } from '../stores/menu';
import { flatten } from '../stores/menuRoutes';
import { useSession } from '../stores/session';
import { menuIcon } from '../layout/icons';
import { menuLabel } from '../layout/Sidebar';
import { seededName, seededNames } from '../i18n/seeded';
import {
  LatestClientsWidget,
  PendingApprovalsWidget,
  RankingsWidget,
  TotalsWidget,
} from '../features/video/stats/StatsWidgets';
import EmptyState from '../components/EmptyState';

/**
 * Home (首页): who you are, the dashboard (docs/devices.md "Statistics": device totals and online rate, the rankings,
 * the latest client registrations, pending approvals — each widget only for a user holding its screen), and the
 * screens your menus open.
 */
export default function Home() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { userInfo } = useSession();
  const lang = i18n.language;
  // Role names come with the user info (the token answer names roles by code, which is no name to show).
  const roleNames = userInfo?.roles ? seededNames(userInfo.roleName ?? '', lang) : '';
  const leaves = flatten(useMenu((s) => s.allMenus)).filter((m) => !m.children.length && m.path);
  const screen = (code: string) => leaves.find((m) => m.code === code);
  const clients = screen('clientinfo');
  const approvals = screen('approval');
  return (
    <Row gutter={[12, 12]}>
      <Col span={24}>
        <Card>
          <Card.Meta
            avatar={<Avatar size={56} src={userInfo?.avatar || '/avatar.svg'} />}
            title={
              <Typography.Title level={4} style={{ margin: 0 }}>
                {t('home.greeting', { name: seededName(userInfo?.realName || userInfo?.account || '', lang) })}
              </Typography.Title>
            }
            description={
              <Descriptions
                size="small"
                // One item a line on a phone: three side by side break every word.
                column={{ xs: 1, sm: 2, md: 3 }}
                items={[
                  {
                    key: 't',
                    label: t('home.tenant'),
                    children: `${userInfo?.tenantId ?? ''} ${seededName(userInfo?.tenantName ?? '', lang)}`,
                  },
                  { key: 'r', label: t('home.roles'), children: roleNames || '—' },
                  {
                    key: 'd',
                    label: t('home.dept'),
                    children: userInfo?.deptName ? seededName(userInfo.deptName, lang) : '—',
                  },
                ]}
              />
            }
          />
        </Card>
      </Col>
      {screen('device_online') ? (
        <Col span={24}>
          <TotalsWidget />
        </Col>
      ) : null}
      {screen('device_ranking') ? (
        <Col span={24}>
          <RankingsWidget more={screen('device_ranking')?.path} />
        </Col>
      ) : null}
      {clients ? (
        <Col xs={24} lg={12}>
          <LatestClientsWidget more={clients.path} />
        </Col>
      ) : null}
      {approvals ? (
        <Col xs={24} lg={12}>
          <PendingApprovalsWidget more={approvals.path} />
        </Col>
      ) : null}
      <Col span={24}>
        <Card title={t('home.quickLinks')}>
          {leaves.length ? (
            <Row gutter={[12, 12]}>
              {leaves.slice(0, 24).map((m) => (
                <Col key={m.id} xs={12} sm={8} md={6} lg={4}>
                  <Card hoverable size="small" onClick={() => navigate(m.path)} style={{ textAlign: 'center' }}>
                    <div style={{ fontSize: 24 }}>{menuIcon(m.icon)}</div>
                    <div>{menuLabel(m, i18n.language)}</div>
                  </Card>
                </Col>
              ))}
            </Row>
          ) : (
            <EmptyState description={t('home.noMenus')} />
          )}
        </Card>
      </Col>
    </Row>
  );
}
