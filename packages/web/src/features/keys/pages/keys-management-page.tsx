import { CheckCircleOutlined, DeleteOutlined, DownloadOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Radio,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { KEY_MESSAGES, type KeyPair, type KeyPairBody, KEYS_LABELS } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../components/time';
import { useRepositories } from '../../../lib/queries/repositories';
import { useKeyPairActions, useKeyPairs, useSigningKeys } from '../api/keys';
import { CertificatesTab } from './certificates-tab';
import { KeyStoreTab } from './key-store-tab';
import { PublicKeysTab } from './public-keys-tab';
import { SshServerTab } from './ssh-server-tab';
import { ListEmpty } from '../../../components/list-empty';
import { REQUIRED } from '../../../lib/schema-rules';

const BASE = '/admin/artifactory/security/keys_management';
const shortFingerprint = (f: string) => `${f.slice(0, 8)}…${f.slice(-8)}`;

/** Keys Management (`/admin/artifactory/security/keys_management/:label?`): one tab per label of the spec, and certificates. */
export function KeysManagementPage() {
  const { label } = useParams();
  const navigate = useNavigate();
  const active = (KEYS_LABELS as readonly string[]).includes(label ?? '') ? label! : KEYS_LABELS[0];
  return (
    <>
      <PageHeader
        title="Keys Management"
        description="GPG and RSA key pairs kept by Arca, the keys that sign repository metadata for apt, dnf and helm, the public keys trusted to sign artifacts, TLS certificates of outbound requests and the SSH server."
      />
      <Tabs
        activeKey={active}
        onChange={(key) => navigate(`${BASE}/${key}`)}
        items={[
          { key: 'gpg-rsa-keys', label: 'GPG & RSA Keys', children: <KeyPairsTab /> },
          { key: 'signing-keys', label: 'Signing Keys', children: <SigningKeysTab /> },
          { key: 'public-keys', label: 'Public Keys', children: <PublicKeysTab /> },
          { key: 'java-key-store', label: 'Java Key Store', children: <KeyStoreTab /> },
          { key: 'certificates', label: 'Certificates', children: <CertificatesTab /> },
          { key: 'ssh-server', label: 'SSH Server', children: <SshServerTab /> },
        ]}
      />
    </>
  );
}

function KeyPairsTab() {
  const pairs = useKeyPairs();
  const actions = useKeyPairActions();
  const { modal } = App.useApp();
  const [adding, setAdding] = useState(false);
  const [using, setUsing] = useState<KeyPair>();
  return (
    <Card
      title="Key pairs"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          Add Key Pair
        </Button>
      }
    >
      <Table<KeyPair>
        rowKey="pairName"
        loading={pairs.isPending}
        dataSource={pairs.data ?? []}
        pagination={{ hideOnSinglePage: true, pageSize: 20 }}
        locale={{
          emptyText: (
            <ListEmpty query={pairs} what="The key pairs">
              <Empty description="No key pairs yet. Generate one, or import the keys your team already signs with." />
            </ListEmpty>
          ),
        }}
        columns={[
          {
            title: 'Name',
            dataIndex: 'pairName',
            render: (name: string, row) => (
              <Space direction="vertical" size={0}>
                <Typography.Text strong>{name}</Typography.Text>
                {row.alias && <Typography.Text type="secondary">{row.alias}</Typography.Text>}
              </Space>
            ),
          },
          { title: 'Type', dataIndex: 'pairType', width: 90, render: (t: string) => <Tag>{t}</Tag> },
          { title: 'Algorithm', dataIndex: 'algorithm' },
          {
            title: 'Fingerprint',
            dataIndex: 'fingerprint',
            render: (f: string) => (
              <Tooltip title={f}>
                <Typography.Text code>{shortFingerprint(f)}</Typography.Text>
              </Tooltip>
            ),
          },
          {
            title: 'Created',
            dataIndex: 'created',
            render: (c: string, row) => `${formatDateTime(c)} by ${row.createdBy} (${row.source})`,
          },
          {
            title: 'Actions',
            key: 'actions',
            width: 200,
            render: (_: unknown, row) => (
              <Space size={0}>
                <Tooltip title="Verify: sign with the private key, check with the public one">
                  <Button
                    type="text"
                    icon={<CheckCircleOutlined />}
                    aria-label={`Verify ${row.pairName}`}
                    onClick={() =>
                      void runSafely(async () => {
                        const result = await actions.verify.mutateAsync(row.pairName);
                        notifySuccess(result.message);
                      })
                    }
                  />
                </Tooltip>
                <Tooltip title="Download the public key">
                  <Button
                    type="text"
                    icon={<DownloadOutlined />}
                    aria-label={`Download the public key of ${row.pairName}`}
                    href={`/ui/api/v1/ui/security/keyPairs/${encodeURIComponent(row.pairName)}/public`}
                  />
                </Tooltip>
                {row.pairType === 'GPG' && (
                  <Tooltip title="Sign repository metadata with it">
                    <Button
                      type="text"
                      icon={<KeyOutlined />}
                      aria-label={`Sign with ${row.pairName}`}
                      onClick={() => setUsing(row)}
                    />
                  </Tooltip>
                )}
                <Tooltip title="Delete">
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`Delete ${row.pairName}`}
                    onClick={() =>
                      modal.confirm({
                        title: `Delete key pair ${row.pairName}?`,
                        content:
                          'Its private key is gone for good. Keys already put to sign repositories keep signing.',
                        okText: 'Delete',
                        okButtonProps: { danger: true },
                        onOk: () =>
                          runSafely(async () => {
                            await actions.remove.mutateAsync(row.pairName);
                            notifySuccess(`Key pair ${row.pairName} was deleted`);
                          }),
                      })
                    }
                  />
                </Tooltip>
              </Space>
            ),
          },
        ]}
      />
      {adding && <AddKeyPairModal onClose={() => setAdding(false)} />}
      {using && <UseKeyPairModal pair={using} onClose={() => setUsing(undefined)} />}
    </Card>
  );
}

