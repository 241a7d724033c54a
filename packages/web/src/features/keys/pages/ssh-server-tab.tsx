import { CloudServerOutlined, DeleteOutlined, ImportOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Row,
  Skeleton,
  Switch,
  Table,
  Tooltip,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { SSH_DEFAULT_PORT, SSH_MESSAGES, type SshKey, type SshServer, type SshServerSettings } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { FormModal } from '../../../components/form-modal';
import { LoadError } from '../../../components/load-error';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatRelative } from '../../../components/time';
import { useServerErrors } from '../../../lib/server-errors';
import { useAllSshKeys, useSshServer, useSshServerActions } from '../api/keys';
import { ListEmpty } from '../../../components/list-empty';
import { REQUIRED } from '../../../lib/schema-rules';

/**
 * The SSH server: turned on and off with its port, its host key (shown as the line clients add
 * to known_hosts), and every user's registered SSH keys.
 */
export function SshServerTab() {
  const server = useSshServer();
  if (server.isError)
    return <LoadError what="The SSH server" error={server.error} onRetry={() => void server.refetch()} />;
  if (!server.data) return <Skeleton active />;
  return (
    <Row gutter={[20, 20]}>
      <Col xs={24} xl={10}>
        <SettingsCard server={server.data} />
      </Col>
      <Col xs={24} xl={14}>
        <HostKeyCard server={server.data} />
      </Col>
      <Col span={24}>
        <UserKeysCard />
      </Col>
    </Row>
  );
}

