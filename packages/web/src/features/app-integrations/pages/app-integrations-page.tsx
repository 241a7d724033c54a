import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Space, Table, Typography } from 'antd';
import { Link } from 'react-router';
import { APP_INTEGRATION_MESSAGES, APP_INTEGRATION_TYPES, type AppIntegration } from '@arca/contracts';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { RowActions } from '../../../components/row-actions';
import { formatDateTime } from '../../../components/time';
import { useAppIntegrationActions, useAppIntegrations } from '../api/app-integrations';

export const APP_INTEGRATIONS_PATH = '/admin/configuration/integrations';

const typeName = (id: string) => APP_INTEGRATION_TYPES.find((t) => t.id === id)?.name ?? id;

/** Applications registered to act on users' behalf (OAuth 2.0 clients of this deployment). */
export function AppIntegrationsPage() {
  const list = useAppIntegrations();
  const { remove } = useAppIntegrationActions();
  const newButton = (
    <Link to={`${APP_INTEGRATIONS_PATH}/new`}>
      <Button type="primary" icon={<PlusOutlined />}>
        New Integration
      </Button>
    </Link>
  );
  return (
    <>
      <PageHeader
        title="Application Integrations"
        description="Applications that sign users in here (OAuth 2.0 with PKCE) and act on their behalf with their permissions."
        extra={newButton}
      />
      {list.isError ? (
        <LoadError what="Application integrations" error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Card>
          <Table<AppIntegration>
            rowKey="id"
            loading={list.isPending}
            dataSource={list.data ?? []}
            pagination={false}
            locale={{
              emptyText: (
                <Empty
                  description={
                    <Space orientation="vertical">
                      <Typography.Text strong>No application integrations yet</Typography.Text>
                      <Typography.Text type="secondary">
                        Register an application to give it a client id and secret; users then approve it once.
                      </Typography.Text>
                    </Space>
                  }
                >
                  {newButton}
                </Empty>
              ),
            }}
            columns={[
              { title: 'Application Name', dataIndex: 'name' },
              { title: 'Application Type', dataIndex: 'type', render: typeName },
              {
                title: 'Client ID',
                dataIndex: 'clientId',
                render: (id: string) => (
                  <Typography.Text code copyable={{ tooltips: ['Copy the client id', 'Copied'] }}>
                    {id}
                  </Typography.Text>
                ),
              },
              { title: 'Callback URL', dataIndex: 'callbackUrl', ellipsis: true },
              { title: 'Users', dataIndex: 'users', align: 'right' },
              { title: 'Created', dataIndex: 'created', render: (v: string) => formatDateTime(v) },
              {
                title: <span className="arca-sr-only">Actions</span>,
                key: 'actions',
                width: 60,
                render: (_: unknown, row: AppIntegration) => (
                  <RowActions
                    what={`integration ${row.name}`}
                    remove={{
                      run: () => remove.mutateAsync(row.id),
                      consequence: APP_INTEGRATION_MESSAGES.deleteConfirm,
                      deleted: APP_INTEGRATION_MESSAGES.deleted,
                    }}
                  />
                ),
              },
            ]}
          />
        </Card>
      )}
    </>
  );
}