function AddKeyPairModal({ onClose }: { onClose: () => void }) {
  const [form] = Form.useForm<KeyPairBody & { mode: 'generate' | 'import' }>();
  const { create } = useKeyPairActions();
  const mode = Form.useWatch('mode', form) ?? 'generate';
  const type = Form.useWatch('pairType', form) ?? 'GPG';
  return (
    <FormModal<KeyPairBody & { mode: 'generate' | 'import' }>
      open
      title="Add Key Pair"
      okText={mode === 'generate' ? 'Generate' : 'Import'}
      form={form}
      failureText="The key pair was not added"
      width={640}
      initialValues={{ mode: 'generate', pairType: 'GPG', pairName: '', alias: '' }}
      onClose={onClose}
      onSubmit={async ({ mode: chosen, ...values }) => {
        const body: KeyPairBody =
          chosen === 'generate'
            ? { pairName: values.pairName, pairType: values.pairType, alias: values.alias }
            : values;
        const made = await create.mutateAsync(body);
        notifySuccess(`Key pair ${made.pairName} was ${chosen === 'generate' ? 'generated' : 'imported'}`);
      }}
    >
      <Form.Item name="mode">
        <Radio.Group
          optionType="button"
          options={[
            { value: 'generate', label: 'Generate' },
            { value: 'import', label: 'Import' },
          ]}
        />
      </Form.Item>
      <Form.Item
        label="Name"
        name="pairName"
        rules={[REQUIRED, { pattern: /^[A-Za-z][A-Za-z0-9._-]*$/, message: KEY_MESSAGES.nameInvalid }]}
      >
        <Input placeholder="release-signing" autoFocus />
      </Form.Item>
      <Form.Item label="Type" name="pairType">
        <Radio.Group
          options={[
            { value: 'GPG', label: 'GPG (signs Debian, RPM and Helm metadata)' },
            { value: 'RSA', label: 'RSA' },
          ]}
        />
      </Form.Item>
      <Form.Item
        label="Alias"
        name="alias"
        extra={type === 'GPG' && mode === 'generate' ? 'The user id of the new key.' : undefined}
      >
        <Input placeholder="Acme Release <release@acme.example>" />
      </Form.Item>
      {mode === 'import' && (
        <>
          <Form.Item
            label="Private key"
            name="privateKey"
            rules={[REQUIRED]}
            extra={type === 'GPG' ? 'ASCII-armored OpenPGP private key.' : 'PEM (PKCS#8 or PKCS#1), encrypted or not.'}
          >
            <Input.TextArea rows={5} spellCheck={false} style={{ fontFamily: 'monospace', fontSize: 12 }} />
          </Form.Item>
          <Form.Item label="Public key" name="publicKey" extra="Optional: checked against the private key.">
            <Input.TextArea rows={3} spellCheck={false} style={{ fontFamily: 'monospace', fontSize: 12 }} />
          </Form.Item>
          <Form.Item label="Passphrase" name="passphrase">
            <Input.Password autoComplete="off" />
          </Form.Item>
        </>
      )}
    </FormModal>
  );
}

