import { ApiOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { DEPLOYMENT_MESSAGES, type Deployment, type DeploymentStatus } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { PageHeader } from '../../../components/page-header';
import { RowActions } from '../../../components/row-actions';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatRelative } from '../../../components/time';
import { useDeploymentActions, useDeployments } from '../api/deployments';
import { DeploymentStatusTag, UNITS } from '../components/deployment-status-tag';
import { ListEmpty } from '../../../components/list-empty';

export { DeploymentStatusTag, UNITS };

/** Platform Deployments (`/admin/mission_control/platform_units`): the Arca deployments this one manages. */
export function PlatformUnitsPage() {
  const deployments = useDeployments();
  const actions = useDeploymentActions();
  const navigate = useNavigate();
  const [pairing, setPairing] = useState<{ token: string; expires_at: string }>();
  return (
    <>
      <PageHeader
        title="Platform Deployments"
        description="Other Arca deployments this one manages: their health, version and services, checked every 20 seconds."
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(`${UNITS}/add`)}>
            Add Deployment
          </Button>
        }
      />
      <Card style={{ marginBottom: 20 }}>
        <Table<Deployment>
          rowKey="id"
          loading={deployments.isPending}
          dataSource={deployments.data ?? []}
          pagination={{ hideOnSinglePage: true, pageSize: 50 }}
          locale={{
            emptyText: (
              <ListEmpty query={deployments} what="The deployments">
                <Empty description="No deployments yet. Make a pairing token on the deployment to add, then add it here." />
              </ListEmpty>
            ),
          }}
          columns={[
            {
              title: 'Name',
              dataIndex: 'name',
              render: (name: string, row) => (
                <Space direction="vertical" size={0}>
                  <Link to={`${UNITS}/${row.id}`}>
                    <Typography.Text strong>{name}</Typography.Text>
                  </Link>
                  <Typography.Text type="secondary">{row.url}</Typography.Text>
                </Space>
              ),
            },
            {
              title: 'Status',
              dataIndex: 'status',
              width: 170,
              render: (status: DeploymentStatus, row) => (
                <Tooltip title={row.status_details || undefined}>
                  <span>
                    <DeploymentStatusTag status={status} />
                  </span>
                </Tooltip>
              ),
            },
            { title: 'Version', dataIndex: 'version', width: 110, render: (v: string) => v || '—' },
            {
              title: 'Services',
              dataIndex: 'services',
              render: (services: Deployment['services']) =>
                services.length
                  ? services.map((s) => (
                      <StatusTag key={s.name} tone={s.status === 'ONLINE' ? 'success' : 'error'}>
                        {s.name}
                      </StatusTag>
                    ))
                  : '—',
            },
            {
              title: 'Tags',
              dataIndex: 'tags',
              render: (tags: string[]) => (tags.length ? tags.map((t) => <Tag key={t}>{t}</Tag>) : '—'),
            },
            { title: 'Location', dataIndex: ['location', 'city'], render: (city: string) => city || '—' },
            {
              title: 'Checked',
              dataIndex: 'checked_at',
              width: 120,
              render: (at: string | null) =>
                at ? <Tooltip title={formatDateTime(at)}>{formatRelative(at)}</Tooltip> : '—',
            },
            {
              title: 'Actions',
              key: 'actions',
              width: 150,
              render: (_: unknown, row) => (
                <RowActions
                  what={`deployment ${row.name}`}
                  onEdit={() => navigate(`${UNITS}/${row.id}`)}
                  remove={{
                    run: () => actions.remove.mutateAsync(row.id),
                    consequence: 'Arca stops managing it; the deployment itself and its data stay as they are.',
                    deleted: DEPLOYMENT_MESSAGES.deleted,
                  }}
                >
                  <Tooltip title="Test connection">
                    <Button
                      type="text"
                      icon={<ApiOutlined />}
                      aria-label={`Test ${row.name}`}
                      loading={actions.test.isPending && actions.test.variables === row.id}
                      onClick={() =>
                        actions.test.mutate(row.id, {
                          onSuccess: (answer) => (answer.ok ? notifySuccess(answer.message) : undefined),
                        })
                      }
                    />
                  </Tooltip>
                </RowActions>
              ),
            },
          ]}
        />
        {actions.test.data && !actions.test.data.ok && (
          <Alert type="error" showIcon style={{ marginTop: 12 }} message={actions.test.data.message} />
        )}
      </Card>
      <Card title="Let another deployment manage this one">
        <Typography.Paragraph type="secondary">
          A pairing token works once, for ten minutes: give it to the administrator of the management deployment, who
          adds this deployment with it. It becomes a service token you can revoke under Access Tokens.
        </Typography.Paragraph>
        {pairing ? (
          <Alert
            type="success"
            showIcon
            message={`Pairing token (until ${formatDateTime(pairing.expires_at)}):`}
            description={
              <Typography.Text code copyable style={{ wordBreak: 'break-all' }}>
                {pairing.token}
              </Typography.Text>
            }
          />
        ) : (
          <Button
            icon={<KeyOutlined />}
            loading={actions.pairingToken.isPending}
            onClick={() => actions.pairingToken.mutate(undefined, { onSuccess: setPairing })}
          >
            Generate Pairing Token
          </Button>
        )}
      </Card>
    </>
  );
}
