import { SearchOutlined } from '@ant-design/icons';
import { Card, Col, Empty, Input, Row, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { groupEntries, menuItemState, type MenuContext, type MenuItem, type MenuItemState } from '../../../lib/menu';
import { menuIcon } from '../../../lib/menu-icons';
import { useStartupData } from '../../../lib/startup';
import { Highlight } from '../../../components/highlight';
import { PageHeader } from '../../../components/page-header';

function matches(item: MenuItem, group: string, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [item.label, group, item.description ?? ''].some((text) => text.toLowerCase().includes(q));
}

function Entry({ item, status, query }: { item: MenuItem; status: MenuItemState; query: string }) {
  const body = (
    <>
      <span className="arca-admin-entry-icon" aria-hidden="true">
        {menuIcon(item.key)}
      </span>
      <span>
        <span className="arca-admin-entry-label">
          <Highlight text={item.label} query={query} />
        </span>
        {item.description && (
          <Typography.Text type="secondary" className="arca-admin-entry-description">
            <Highlight text={item.description} query={query} />
          </Typography.Text>
        )}
      </span>
    </>
  );
  if (status.state !== 'visible') {
    return (
      <Tooltip title={status.reason}>
        <span className="arca-admin-entry arca-admin-entry-disabled" aria-disabled="true" tabIndex={0}>
          {body}
        </span>
      </Tooltip>
    );
  }
  return (
    <Link to={item.path} className="arca-admin-entry">
      {body}
    </Link>
  );
}

export interface AdminMenuProps {
  items: MenuItem[];
  ctx: MenuContext;
}

/** Administration entries as grouped cards, with a search that filters and highlights. */
export function AdminMenu({ items, ctx }: AdminMenuProps) {
  const [query, setQuery] = useState('');
  const entries = items
    .filter((item) => item.sidebar === 'administration')
    .map((item) => ({ item, status: menuItemState(item, { ...ctx, admin: true }) }));
  const groups = groupEntries(entries)
    .map((g) => ({ ...g, entries: g.entries.filter((e) => matches(e.item, g.group, query)) }))
    .filter((g) => g.entries.length > 0);

  return (
    <>
      <Input
        allowClear
        size="large"
        prefix={<SearchOutlined />}
        placeholder="Search settings"
        aria-label="Search settings"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        style={{ maxWidth: 420, marginBottom: 24 }}
      />
      {groups.length === 0 ? (
        <Empty description={`No settings match “${query.trim()}”. Try another word, or clear the search.`} />
      ) : (
        <Row gutter={[20, 20]}>
          {groups.map((g) => (
            <Col key={g.group} xs={24} md={12} xl={8}>
              <Card title={<Highlight text={g.group} query={query} />} size="small" className="arca-admin-card">
                {g.entries.map((e) => (
                  <Entry key={e.item.key} item={e.item} status={e.status} query={query} />
                ))}
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </>
  );
}

/** Every administration page of this deployment on one screen (`artifactory/list`). */
export function AdminMenuPage() {
  const { menu, menuItems } = useStartupData();
  return (
    <>
      <PageHeader title="Administration" description="Every setting of this deployment, grouped by area." />
      {menu && <AdminMenu items={menuItems} ctx={menu} />}
    </>
  );
}
