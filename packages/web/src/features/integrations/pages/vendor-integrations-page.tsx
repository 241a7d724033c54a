import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { App, Breadcrumb, Button, Card, Input, Space, Table, Tooltip } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  VCS_MESSAGES,
  VCS_SERVICES,
  VCS_VENDORS,
  VCS_VENDOR_LABELS,
  type VcsIntegration,
  type VcsVendor,
} from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifyError, notifySuccess } from '../../../api/notifications';
import { LoadError } from '../../../components/load-error';
import { ListEmpty } from '../../../components/list-empty';
import { NotFoundResult } from '../../../components/not-found-result';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../components/time';
import { useIntegrationActions, useVendorIntegrations } from '../api/integrations';
import { GitIntegrationModal } from '../components/git-integration-modal';
import { INTEGRATIONS_PATH } from './integrations-page';

const serviceLabel = (name: string) => VCS_SERVICES.find((s) => s.name === name)?.label ?? name;

function VendorTable({ vendor, service }: { vendor: VcsVendor; service: string | undefined }) {
  const list = useVendorIntegrations(vendor, service);
  const { remove } = useIntegrationActions();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [modalState, setModalState] = useState<{ editing?: VcsIntegration; startAt: 0 | 1 }>();
  const label = VCS_VENDOR_LABELS[vendor];
  const rows = (list.data ?? []).filter((i) =>
    `${i.name} ${i.url} ${i.userName}`.toLowerCase().includes(query.trim().toLowerCase()),
  );
  const confirmDelete = (row: VcsIntegration) =>
    modal.confirm({
      title: `Delete integration ${row.name}?`,
      content: `Arca stops using this ${label} account; its token is forgotten.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        runSafely(async () => {
          try {
            notifySuccess((await remove.mutateAsync(row.key)).message);
          } catch (error) {
            notifyError(VCS_MESSAGES.deleteFailed);
            throw error;
          }
        }),
    });
  return (
    <>
      <PageHeader
        title={`${list.data?.length ?? 0} Instances`}
        description={`${label} accounts this deployment is connected to${service ? `, serving ${serviceLabel(service)}` : ''}.`}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setModalState({ startAt: 0 })}>
            Add {label} integration
          </Button>
        }
      />
      {list.isError ? (
        <LoadError what="The integrations" error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Card>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Filter by name, URL or user"
            aria-label="Filter integrations"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            style={{ width: 300, marginBottom: 16 }}
          />
          <Table<VcsIntegration>
            rowKey="key"
            loading={list.isPending}
            dataSource={rows}
            pagination={false}
            locale={{
              emptyText: (
                <ListEmpty query={list} what="The integrations">
                  {query
                    ? 'No integration matches the filter.'
                    : `No ${label} integration yet: connect an account with “Add ${label} integration”.`}
                </ListEmpty>
              ),
            }}
            columns={[
              { title: 'Integration Name', dataIndex: 'name' },
              { title: 'URL', dataIndex: 'url', ellipsis: true },
              {
                title: 'Product',
                key: 'products',
                render: (_: unknown, row: VcsIntegration) =>
                  row.products.length ? (
                    row.products.map(serviceLabel).join(', ')
                  ) : (
                    <Button
                      type="link"
                      style={{ padding: 0 }}
                      onClick={() => setModalState({ editing: row, startAt: 1 })}
                    >
                      Select a Product
                    </Button>
                  ),
              },
              { title: 'Created On', dataIndex: 'createdOn', render: (v: string) => formatDateTime(v) },
              {
                title: <span className="arca-sr-only">Actions</span>,
                key: 'actions',
                render: (_: unknown, row: VcsIntegration) => (
                  <Space size={0}>
                    {row.products.includes('xray') && (
                      <Button
                        type="link"
                        onClick={() =>
                          void navigate(
                            `/admin/security-and-compliance-teaser?vcsType=${vendor}&integrationId=${row.key}`,
                          )
                        }
                      >
                        Manage Repositories
                      </Button>
                    )}
                    <Tooltip title="Edit Integration">
                      <Button type="link" onClick={() => setModalState({ editing: row, startAt: 0 })}>
                        Edit Integration
                      </Button>
                    </Tooltip>
                    <Button type="link" danger onClick={() => confirmDelete(row)} aria-label={`Delete ${row.name}`}>
                      Delete
                    </Button>
                  </Space>
                ),
              },
            ]}
          />
        </Card>
      )}
      {modalState && (
        <GitIntegrationModal
          vendor={vendor}
          editing={modalState.editing}
          startAt={modalState.startAt}
          open
          onClose={() => setModalState(undefined)}
        />
      )}
    </>
  );
}

/** `/integrations/:vendorName/:serviceName?`: one vendor's instances (spec part 1 §2). */
export function VendorIntegrationsPage() {
  const { vendorName = '', serviceName } = useParams();
  if (!(VCS_VENDORS as readonly string[]).includes(vendorName))
    return (
      <NotFoundResult title="No such integration vendor" backTo={INTEGRATIONS_PATH} backLabel="Back to Integrations" />
    );
  const vendor = vendorName as VcsVendor;
  return (
    <>
      <Breadcrumb
        style={{ marginBottom: 12 }}
        items={[{ title: <Link to={INTEGRATIONS_PATH}>Integrations</Link> }, { title: VCS_VENDOR_LABELS[vendor] }]}
      />
      <VendorTable vendor={vendor} service={serviceName} />
    </>
  );
}
