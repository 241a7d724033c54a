import { FolderOpenOutlined, ImportOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Flex, Form, Input, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CERTIFICATE_MESSAGES, type KeyStoreEntry } from '@arca/contracts';
import { ErrorList } from '../../../components/error-list';
import { formatDate } from '../../../components/time';
import { notifySuccess } from '../../../api/notifications';
import { useServerErrors } from '../../../lib/server-errors';
import { useKeyStoreActions } from '../api/keys';

const ALIAS = /^[A-Za-z][A-Za-z0-9._-]*$/;
/** An alias made from a key store entry's name: what the certificates take unless changed. */
const aliasOf = (entry: string) => {
  const cleaned = entry.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z]+/, '');
  return (cleaned || `entry-${entry}`).slice(0, 64);
};

async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Java key stores: a JKS or PKCS#12 file is read with its password, and the entries chosen are
 * imported as certificates (a key entry as a client certificate, a trusted one as an authority).
 */
export function KeyStoreTab() {
  const actions = useKeyStoreActions();
  const navigate = useNavigate();
  const { errors, capture, clear } = useServerErrors();
  const [file, setFile] = useState<{ name: string; data: string }>();
  const [password, setPassword] = useState('');
  const [entries, setEntries] = useState<KeyStoreEntry[]>();
  const [chosen, setChosen] = useState<string[]>([]);
  const [aliases, setAliases] = useState<Record<string, string>>({});

  const read = () => {
    if (!file) return;
    clear();
    actions.read.mutate(
      { file: file.data, password },
      {
        onSuccess: (read) => {
          setEntries(read);
          setChosen(read.filter((e) => !e.keptAs).map((e) => e.entry));
          setAliases(Object.fromEntries(read.map((e) => [e.entry, aliasOf(e.entry)])));
        },
        onError: (error) => {
          setEntries(undefined);
          capture(error);
        },
      },
    );
  };
  const badAlias = chosen.find((entry) => !ALIAS.test(aliases[entry] ?? ''));
  const importChosen = () => {
    if (!file) return;
    clear();
    actions.import.mutate(
      { file: file.data, password, entries: chosen.map((entry) => ({ entry, alias: aliases[entry]! })) },
      {
        onSuccess: (imported) => {
          notifySuccess(
            `${imported.length} ${imported.length === 1 ? 'certificate was' : 'certificates were'} imported from ${file.name}`,
          );
          setEntries(undefined);
          setFile(undefined);
          setPassword('');
          navigate('/admin/artifactory/security/keys_management/certificates');
        },
        onError: (error) => capture(error),
      },
    );
  };

  return (
    <Card title="Import from a Java key store">
      <Typography.Paragraph type="secondary">
        Read a key store made by <Typography.Text code>keytool</Typography.Text> (JKS or PKCS#12) and import the entries
        you choose as certificates: a private key entry becomes a client certificate remote repositories can present, a
        trusted certificate entry an authority outbound requests trust. The key store itself is not kept.
      </Typography.Paragraph>
      <Form layout="vertical" style={{ maxWidth: 560 }} onFinish={read}>
        <Form.Item label="Key store file" required>
          <Flex gap={8} align="center">
            <Upload
              accept=".jks,.p12,.pfx,.keystore,.ks"
              showUploadList={false}
              beforeUpload={(picked) => {
                void base64Of(picked).then((data) => {
                  setFile({ name: picked.name, data });
                  setEntries(undefined);
                  clear();
                });
                return false;
              }}
            >
              <Button icon={<FolderOpenOutlined />}>Choose File</Button>
            </Upload>
            <Typography.Text type={file ? undefined : 'secondary'} data-testid="key-store-file">
              {file?.name ?? 'No file chosen'}
            </Typography.Text>
          </Flex>
        </Form.Item>
        <Form.Item label="Key store password" htmlFor="key-store-password">
          <Input.Password
            id="key-store-password"
            value={password}
            autoComplete="off"
            onChange={(e) => setPassword(e.target.value)}
          />
        </Form.Item>
        <Button htmlType="submit" disabled={!file} loading={actions.read.isPending}>
          Read Key Store
        </Button>
      </Form>
      <ErrorList messages={errors} style={{ marginTop: 16 }} />
      {entries && (
        <div style={{ marginTop: 24 }}>
          <Table<KeyStoreEntry>
            rowKey="entry"
            size="middle"
            dataSource={entries}
            pagination={false}
            rowSelection={{
              selectedRowKeys: chosen,
              onChange: (keys) => setChosen(keys as string[]),
              getCheckboxProps: (row) => ({ 'aria-label': `Import ${row.entry}` }),
            }}
            locale={{ emptyText: <Empty description="The key store holds no entries." /> }}
            columns={[
              {
                title: 'Entry',
                dataIndex: 'entry',
                render: (e: string) => <Typography.Text strong>{e}</Typography.Text>,
              },
              {
                title: 'Kind',
                dataIndex: 'kind',
                width: 170,
                render: (k: string) => <Tag>{k === 'client' ? 'Key → client certificate' : 'Trusted authority'}</Tag>,
              },
              { title: 'Issued to', dataIndex: 'subject' },
              { title: 'Valid until', dataIndex: 'validUntil', width: 120, render: (at: string) => formatDate(at) },
              {
                title: 'Import as',
                key: 'alias',
                width: 240,
                render: (_: unknown, row) =>
                  row.keptAs && !chosen.includes(row.entry) ? (
                    <Typography.Text type="secondary">Kept already as {row.keptAs}</Typography.Text>
                  ) : (
                    <Input
                      size="small"
                      aria-label={`Alias of ${row.entry}`}
                      value={aliases[row.entry] ?? ''}
                      status={chosen.includes(row.entry) && !ALIAS.test(aliases[row.entry] ?? '') ? 'error' : undefined}
                      onChange={(e) => setAliases({ ...aliases, [row.entry]: e.target.value })}
                    />
                  ),
              },
            ]}
          />
          {badAlias && (
            <Alert
              type="error"
              showIcon
              style={{ marginTop: 12 }}
              message={`${badAlias}: ${CERTIFICATE_MESSAGES.aliasInvalid}`}
            />
          )}
          <Button
            type="primary"
            icon={<ImportOutlined />}
            style={{ marginTop: 16 }}
            disabled={chosen.length === 0 || badAlias !== undefined}
            loading={actions.import.isPending}
            onClick={importChosen}
          >
            Import {chosen.length} {chosen.length === 1 ? 'Entry' : 'Entries'}
          </Button>
        </div>
      )}
    </Card>
  );
}
