import {
  ApartmentOutlined, ApiOutlined, AppstoreOutlined, AuditOutlined, BarChartOutlined, BellOutlined, BookOutlined,
  BranchesOutlined, CalendarOutlined, CameraOutlined, CloudOutlined, ClusterOutlined, CodeOutlined, ContactsOutlined,
  ControlOutlined, DashboardOutlined, DatabaseOutlined, DeploymentUnitOutlined, DesktopOutlined, EditOutlined,
  EnvironmentOutlined, FileOutlined, FileTextOutlined, FolderOutlined, FundOutlined, GlobalOutlined, HddOutlined, HomeOutlined,
  IdcardOutlined, KeyOutlined, LineChartOutlined, LinkOutlined, LockOutlined, MailOutlined, MenuOutlined, MessageOutlined,
  MobileOutlined, NotificationOutlined, PaperClipOutlined, PhoneOutlined, PictureOutlined, PieChartOutlined, ProfileOutlined,
  SafetyOutlined, ScheduleOutlined, SearchOutlined, SettingOutlined, ShopOutlined, SolutionOutlined, StarOutlined, StopOutlined,
  TableOutlined, TagsOutlined, TeamOutlined, ThunderboltOutlined, ToolOutlined, UnorderedListOutlined, UserOutlined,
  UsergroupAddOutlined, VideoCameraOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** Menu icons by antd name (the menu's `source`). A fixed set keeps the bundle small; unknown names fall back. */
const ICONS: Record<string, ReactNode> = Object.fromEntries(Object.entries({
  ApartmentOutlined, ApiOutlined, AppstoreOutlined, AuditOutlined, BarChartOutlined, BellOutlined, BookOutlined,
  BranchesOutlined, CalendarOutlined, CameraOutlined, CloudOutlined, ClusterOutlined, CodeOutlined, ContactsOutlined,
  ControlOutlined, DashboardOutlined, DatabaseOutlined, DeploymentUnitOutlined, DesktopOutlined, EditOutlined,
  EnvironmentOutlined, FileOutlined, FileTextOutlined, FolderOutlined, FundOutlined, GlobalOutlined, HddOutlined, HomeOutlined,
  IdcardOutlined, KeyOutlined, LineChartOutlined, LinkOutlined, LockOutlined, MailOutlined, MenuOutlined, MessageOutlined,
  MobileOutlined, NotificationOutlined, PaperClipOutlined, PhoneOutlined, PictureOutlined, PieChartOutlined, ProfileOutlined,
  SafetyOutlined, ScheduleOutlined, SearchOutlined, SettingOutlined, ShopOutlined, SolutionOutlined, StarOutlined, StopOutlined,
  TableOutlined, TagsOutlined, TeamOutlined, ThunderboltOutlined, ToolOutlined, UnorderedListOutlined, UserOutlined,
  UsergroupAddOutlined, VideoCameraOutlined,
}).map(([name, Icon]) => [name, <Icon key={name} />]));

/** The icon names a menu may use (the menu screen's icon picker offers exactly these). */
export const ICON_NAMES = Object.keys(ICONS);

export const menuIcon = (name?: string): ReactNode => (name && ICONS[name]) || <AppstoreOutlined />;
