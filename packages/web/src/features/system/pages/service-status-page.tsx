import { DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
import { App, Badge, Button, Card, Col, Empty, Row, Statistic, Table, Tooltip, Typography } from 'antd';
import type { NodeStatus } from '@arca/contracts';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatDuration, formatRelative } from '../../../components/time';
import { useNodes, useRemoveNode } from '../api/get-nodes';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ListEmpty } from '../../../components/list-empty';

const SERVICE_LABELS: Record<string, string> = {
  artifactory: 'Artifactory (repositories)',
  access: 'Access',
  event: 'Event (webhooks)',
  metadata: 'Metadata',
  mc: 'Mission Control',
  replicator: 'Replicator',
  tracker: 'PDN Server',
};

/** Services keyed by type, each with its nodes and their heartbeats. */
function servicesOf(nodes: NodeStatus[]) {
  const map = new Map<string, { node: NodeStatus; heartbeat: string; online: boolean }[]>();
  for (const node of nodes) {
    for (const [service, state] of Object.entries(node.micro_services)) {
      const list = map.get(service) ?? [];
      list.push({
        node,
        heartbeat: state.last_heartbeat,
        online: state.status === 'Online' && node.status === 'Online',
      });
      map.set(service, list);
    }
  }
  return [...map.entries()].map(([service, list]) => ({ service, list }));
}

export function ServiceStatusPage() {
  const nodes = useNodes();
  const removeNode = useRemoveNode();
  const { modal } = App.useApp();
  const confirmRemove = (node: NodeStatus) =>
    modal.confirm({
      title: `Remove node ${node.node_id}?`,
      content:
        'It stopped answering and leaves the list. If it starts again, it registers anew; what it held is released when its leases run out.',
      okText: 'Remove',
      okButtonProps: { danger: true },
      onOk: () =>
        runSafely(() =>
          removeNode
            .mutateAsync({ serviceId: node.service_id, nodeId: node.node_id })
            .then(() => notifySuccess(`Removed node ${node.node_id}`)),
        ),
    });
  const list = nodes.data?.nodes ?? [];
  const online = list.filter((n) => n.status === 'Online').length;
  const services = servicesOf(list);
  return (
    <>
      <PageHeader
        title="Service Status"
        description="The nodes of this deployment and the services each runs. Refreshed every 10 seconds."
        extra={
          <Tooltip
            title={
              nodes.dataUpdatedAt ? `Last refreshed ${formatDateTime(new Date(nodes.dataUpdatedAt).toISOString())}` : ''
            }
          >
            <Button icon={<ReloadOutlined />} onClick={() => void nodes.refetch()} loading={nodes.isFetching}>
              Refresh
            </Button>
          </Tooltip>
        }
      />
      <Row gutter={[20, 20]} style={{ marginBottom: 20 }}>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title="Nodes online" value={online} suffix={`/ ${list.length}`} loading={nodes.isPending} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic
              title="Services running"
              value={services.filter((s) => s.list.some((e) => e.online)).length}
              suffix={`/ ${services.length}`}
              loading={nodes.isPending}
            />
          </Card>
        </Col>
      </Row>
      <Card title="Nodes" style={{ marginBottom: 20 }}>
        <Table<NodeStatus>
          rowKey="node_id"
          loading={nodes.isPending}
          dataSource={list}
          pagination={false}
          locale={{
            emptyText: (
              <ListEmpty query={nodes} what="The nodes">
                <Empty description="No node has registered yet." />
              </ListEmpty>
            ),
          }}
          columns={[
            {
              title: 'Node',
              dataIndex: 'node_id',
              render: (id: string) => <Typography.Text strong>{id}</Typography.Text>,
            },
            { title: 'Host', dataIndex: 'host' },
            { title: 'Version', dataIndex: 'version' },
            {
              title: 'Status',
              dataIndex: 'status',
              render: (status: string) => <Badge status={status === 'Online' ? 'success' : 'error'} text={status} />,
            },
            {
              title: 'Uptime',
              key: 'uptime',
              render: (_: unknown, node) => {
                const first = Object.values(node.micro_services)[0];
                return node.status === 'Online' && first ? formatDuration(first.uptime) : '—';
              },
            },
            {
              title: 'Last heartbeat',
              key: 'heartbeat',
              render: (_: unknown, node) => {
                const first = Object.values(node.micro_services)[0];
                if (!first || Date.parse(first.last_heartbeat) <= 0) return 'Stopped';
                return (
                  <Tooltip title={formatDateTime(first.last_heartbeat)}>
                    <span>{formatRelative(first.last_heartbeat)}</span>
                  </Tooltip>
                );
              },
            },
            {
              title: 'Actions',
              key: 'actions',
              width: 110,
              render: (_: unknown, node) =>
                node.status === 'Online' ? (
                  <Tooltip title="A running node cannot be removed">
                    <span>—</span>
                  </Tooltip>
                ) : (
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`Remove node ${node.node_id}`}
                    onClick={() => confirmRemove(node)}
                  >
                    Remove
                  </Button>
                ),
            },
          ]}
        />
      </Card>
      <Card title="Services">
        <Row gutter={[16, 16]}>
          {services.map(({ service, list: entries }) => {
            const up = entries.filter((e) => e.online).length;
            return (
              <Col key={service} xs={24} md={12} xl={8}>
                <Card size="small" className="arca-service-card" title={SERVICE_LABELS[service] ?? service}>
                  <StatusTag tone={up > 0 ? 'success' : 'error'}>{up > 0 ? 'Running' : 'Down'}</StatusTag>
                  <Typography.Text type="secondary">
                    {up} of {entries.length} node{entries.length === 1 ? '' : 's'} online
                  </Typography.Text>
                  <ul className="arca-service-nodes">
                    {entries.map((e) => (
                      <li key={e.node.node_id}>
                        <Badge status={e.online ? 'success' : 'error'} text={e.node.node_id} />
                      </li>
                    ))}
                  </ul>
                </Card>
              </Col>
            );
          })}
        </Row>
        {services.length === 0 && !nodes.isPending && <Empty description="No service is registered." />}
      </Card>
    </>
  );
}