function SettingsCard({ server }: { server: SshServer }) {
  const [form] = Form.useForm<SshServerSettings>();
  const { save } = useSshServerActions();
  const { errors, capture, clear } = useServerErrors();
  const enabled = Form.useWatch('enabled', form) ?? server.enabled;
  useEffect(
    () => form.setFieldsValue({ enabled: server.enabled, port: server.port }),
    [form, server.enabled, server.port],
  );
  return (
    <Card title="SSH server" style={{ height: '100%' }}>
      <Typography.Paragraph type="secondary">
        Users who added an SSH key to their profile sign in over SSH; the command{' '}
        <Typography.Text code>jfrog-authenticate</Typography.Text> answers the REST API's address and an access token
        that works for an hour, as the JFrog CLI expects.
      </Typography.Paragraph>
      <Flex gap={8} align="center" style={{ marginBottom: 16 }}>
        <Typography.Text>This node:</Typography.Text>
        {server.listening ? (
          <StatusTag tone="success">Listening on port {server.port}</StatusTag>
        ) : server.enabled ? (
          <StatusTag tone="error">Not listening</StatusTag>
        ) : (
          <StatusTag tone="neutral">Off</StatusTag>
        )}
      </Flex>
      {server.problem && <Alert type="error" showIcon message={server.problem} style={{ marginBottom: 16 }} />}
      <ErrorList messages={errors} style={{ marginBottom: 12 }} />
      <Form<SshServerSettings>
        form={form}
        layout="vertical"
        initialValues={{ enabled: server.enabled, port: server.port }}
        onFinish={(values) => {
          clear();
          save.mutate(values, {
            onSuccess: (saved) =>
              notifySuccess(
                saved.enabled ? `The SSH server listens on port ${saved.port}` : 'The SSH server was turned off',
              ),
            onError: (error) => capture(error, form),
          });
        }}
      >
        <Form.Item label="Enable SSH authentication" name="enabled" valuePropName="checked" htmlFor="ssh-enabled">
          <Switch id="ssh-enabled" />
        </Form.Item>
        <Form.Item
          label="Port"
          name="port"
          htmlFor="ssh-port"
          rules={[{ required: true, type: 'integer', min: 1, max: 65535, message: SSH_MESSAGES.portInvalid }]}
          extra={`Every node listens on it. Artifactory's default is ${SSH_DEFAULT_PORT}.`}
        >
          <InputNumber id="ssh-port" disabled={!enabled} style={{ width: 160 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          Save
        </Button>
      </Form>
    </Card>
  );
}

function HostKeyCard({ server }: { server: SshServer }) {
  const { replaceHostKey } = useSshServerActions();
  const { modal } = App.useApp();
  const [importing, setImporting] = useState(false);
  const host = server.knownHostsLine
    ? server.knownHostsLine.split(' ')[0]!.replace(/^\[|\]:\d+$/g, '')
    : 'arca.example.com';
  return (
    <Card
      title="Host key"
      style={{ height: '100%' }}
      extra={
        <Flex gap={8}>
          <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
            Import
          </Button>
          <Button
            icon={<ReloadOutlined />}
            disabled={!server.hostKey}
            onClick={() =>
              modal.confirm({
                title: 'Generate a new host key?',
                content:
                  'Every client that knows the current key refuses to connect until its known_hosts line is replaced.',
                okText: 'Generate',
                okButtonProps: { danger: true },
                onOk: () =>
                  runSafely(async () => {
                    await replaceHostKey.mutateAsync(undefined);
                    notifySuccess('A new host key was generated');
                  }),
              })
            }
          >
            Generate New
          </Button>
        </Flex>
      }
    >
      {server.hostKey ? (
        <>
          <Descriptions
            column={1}
            size="small"
            items={[
              { key: 'algorithm', label: 'Algorithm', children: server.hostKey.algorithm },
              {
                key: 'fingerprint',
                label: 'Fingerprint',
                children: <Typography.Text code>{server.hostKey.fingerprint}</Typography.Text>,
              },
            ]}
          />
          <Typography.Paragraph style={{ marginTop: 16, marginBottom: 4 }}>
            Clients add this line to <Typography.Text code>~/.ssh/known_hosts</Typography.Text>:
          </Typography.Paragraph>
          <Typography.Paragraph code copyable style={{ wordBreak: 'break-all', fontSize: 12 }}>
            {server.knownHostsLine}
          </Typography.Paragraph>
          <Typography.Paragraph style={{ marginBottom: 4 }}>Then a client signs in with:</Typography.Paragraph>
          <Typography.Paragraph code copyable style={{ fontSize: 12 }}>
            {`ssh -p ${server.port} ${host} jfrog-authenticate`}
          </Typography.Paragraph>
        </>
      ) : (
        <Empty
          image={<CloudServerOutlined style={{ fontSize: 40, color: '#8c8c8c' }} />}
          description="An Ed25519 host key is made when the SSH server is first turned on; or import the one your clients know."
        />
      )}
      {importing && <ImportHostKeyModal onClose={() => setImporting(false)} />}
    </Card>
  );
}

function ImportHostKeyModal({ onClose }: { onClose: () => void }) {
  const [form] = Form.useForm<{ privateKey: string }>();
  const { replaceHostKey } = useSshServerActions();
  return (
    <FormModal<{ privateKey: string }>
      open
      title="Import Host Key"
      okText="Import"
      form={form}
      width={640}
      failureText="The host key was not imported"
      initialValues={{ privateKey: '' }}
      onClose={onClose}
      intro="Keep the host key of a server you move to Arca, so that its clients' known_hosts lines stay right."
      onSubmit={async ({ privateKey }) => {
        await replaceHostKey.mutateAsync(privateKey);
        notifySuccess('The host key was imported');
      }}
    >
      <Form.Item
        label="Private key"
        name="privateKey"
        rules={[REQUIRED]}
        extra="An unencrypted OpenSSH, RSA or ECDSA private key (for example /etc/ssh/ssh_host_ed25519_key)."
      >
        <Input.TextArea rows={8} spellCheck={false} style={{ fontFamily: 'monospace', fontSize: 12 }} autoFocus />
      </Form.Item>
    </FormModal>
  );
}

function UserKeysCard() {
  const keys = useAllSshKeys();
  const { removeKey } = useSshServerActions();
  const { modal } = App.useApp();
  return (
    <Card title="Users' SSH keys">
      <Table<SshKey>
        rowKey="id"
        loading={keys.isPending}
        dataSource={keys.data ?? []}
        pagination={{ hideOnSinglePage: true, pageSize: 20 }}
        locale={{
          emptyText: (
            <ListEmpty query={keys} what="The SSH keys">
              <Empty description="No user has added an SSH key yet. Users add theirs on their profile page." />
            </ListEmpty>
          ),
        }}
        columns={[
          {
            title: 'User',
            dataIndex: 'user',
            width: 140,
            render: (u: string) => <Typography.Text strong>{u}</Typography.Text>,
          },
          { title: 'Title', dataIndex: 'title' },
          { title: 'Type', dataIndex: 'algorithm', width: 170 },
          {
            title: 'Fingerprint',
            dataIndex: 'fingerprint',
            render: (f: string) => <Typography.Text code>{f}</Typography.Text>,
          },
          { title: 'Added', dataIndex: 'created', width: 170, render: (at: string) => formatDateTime(at) },
          {
            title: 'Last used',
            dataIndex: 'lastUsed',
            width: 140,
            render: (at: string | null) =>
              at ? (
                <Tooltip title={formatDateTime(at)}>{formatRelative(at)}</Tooltip>
              ) : (
                <Typography.Text type="secondary">Never</Typography.Text>
              ),
          },
          {
            title: 'Actions',
            key: 'actions',
            width: 90,
            render: (_: unknown, row) => (
              <Tooltip title="Remove">
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`Remove ${row.user}'s key ${row.title}`}
                  onClick={() =>
                    modal.confirm({
                      title: `Remove ${row.user}'s key “${row.title}”?`,
                      content: 'Clients holding it can no longer sign in over SSH.',
                      okText: 'Remove',
                      okButtonProps: { danger: true },
                      onOk: () =>
                        runSafely(async () => {
                          await removeKey.mutateAsync(row.id);
                          notifySuccess(`The key “${row.title}” of ${row.user} was removed`);
                        }),
                    })
                  }
                />
              </Tooltip>
            ),
          },
        ]}
      />
    </Card>
  );
}
