import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Form, Input, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import type { SshKey, SshKeyBody } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { formatDate, formatDateTime, formatRelative } from '../../../components/time';
import { useMySshKeyActions, useMySshKeys } from '../api/ssh-keys';
import { ListEmpty } from '../../../components/list-empty';

import { REQUIRED } from '../../../lib/schema-rules';

/** The SSH keys the signed-in user signs in with over SSH (`jfrog-authenticate`). */
export function SshKeysCard() {
  const keys = useMySshKeys();
  const { remove } = useMySshKeyActions();
  const { modal } = App.useApp();
  const [adding, setAdding] = useState(false);
  return (
    <Card
      title="SSH Keys"
      style={{ marginTop: 20 }}
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          Add SSH Key
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        With a key here, <Typography.Text code>ssh -p &lt;port&gt; &lt;host&gt; jfrog-authenticate</Typography.Text>{' '}
        answers an access token of yours that works for an hour — what the JFrog CLI uses when set up with an SSH key.
      </Typography.Paragraph>
      <Table<SshKey>
        rowKey="id"
        size="middle"
        loading={keys.isPending}
        dataSource={keys.data ?? []}
        pagination={false}
        locale={{
          emptyText: (
            <ListEmpty query={keys} what="Your SSH keys">
              <Empty description="No SSH keys. Add the public key of each machine you sign in from (~/.ssh/id_ed25519.pub)." />
            </ListEmpty>
          ),
        }}
        columns={[
          {
            title: 'Title',
            dataIndex: 'title',
            width: 170,
            ellipsis: true,
            render: (t: string) => <Typography.Text strong>{t}</Typography.Text>,
          },
          {
            title: 'Fingerprint',
            dataIndex: 'fingerprint',
            render: (f: string, row) => (
              <Tooltip title={row.algorithm}>
                <Typography.Text code style={{ fontSize: 12 }}>
                  {f}
                </Typography.Text>
              </Tooltip>
            ),
          },
          {
            title: 'Added',
            dataIndex: 'created',
            width: 120,
            render: (at: string) => <Tooltip title={formatDateTime(at)}>{formatDate(at)}</Tooltip>,
          },
          {
            title: 'Last used',
            dataIndex: 'lastUsed',
            width: 130,
            render: (at: string | null) =>
              at ? formatRelative(at) : <Typography.Text type="secondary">Never</Typography.Text>,
          },
          {
            title: 'Actions',
            key: 'actions',
            width: 80,
            render: (_: unknown, row) => (
              <Tooltip title="Remove">
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`Remove ${row.title}`}
                  onClick={() =>
                    modal.confirm({
                      title: `Remove the key “${row.title}”?`,
                      content: 'The machine holding it can no longer sign in over SSH.',
                      okText: 'Remove',
                      okButtonProps: { danger: true },
                      onOk: () =>
                        runSafely(async () => {
                          await remove.mutateAsync(row.id);
                          notifySuccess(`The key “${row.title}” was removed`);
                        }),
                    })
                  }
                />
              </Tooltip>
            ),
          },
        ]}
      />
      {adding && <AddSshKeyModal onClose={() => setAdding(false)} />}
    </Card>
  );
}

function AddSshKeyModal({ onClose }: { onClose: () => void }) {
  const [form] = Form.useForm<SshKeyBody>();
  const { add } = useMySshKeyActions();
  return (
    <FormModal<SshKeyBody>
      open
      title="Add SSH Key"
      okText="Add"
      form={form}
      width={640}
      failureText="The key was not added"
      initialValues={{ title: '', publicKey: '' }}
      onClose={onClose}
      onSubmit={async (values) => {
        const added = await add.mutateAsync(values);
        notifySuccess(`The key “${added.title}” was added`);
      }}
    >
      <Form.Item
        label="Public key"
        name="publicKey"
        rules={[REQUIRED]}
        extra="The one line of your .pub file: ssh-ed25519, ssh-rsa (2048 bits or more) or ecdsa-sha2-…"
      >
        <Input.TextArea
          rows={4}
          spellCheck={false}
          style={{ fontFamily: 'monospace', fontSize: 12 }}
          autoFocus
          placeholder="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA… you@laptop"
          onChange={(e) => {
            // the key's comment is a good title
            const comment = e.target.value.trim().split(/\s+/)[2];
            if (comment && !form.getFieldValue('title')) form.setFieldValue('title', comment);
          }}
        />
      </Form.Item>
      <Form.Item label="Title" name="title" rules={[REQUIRED]}>
        <Input placeholder="Work laptop" maxLength={128} />
      </Form.Item>
    </FormModal>
  );
}
