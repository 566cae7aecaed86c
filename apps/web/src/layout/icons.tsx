import {
  ApartmentOutlined, ApiOutlined, AppstoreOutlined, AuditOutlined, BarChartOutlined, BookOutlined, BranchesOutlined, CameraOutlined,
  CloudOutlined, ClusterOutlined, ContactsOutlined, DashboardOutlined, DatabaseOutlined, DeploymentUnitOutlined, DesktopOutlined,
  EnvironmentOutlined, FileOutlined, FileTextOutlined, GlobalOutlined, HddOutlined, HomeOutlined, IdcardOutlined, KeyOutlined,
  LineChartOutlined, LinkOutlined, MenuOutlined, MessageOutlined, NotificationOutlined, PaperClipOutlined, ProfileOutlined,
  SafetyOutlined, ScheduleOutlined, SettingOutlined, ShopOutlined, SolutionOutlined, StopOutlined, TableOutlined, TeamOutlined,
  ToolOutlined, UnorderedListOutlined, UserOutlined, UsergroupAddOutlined, VideoCameraOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** Menu icons by antd name (the menu's `source`). A fixed set keeps the bundle small; unknown names fall back. */
const ICONS: Record<string, ReactNode> = Object.fromEntries(Object.entries({
  ApartmentOutlined, ApiOutlined, AppstoreOutlined, AuditOutlined, BarChartOutlined, BookOutlined, BranchesOutlined, CameraOutlined,
  CloudOutlined, ClusterOutlined, ContactsOutlined, DashboardOutlined, DatabaseOutlined, DeploymentUnitOutlined, DesktopOutlined,
  EnvironmentOutlined, FileOutlined, FileTextOutlined, GlobalOutlined, HddOutlined, HomeOutlined, IdcardOutlined, KeyOutlined,
  LineChartOutlined, LinkOutlined, MenuOutlined, MessageOutlined, NotificationOutlined, PaperClipOutlined, ProfileOutlined,
  SafetyOutlined, ScheduleOutlined, SettingOutlined, ShopOutlined, SolutionOutlined, StopOutlined, TableOutlined, TeamOutlined,
  ToolOutlined, UnorderedListOutlined, UserOutlined, UsergroupAddOutlined, VideoCameraOutlined,
}).map(([name, Icon]) => [name, <Icon key={name} />]));

export const menuIcon = (name?: string): ReactNode => (name && ICONS[name]) || <AppstoreOutlined />;
