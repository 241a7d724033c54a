import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Form, Input, Radio, Table, Tag, Tooltip, Typography, Upload } from 'antd';
import { useState } from 'react';
import { type Certificate, CERTIFICATE_MESSAGES, type CertificateBody } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { StatusTag } from '../../../components/status-tag';
import { formatDate } from '../../../components/time';
import { useCertificateActions, useCertificates } from '../api/keys';
import { ListEmpty } from '../../../components/list-empty';
import { REQUIRED } from '../../../lib/schema-rules';

const DAY_MS = 86_400_000;

/** TLS certificates: client certificates remote repositories present, authorities trusted for outbound requests. */
export function CertificatesTab() {
  const certificates = useCertificates();
  const { remove } = useCertificateActions();
  const { modal } = App.useApp();
  const [adding, setAdding] = useState(false);
  return (
    <Card
      title="Certificates"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          Add Certificate
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        A client certificate is presented by the remote repositories that name it to upstreams asking for one; a trusted
        authority lets remote repositories and webhooks reach servers whose certificates it signed.
      </Typography.Paragraph>
      <Table<Certificate>
        rowKey="alias"
        loading={certificates.isPending}
        dataSource={certificates.data ?? []}
        pagination={{ hideOnSinglePage: true, pageSize: 20 }}
        locale={{
          emptyText: (
            <ListEmpty query={certificates} what="The certificates">
              <Empty description="No certificates yet. Add your upstream's client certificate or your company's authority." />
            </ListEmpty>
          ),
        }}
        columns={[
          { title: 'Alias', dataIndex: 'alias', render: (a: string) => <Typography.Text strong>{a}</Typography.Text> },
          {
            title: 'Kind',
            dataIndex: 'kind',
            width: 140,
            render: (k: string) => <Tag>{k === 'client' ? 'Client' : 'Trusted authority'}</Tag>,
          },
          { title: 'Issued to', dataIndex: 'subject' },
          { title: 'Issued by', dataIndex: 'issuer' },
          {
            title: 'Valid until',
            dataIndex: 'validUntil',
            render: (until: string) => {
              const left = Date.parse(until) - Date.now();
              return left < 0 ? (
                <StatusTag tone="error">Expired {formatDate(until)}</StatusTag>
              ) : left < 30 * DAY_MS ? (
                <StatusTag tone="warning">{formatDate(until)}</StatusTag>
              ) : (
                formatDate(until)
              );
            },
          },
          {
            title: 'Used by',
            dataIndex: 'usedBy',
            render: (users: string[]) =>
              users.length ? users.join(', ') : <Typography.Text type="secondary">Nothing</Typography.Text>,
          },
          {
            title: 'Actions',
            key: 'actions',
            width: 90,
            render: (_: unknown, row) => (
              <Tooltip title={row.usedBy.length ? `Presented by ${row.usedBy.join(', ')}` : 'Delete'}>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`Delete ${row.alias}`}
                  disabled={row.usedBy.length > 0}
                  onClick={() =>
                    modal.confirm({
                      title: `Delete certificate ${row.alias}?`,
                      content:
                        row.kind === 'trusted'
                          ? 'Servers whose certificates only this authority signed are no longer reached.'
                          : 'Its private key is gone for good.',
                      okText: 'Delete',
                      okButtonProps: { danger: true },
                      onOk: () =>
                        runSafely(async () => {
                          await remove.mutateAsync(row.alias);
                          notifySuccess(`Certificate ${row.alias} was deleted`);
                        }),
                    })
                  }
                />
              </Tooltip>
            ),
          },
        ]}
      />
      {adding && <AddCertificateModal onClose={() => setAdding(false)} />}
    </Card>
  );
}

function AddCertificateModal({ onClose }: { onClose: () => void }) {
  const [form] = Form.useForm<CertificateBody>();
  const { add } = useCertificateActions();
  const kind = Form.useWatch('kind', form) ?? 'client';
  return (
    <FormModal<CertificateBody>
      open
      title="Add Certificate"
      okText="Add"
      form={form}
      width={640}
      failureText="The certificate was not added"
      initialValues={{ alias: '', kind: 'client', pem: '' }}
      onClose={onClose}
      onSubmit={async (values) => {
        const added = await add.mutateAsync(values);
        notifySuccess(`Certificate ${added.alias} was added`);
      }}
    >
      <Form.Item
        label="Alias"
        name="alias"
        rules={[REQUIRED, { pattern: /^[A-Za-z][A-Za-z0-9._-]*$/, message: CERTIFICATE_MESSAGES.aliasInvalid }]}
      >
        <Input placeholder="upstream-client" autoFocus />
      </Form.Item>
      <Form.Item label="Kind" name="kind">
        <Radio.Group
          options={[
            { value: 'client', label: 'Client certificate (presented to upstreams)' },
            { value: 'trusted', label: 'Trusted authority' },
          ]}
        />
      </Form.Item>
      <Form.Item
        label="PEM"
        name="pem"
        rules={[REQUIRED]}
        extra={
          kind === 'client'
            ? 'The certificate (its chain may follow) and its unencrypted private key.'
            : 'The authority’s certificate, without a key.'
        }
      >
        <Input.TextArea rows={8} spellCheck={false} style={{ fontFamily: 'monospace', fontSize: 12 }} />
      </Form.Item>
      <Upload
        accept=".pem,.crt,.cer,.key"
        showUploadList={false}
        beforeUpload={(file) => {
          void file.text().then((text) => {
            const current = (form.getFieldValue('pem') as string | undefined) ?? '';
            form.setFieldValue('pem', current ? `${current.trimEnd()}\n${text}` : text);
          });
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>Read a PEM file</Button>
      </Upload>
    </FormModal>
  );
}