function UseKeyPairModal({ pair, onClose }: { pair: KeyPair; onClose: () => void }) {
  const [form] = Form.useForm<{ repoKey: string }>();
  const { use } = useKeyPairActions();
  const repositories = useRepositories();
  const signable = (repositories.data ?? []).filter(
    (r) => r.rclass !== 'remote' && ['debian', 'rpm', 'helm'].includes(r.packageType),
  );
  return (
    <FormModal<{ repoKey: string }>
      open
      title={`Sign with ${pair.pairName}`}
      okText="Use this key"
      form={form}
      failureText="The key was not put to sign"
      initialValues={{ repoKey: '' }}
      onClose={onClose}
      onSubmit={async ({ repoKey }) => {
        await use.mutateAsync({ name: pair.pairName, repoKey });
        notifySuccess(`${repoKey ? repoKey : 'The deployment'} now signs with ${pair.pairName}`);
      }}
      intro={
        <Typography.Paragraph type="secondary">
          Metadata signed from now on (Release files, repomd.xml, index.yaml) carries this key's signature; clients need
          its public key.
        </Typography.Paragraph>
      }
    >
      <Form.Item label="Signs" name="repoKey">
        <Select
          aria-label="Signs"
          options={[
            { value: '', label: 'Every repository without a key of its own (the deployment key)' },
            ...signable.map((r) => ({ value: r.key, label: `${r.key} (${r.packageType})` })),
          ]}
        />
      </Form.Item>
    </FormModal>
  );
}

function SigningKeysTab() {
  const keys = useSigningKeys();
  const { removeSigning } = useKeyPairActions();
  const { modal } = App.useApp();
  if (keys.isError) return <LoadError what="The signing keys" error={keys.error} onRetry={() => void keys.refetch()} />;
  const deployment = keys.data?.deployment;
  return (
    <Space direction="vertical" size={20} style={{ width: '100%' }}>
      <Card title="Deployment signing key" loading={keys.isPending}>
        {deployment && (
          <Descriptions
            column={{ xs: 1, lg: 2 }}
            items={[
              { key: 'user', label: 'User id', children: deployment.userId },
              { key: 'algorithm', label: 'Algorithm', children: deployment.algorithm },
              {
                key: 'fingerprint',
                label: 'Fingerprint',
                children: <Typography.Text code>{deployment.fingerprint}</Typography.Text>,
              },
              {
                key: 'created',
                label: 'Created',
                children: `${formatDateTime(deployment.created)} (${deployment.source})`,
              },
              {
                key: 'public',
                label: 'Public key',
                children: (
                  <Typography.Link href="/artifactory/api/gpg/key/public" target="_blank">
                    /artifactory/api/gpg/key/public
                  </Typography.Link>
                ),
              },
            ]}
          />
        )}
      </Card>
      <Card title="Repositories with their own key">
        <Table
          rowKey="scope"
          loading={keys.isPending}
          dataSource={keys.data?.repositories ?? []}
          pagination={false}
          locale={{
            emptyText: (
              <Empty description="Every repository signs with the deployment key. Put a GPG key pair to sign one from the GPG & RSA Keys tab." />
            ),
          }}
          columns={[
            { title: 'Repository', dataIndex: 'scope' },
            { title: 'User id', dataIndex: 'userId' },
            {
              title: 'Fingerprint',
              dataIndex: 'fingerprint',
              render: (f: string) => <Typography.Text code>{shortFingerprint(f)}</Typography.Text>,
            },
            {
              title: 'Actions',
              key: 'actions',
              width: 90,
              render: (_: unknown, row: { scope: string }) => (
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`Remove the key of ${row.scope}`}
                  onClick={() =>
                    modal.confirm({
                      title: `Remove the signing key of ${row.scope}?`,
                      content: 'The repository signs with the deployment key from then on.',
                      okText: 'Remove',
                      okButtonProps: { danger: true },
                      onOk: () =>
                        runSafely(async () => {
                          await removeSigning.mutateAsync(row.scope);
                          notifySuccess(`${row.scope} signs with the deployment key`);
                        }),
                    })
                  }
                />
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
