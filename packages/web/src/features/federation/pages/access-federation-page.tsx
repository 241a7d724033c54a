import { ApartmentOutlined, DeploymentUnitOutlined, SyncOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { Alert, App, Button, Card, Checkbox, Descriptions, Empty, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useNavigate } from 'react-router';
import {
  FEDERATION_ENTITY_LABELS,
  FEDERATION_MESSAGES,
  type Federation,
  type FederationEntityType,
} from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { PageHeader } from '../../../components/page-header';
import { RowActions } from '../../../components/row-actions';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatRelative } from '../../../components/time';
import { useFederationActions, useFederations, useMemberState } from '../api/federation';
import { ListEmpty } from '../../../components/list-empty';

export const FEDERATION = '/admin/mission_control/access_federation';

/**
 * What a broadcast sends, said before it starts: the entity types, to whom, and whether the built-in
 * administrator's password goes too (only when ticked: each target keeps its own otherwise).
 */
function BroadcastContent({
  federation,
  onAdminCredentials,
}: {
  federation: Federation;
  onAdminCredentials: (on: boolean) => void;
}) {
  const [ticked, setTicked] = useState(false);
  const users = federation.entity_types.includes('USERS');
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Paragraph style={{ marginBottom: 0 }}>{FEDERATION_MESSAGES.broadcastConfirm}.</Typography.Paragraph>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Sends">
          {federation.entity_types.map((type) => FEDERATION_ENTITY_LABELS[type]).join(', ')}
        </Descriptions.Item>
        <Descriptions.Item label="To">{federation.targets.map((t) => t.name).join(', ')}</Descriptions.Item>
      </Descriptions>
      {users && (
        <>
          <Typography.Text type="secondary">{FEDERATION_MESSAGES.broadcastAdminKept}</Typography.Text>
          <Checkbox
            checked={ticked}
            onChange={(event) => {
              setTicked(event.target.checked);
              onAdminCredentials(event.target.checked);
            }}
          >
            {FEDERATION_MESSAGES.broadcastAdminCredentials}
          </Checkbox>
          {ticked && <Alert type="warning" showIcon title={FEDERATION_MESSAGES.broadcastAdminWarning} />}
        </>
      )}
    </Space>
  );
}

/** One member's health, shown when its row is expanded: each peer's backlog, the conflicts it settled. */
function MemberHealth({ federation }: { federation: Federation }) {
  const state = useMemberState(federation.source.id);
  if (state.isPending) return <Typography.Text type="secondary">Asking {federation.source.name}…</Typography.Text>;
  if (state.isError)
    return <Alert type="warning" showIcon title={`${federation.source.name} did not answer: ${state.error.message}`} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={state.data.peers}
        locale={{ emptyText: 'This member sends to no one: it is a target of a star.' }}
        columns={[
          { title: 'Sends to', dataIndex: 'name' },
          {
            title: 'State',
            key: 'state',
            render: (_: unknown, peer) =>
              peer.failing ? (
                <Tooltip title={peer.last_error ?? undefined}>
                  <span>
                    <StatusTag tone="error">{`${peer.failing} waiting to be retried`}</StatusTag>
                  </span>
                </Tooltip>
              ) : peer.pending ? (
                <StatusTag tone="info">{`${peer.pending} on the way`}</StatusTag>
              ) : (
                <StatusTag tone="success">In sync</StatusTag>
              ),
          },
        ]}
      />
      {state.data.conflicts.length > 0 && (
        <Table
          size="small"
          rowKey="id"
          pagination={{ pageSize: 5, hideOnSinglePage: true }}
          dataSource={state.data.conflicts}
          title={() => 'Concurrent changes settled here (the later version is kept everywhere)'}
          columns={[
            { title: 'When', dataIndex: 'at', render: (at: string) => formatDateTime(at) },
            {
              title: 'Entity',
              key: 'entity',
              render: (_: unknown, c) => `${FEDERATION_ENTITY_LABELS[c.entity_type]}: ${c.name}`,
            },
            { title: 'From', dataIndex: 'peer' },
            {
              title: 'Kept',
              dataIndex: 'kept',
              render: (kept: string) => (kept === 'remote' ? 'the peer’s version' : 'the version held here'),
            },
          ]}
        />
      )}
    </Space>
  );
}

