import {
  BuildOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FolderOpenOutlined,
  HeartOutlined,
  PieChartOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

const ICONS: Record<string, ReactNode> = {
  overview: <DashboardOutlined />,
  artifacts: <FolderOpenOutlined />,
  packages: <AppstoreOutlined />,
  builds: <BuildOutlined />,
  repositories: <DatabaseOutlined />,
  layouts: <ApartmentOutlined />,
  'storage-summary': <PieChartOutlined />,
  users: <TeamOutlined />,
  'service-status': <HeartOutlined />,
  licenses: <SafetyCertificateOutlined />,
};

/** The icon of a menu entry, where it has one. */
export function menuIcon(key: string): ReactNode {
  return ICONS[key];
}
