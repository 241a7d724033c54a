import { ArrowRightOutlined } from '@ant-design/icons';
import { Card, Col, Descriptions, Row, Statistic, Typography } from 'antd';
import { Link } from 'react-router';
import { menuItemState } from '../../../lib/menu';
import { menuIcon } from '../../../lib/menu-icons';
import { useStartupData } from '../../../lib/startup';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../components/time';
import { useFooter } from '../../auth/api/get-footer';
import { useNodes } from '../../system/api/get-nodes';
import { useVersion } from '../../system/api/get-version';

/** Landing page: who you are, the licence, the version and (for admins) the health of the nodes. */
export function OverviewPage() {
  const { user, menu, menuItems } = useStartupData();
  const footer = useFooter();
  const version = useVersion();
  const nodes = useNodes(Boolean(user?.admin));
  const online = nodes.data?.nodes.filter((n) => n.status === 'Online').length ?? 0;
  const shortcuts = menu
    ? menuItems.filter((i) => i.sidebar === 'administration' && menuItemState(i, menu).state === 'visible')
    : [];

  return (
    <>
      <PageHeader title="Overview" description={user ? `Signed in as ${user.name}.` : undefined} />
      <Row gutter={[20, 20]}>
        <Col xs={24} md={8}>
          <Card>
            <Statistic title="Licence" value={footer.data?.licenseLabel ?? '…'} />
            <Typography.Text type="secondary">
              {footer.data?.licensedTo ? `Licensed to ${footer.data.licensedTo}` : 'No valid licence'}
            </Typography.Text>
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card>
            <Statistic title="Version" value={version.data?.version ?? '…'} />
            <Typography.Text type="secondary">Revision {version.data?.revision ?? '…'}</Typography.Text>
          </Card>
        </Col>
        {user?.admin && (
          <Col xs={24} md={8}>
            <Card>
              <Statistic
                title="Nodes online"
                value={online}
                suffix={`/ ${nodes.data?.nodes.length ?? 0}`}
                loading={nodes.isPending}
              />
              <Link to="/admin/monitoring/service-status">
                Service status <ArrowRightOutlined />
              </Link>
            </Card>
          </Col>
        )}
        <Col xs={24} lg={12}>
          <Card title="Your account">
            <Descriptions
              column={1}
              size="small"
              items={[
                { key: 'name', label: 'User', children: user?.name },
                { key: 'email', label: 'E-mail', children: user?.email ?? '—' },
                { key: 'role', label: 'Role', children: user?.admin ? 'Administrator' : 'User' },
                {
                  key: 'last',
                  label: 'Last login',
                  children: user?.lastLoggedIn ? formatDateTime(user.lastLoggedIn) : '—',
                },
              ]}
            />
          </Card>
        </Col>
        {shortcuts.length > 0 && (
          <Col xs={24} lg={12}>
            <Card title="Administration">
              {shortcuts.map((item) => (
                <Link key={item.key} to={item.path} className="arca-admin-entry">
                  <span className="arca-admin-entry-icon" aria-hidden="true">
                    {menuIcon(item.key)}
                  </span>
                  <span>
                    <span className="arca-admin-entry-label">{item.label}</span>
                    <Typography.Text type="secondary" className="arca-admin-entry-description">
                      {item.description}
                    </Typography.Text>
                  </span>
                </Link>
              ))}
            </Card>
          </Col>
        )}
      </Row>
    </>
  );
}
