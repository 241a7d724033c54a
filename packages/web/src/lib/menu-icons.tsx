import {
  CloudServerOutlined,
  IdcardOutlined,
  CloudUploadOutlined,
  ClusterOutlined,
  DeploymentUnitOutlined,
  ControlOutlined,
  GlobalOutlined,
  ClockCircleOutlined,
  InboxOutlined,
  CustomerServiceOutlined,
  FileTextOutlined,
  ApiOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BuildOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FolderOpenOutlined,
  HeartOutlined,
  KeyOutlined,
  LockOutlined,
  MailOutlined,
  PieChartOutlined,
  ProjectOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  SecurityScanOutlined,
  SignatureOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** One icon per menu entry, sidebar and administration alike (a test checks every entry has one). */
const ICONS: Record<string, ReactNode> = {
  overview: <DashboardOutlined />,
  artifacts: <FolderOpenOutlined />,
  packages: <AppstoreOutlined />,
  builds: <BuildOutlined />,
  repositories: <DatabaseOutlined />,
  layouts: <ApartmentOutlined />,
  'storage-summary': <PieChartOutlined />,
  users: <UserOutlined />,
  groups: <TeamOutlined />,
  permissions: <SafetyOutlined />,
  'access-tokens': <KeyOutlined />,
  'security-general': <LockOutlined />,
  'authentication-providers': <IdcardOutlined />,
  'platform-units': <CloudServerOutlined />,
  mail: <MailOutlined />,
  'general-settings': <ControlOutlined />,
  proxies: <GlobalOutlined />,
  'keys-management': <SignatureOutlined />,
  'security-teaser': <SecurityScanOutlined />,
  'pipelines-teaser': <DeploymentUnitOutlined />,
  'pdn-teaser': <ClusterOutlined />,
  webhooks: <ApiOutlined />,
  'audit-trail': <AuditOutlined />,
  projects: <ProjectOutlined />,
  'system-logs': <FileTextOutlined />,
  'support-zone': <CustomerServiceOutlined />,
  backups: <CloudUploadOutlined />,
  retention: <ClockCircleOutlined />,
  'cold-storage': <InboxOutlined />,
  'service-status': <HeartOutlined />,
  licenses: <SafetyCertificateOutlined />,
};

/** The icon of a menu entry. */
export function menuIcon(key: string): ReactNode {
  return ICONS[key];
}

/** Whether an entry has its icon. */
export const hasMenuIcon = (key: string): boolean => key in ICONS;
