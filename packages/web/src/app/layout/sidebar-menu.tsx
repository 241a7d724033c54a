import {
  ApartmentOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FolderOpenOutlined,
  HeartOutlined,
  PieChartOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Menu, Tooltip, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { MENU, groupEntries, menuItemForPath, sidebarEntries, type MenuContext, type Sidebar } from '../menu';

const ICONS: Record<string, ReactNode> = {
  overview: <DashboardOutlined />,
  artifacts: <FolderOpenOutlined />,
  repositories: <DatabaseOutlined />,
  layouts: <ApartmentOutlined />,
  'storage-summary': <PieChartOutlined />,
  users: <TeamOutlined />,
  'service-status': <HeartOutlined />,
  licenses: <SafetyCertificateOutlined />,
};

export function menuIcon(key: string): ReactNode {
  return ICONS[key];
}

/** The entries of one sidebar, filtered by admin flag, licence rank, services and features. */
export function SidebarMenu({ sidebar, ctx, pathname }: { sidebar: Sidebar; ctx: MenuContext; pathname: string }) {
  const entries = sidebarEntries(MENU, sidebar, ctx);
  const toItem = ({ item, status }: (typeof entries)[number]) => ({
    key: item.key,
    icon: ICONS[item.key],
    disabled: status.state === 'disabled',
    label:
      status.state === 'disabled' ? (
        <Tooltip title={status.reason} placement="right">
          <span>{item.label}</span>
        </Tooltip>
      ) : (
        <Link to={item.path}>{item.label}</Link>
      ),
  });
  const items: MenuProps['items'] =
    sidebar === 'administration'
      ? groupEntries(entries).map((g) => ({
          type: 'group',
          key: g.group,
          label: g.group,
          children: g.entries.map(toItem),
        }))
      : entries.map(toItem);
  const selected = menuItemForPath(pathname)?.key;
  return (
    <nav aria-label={sidebar === 'administration' ? 'Administration' : 'Application'}>
      <Menu
        mode="inline"
        items={items}
        selectedKeys={selected ? [selected] : []}
        style={{ borderInlineEnd: 0, paddingTop: 8 }}
      />
    </nav>
  );
}
