import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Form, Input, Table, Tooltip, Typography, Upload } from 'antd';
import { useState } from 'react';
import { TRUSTED_KEY_MESSAGES, type TrustedKey, type TrustedKeyBody } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { StatusTag } from '../../../components/status-tag';
import { formatDate } from '../../../components/time';
import { useTrustedKeyActions, useTrustedKeys } from '../api/keys';
import { ListEmpty } from '../../../components/list-empty';
import { REQUIRED } from '../../../lib/schema-rules';

/** Public keys: OpenPGP keys of others, trusted to sign the files kept beside their detached signatures. */
export function PublicKeysTab() {
  const keys = useTrustedKeys();
  const { remove } = useTrustedKeyActions();
  const { modal } = App.useApp();
  const [adding, setAdding] = useState(false);
  return (
    <Card
      title="Trusted public keys"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          Add Public Key
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        A file deployed with its detached signature beside it (<Typography.Text code>tool.tar.gz.asc</Typography.Text>{' '}
        or <Typography.Text code>.sig</Typography.Text>) shows on its General tab whether one of these keys signed it.
      </Typography.Paragraph>
      <Table<TrustedKey>
        rowKey="kid"
        loading={keys.isPending}
        dataSource={keys.data ?? []}
        pagination={{ hideOnSinglePage: true, pageSize: 20 }}
        locale={{
          emptyText: (
            <ListEmpty query={keys} what="The trusted keys">
              <Empty description="No trusted keys yet. Add the public key of a vendor or a release team whose signatures you check." />
            </ListEmpty>
          ),
        }}
        columns={[
          {
            title: 'Alias',
            dataIndex: 'alias',
            width: 180,
            render: (a: string) => <Typography.Text strong>{a}</Typography.Text>,
          },
          {
            title: 'Key id',
            dataIndex: 'kid',
            width: 180,
            render: (kid: string, row) => (
              <Tooltip title={row.fingerprint}>
                <Typography.Text code copyable={{ text: row.fingerprint, tooltips: ['Copy fingerprint', 'Copied'] }}>
                  {kid.toUpperCase()}
                </Typography.Text>
              </Tooltip>
            ),
          },
          { title: 'User ids', dataIndex: 'userIds', render: (ids: string[]) => ids.join(', ') || '—' },
          { title: 'Algorithm', dataIndex: 'algorithm', width: 160 },
          { title: 'Created', dataIndex: 'issuedOn', width: 120, render: (at: string) => formatDate(at) },
          {
            title: 'Expires',
            dataIndex: 'validUntil',
            width: 140,
            render: (until: string | null) =>
              until === null ? (
                <Typography.Text type="secondary">Never</Typography.Text>
              ) : Date.parse(until) < Date.now() ? (
                <StatusTag tone="error">Expired {formatDate(until)}</StatusTag>
              ) : (
                formatDate(until)
              ),
          },
          {
            title: 'Actions',
            key: 'actions',
            width: 90,
            render: (_: unknown, row) => (
              <Tooltip title="Delete">
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`Delete ${row.alias}`}
                  onClick={() =>
                    modal.confirm({
                      title: `Stop trusting ${row.alias}?`,
                      content: 'Files it signed show as signed by a key that is not trusted.',
                      okText: 'Delete',
                      okButtonProps: { danger: true },
                      onOk: () =>
                        runSafely(async () => {
                          await remove.mutateAsync(row.kid);
                          notifySuccess(`Public key ${row.alias} was deleted`);
                        }),
                    })
                  }
                />
              </Tooltip>
            ),
          },
        ]}
      />
      {adding && <AddPublicKeyModal onClose={() => setAdding(false)} />}
    </Card>
  );
}

function AddPublicKeyModal({ onClose }: { onClose: () => void }) {
  const [form] = Form.useForm<TrustedKeyBody>();
  const { add } = useTrustedKeyActions();
  return (
    <FormModal<TrustedKeyBody>
      open
      title="Add Public Key"
      okText="Add"
      form={form}
      width={640}
      failureText="The key was not added"
      initialValues={{ alias: '', publicKey: '' }}
      onClose={onClose}
      onSubmit={async (values) => {
        const added = await add.mutateAsync(values);
        notifySuccess(`Public key ${added.alias} is trusted`);
      }}
    >
      <Form.Item
        label="Alias"
        name="alias"
        rules={[REQUIRED, { pattern: /^[A-Za-z][A-Za-z0-9._-]*$/, message: TRUSTED_KEY_MESSAGES.aliasInvalid }]}
      >
        <Input placeholder="vendor-release" autoFocus />
      </Form.Item>
      <Form.Item
        label="Public key"
        name="publicKey"
        rules={[REQUIRED]}
        extra="The armored OpenPGP public key, as gpg --armor --export prints it."
      >
        <Input.TextArea rows={8} spellCheck={false} style={{ fontFamily: 'monospace', fontSize: 12 }} />
      </Form.Item>
      <Upload
        accept=".asc,.gpg,.pub,.txt"
        showUploadList={false}
        beforeUpload={(file) => {
          void file.text().then((text) => form.setFieldValue('publicKey', text));
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>Read a key file</Button>
      </Upload>
    </FormModal>
  );
}
