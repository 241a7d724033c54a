import { Menu, Tooltip, type MenuProps } from 'antd';
import { Link } from 'react-router';
import { groupEntries, menuItemForPath, sidebarEntries, type MenuContext, type Sidebar } from '../../lib/menu';
import { menuIcon } from '../../lib/menu-icons';
import { menuItems } from '../menu';

/** The entries of one sidebar, filtered by admin flag, license rank, services and features. */
export function SidebarMenu({
  sidebar,
  ctx,
  pathname,
  folded = false,
}: {
  sidebar: Sidebar;
  ctx: MenuContext;
  pathname: string;
  /** Folded to icons: groups are separated by lines instead of their titles. */
  folded?: boolean;
}) {
  const entries = sidebarEntries(menuItems(), sidebar, ctx);
  const toItem = ({ item, status }: (typeof entries)[number]) => ({
    key: item.key,
    icon: menuIcon(item.key),
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
      ? folded
        ? groupEntries(entries).flatMap((g, i) => [
            ...(i ? [{ type: 'divider' as const, key: `divider-${g.group}` }] : []),
            ...g.entries.map(toItem),
          ])
        : groupEntries(entries).map((g) => ({
            type: 'group',
            key: g.group,
            label: g.group,
            children: g.entries.map(toItem),
          }))
      : entries.map(toItem);
  const selected = menuItemForPath(pathname, menuItems())?.key;
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