/** Access Federation (`/admin/mission_control/access_federation`): who keeps users, groups, permissions and tokens alike. */
export function AccessFederationPage() {
  const federations = useFederations();
  const actions = useFederationActions();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const broadcast = (row: Federation) => {
    let adminCredentials = false;
    modal.confirm({
      title: `Broadcast from ${row.source.name}?`,
      width: 560,
      content: <BroadcastContent federation={row} onAdminCredentials={(on) => (adminCredentials = on)} />,
      okText: 'Broadcast',
      onOk: () =>
        runSafely(async () => {
          const answer = await actions.broadcast.mutateAsync({ source: row.source.id, adminCredentials });
          if (answer.failed.length)
            modal.error({
              title: FEDERATION_MESSAGES.broadcastPartlyFailed,
              content: answer.failed.map((f) => `${f.target}: ${f.error}`).join('\n'),
            });
          else notifySuccess(answer.message);
        }),
    });
  };
  return (
    <>
      <PageHeader
        title="Access Federation"
        description="Users, groups, permissions and tokens kept alike between deployments: every change travels to the other members within seconds, and a member that was down catches up."
        extra={
          <Space>
            <Button icon={<ApartmentOutlined />} onClick={() => navigate(`${FEDERATION}/star`)}>
              New Star
            </Button>
            <Button type="primary" icon={<DeploymentUnitOutlined />} onClick={() => navigate(`${FEDERATION}/mesh`)}>
              New Full Mesh
            </Button>
          </Space>
        }
      />
      <Card>
        <Table<Federation>
          rowKey={(row) => row.source.id}
          loading={federations.isPending}
          dataSource={federations.data ?? []}
          pagination={{ hideOnSinglePage: true, pageSize: 50 }}
          expandable={{ expandedRowRender: (row) => <MemberHealth federation={row} /> }}
          locale={{
            emptyText: (
              <ListEmpty query={federations} what="The federations">
                <Empty description="No federation yet. Register the deployments under Platform Deployments, then create a Full Mesh (every member sends to every other) or a Star (one source sends to its targets)." />
              </ListEmpty>
            ),
          }}
          columns={[
            {
              title: 'Source',
              key: 'source',
              render: (_: unknown, row) => (
                <Space direction="vertical" size={0}>
                  <Typography.Text strong>{row.source.name}</Typography.Text>
                  <Typography.Text type="secondary">{row.source.url}</Typography.Text>
                </Space>
              ),
            },
            {
              title: 'Target(s)',
              key: 'targets',
              render: (_: unknown, row) => row.targets.map((t) => <Tag key={t.id}>{t.name}</Tag>),
            },
            {
              title: 'Entity types synced',
              dataIndex: 'entity_types',
              render: (types: FederationEntityType[], row) => (
                <Space direction="vertical" size={2}>
                  <span>{types.map((t) => FEDERATION_ENTITY_LABELS[t]).join(', ')}</span>
                  {types.includes('PERMISSIONS') &&
                    (row.permissions_filter.include_patterns.length > 0 ||
                      row.permissions_filter.exclude_patterns.length > 0) && (
                      <Typography.Text type="secondary">
                        {[
                          row.permissions_filter.include_patterns.length
                            ? `include ${row.permissions_filter.include_patterns.join(', ')}`
                            : '',
                          row.permissions_filter.exclude_patterns.length
                            ? `exclude ${row.permissions_filter.exclude_patterns.join(', ')}`
                            : '',
                        ]
                          .filter(Boolean)
                          .join('; ')}
                      </Typography.Text>
                    )}
                </Space>
              ),
            },
            {
              title: 'Topology',
              dataIndex: 'topology',
              width: 120,
              render: (t: string) => (
                <Tag color={t === 'MESH' ? 'blue' : 'purple'}>{t === 'MESH' ? 'Full Mesh' : 'Star'}</Tag>
              ),
            },
            {
              title: 'Updated',
              dataIndex: 'updated',
              width: 120,
              render: (at: string) => <Tooltip title={formatDateTime(at)}>{formatRelative(at)}</Tooltip>,
            },
            {
              title: 'Actions',
              key: 'actions',
              width: 150,
              render: (_: unknown, row) => (
                <RowActions
                  what={`the federation of ${row.source.name}`}
                  onEdit={() =>
                    navigate(row.topology === 'MESH' ? `${FEDERATION}/mesh` : `${FEDERATION}/star/${row.source.id}`, {
                      state: { group: row.group_id },
                    })
                  }
                  remove={{
                    run: () => actions.remove.mutateAsync(row.source.id),
                    consequence:
                      row.topology === 'MESH'
                        ? 'Delete All: every member of this mesh stops sending its changes; what each holds stays.'
                        : 'The source stops sending to its targets; what each holds stays.',
                    deleted: FEDERATION_MESSAGES.deleted,
                  }}
                >
                  <Tooltip title="Broadcast (full re-sync)">
                    <Button
                      type="text"
                      icon={<SyncOutlined />}
                      aria-label={`Broadcast from ${row.source.name}`}
                      onClick={() => broadcast(row)}
                    />
                  </Tooltip>
                </RowActions>
              ),
            },
          ]}
        />
      </Card>
      <Card title="How conflicts are settled" style={{ marginTop: 20 }}>
        <Descriptions column={1} size="small">
          <Descriptions.Item label="Order">
            Each change carries a logical clock; every member keeps the version with the later clock, so all members end
            alike whatever order changes arrive in.
          </Descriptions.Item>
          <Descriptions.Item label="Reported">
            Two members changing the same entity before seeing each other’s change is a conflict: the member that
            notices lists it under its row above.
          </Descriptions.Item>
        </Descriptions>
      </Card>
    </>
  );
}
