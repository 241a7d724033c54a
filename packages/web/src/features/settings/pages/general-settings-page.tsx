import { CopyOutlined, DeleteOutlined, DownloadOutlined, FileTextOutlined, UploadOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Flex,
  Form,
  Image,
  Input,
  InputNumber,
  Modal,
  Radio,
  Row,
  Select,
  Skeleton,
  Space,
  Switch,
  Table,
  Typography,
  Upload,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import {
  DATE_FORMATS,
  DOCKER_REVERSE_PROXY_LABELS,
  DOCKER_REVERSE_PROXY_METHODS,
  type GeneralConfigAnswer,
  type GeneralSettings,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  SETTINGS_MESSAGES,
} from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifyError, notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { FormActions } from '../../../components/form-actions';
import { PageHeader } from '../../../components/page-header';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { useServerErrors } from '../../../lib/server-errors';
import { useRepositories } from '../../../lib/queries/repositories';
import { useGeneralConfig, useLogo, useNginxConfig, useSaveGeneralConfig } from '../api/general-config';
import { REQUIRED } from '../../../lib/schema-rules';

type FormValues = GeneralSettings;

const urlRule = { type: 'url' as const, message: SETTINGS_MESSAGES.urlInvalid };

/** General settings (`/admin/configuration/general`): the server's name and address, uploads, dates, the logo, the reverse proxy. */
export function GeneralSettingsPage() {
  const config = useGeneralConfig();
  if (config.isPending) return <Skeleton active />;
  if (config.isError) return <Alert type="error" showIcon title={config.error.message} />;
  return <GeneralSettingsForm initial={config.data} />;
}

function settingsOf(answer: GeneralConfigAnswer): GeneralSettings {
  const { logoUploaded: _l, effectiveServerName: _n, effectiveUrlBase: _u, ...settings } = answer;
  return settings;
}

function GeneralSettingsForm({ initial: answer }: { initial: GeneralConfigAnswer }) {
  const initial = settingsOf(answer);
  const [form] = Form.useForm<FormValues>();
  const save = useSaveGeneralConfig();
  const { errors, clear, capture } = useServerErrors();
  const [showNginx, setShowNginx] = useState(false);
  const values = Form.useWatch([], form) as Partial<FormValues> | undefined;
  const current = { ...initial, ...values, reverseProxy: { ...initial.reverseProxy, ...values?.reverseProxy } };
  const unsaved = useUnsavedChanges({ initial, current, onReset: () => form.resetFields() });
  const submit = (v: FormValues) => {
    clear();
    save.mutate(
      { ...initial, ...v, reverseProxy: { ...initial.reverseProxy, ...v.reverseProxy } },
      {
        onSuccess: () => notifySuccess('General settings were saved'),
        onError: (error) => capture(error),
      },
    );
  };
  const method = current.reverseProxy.dockerReverseProxyMethod;
  return (
    <>
      <PageHeader
        title="General Settings"
        description="How this deployment names itself, where clients reach it, what the console accepts and shows, and the reverse proxy in front of it."
      />
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={submit}>
        <Row gutter={20}>
          <Col xs={24} xl={14}>
            <Card title="General" style={{ marginBottom: 20 }}>
              <Row gutter={16}>
                <Col xs={24} md={12}>
                  <Form.Item
                    label="Server name"
                    name="serverName"
                    extra={`Shown in the header, page titles and the login page. Now: “${answer.effectiveServerName}”.`}
                    rules={[{ pattern: /^[\p{L}\p{N} ._-]*$/u, message: SETTINGS_MESSAGES.serverNameInvalid }]}
                  >
                    <Input placeholder={answer.effectiveServerName} maxLength={64} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item
                    label="Custom URL base"
                    name="customUrlBase"
                    extra="The address clients reach Arca at, used in links, download URIs and Set Me Up. Empty: the address of each request."
                    rules={[urlRule]}
                  >
                    <Input placeholder="https://artifacts.example.com" />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item
                    label="File upload limit (MB)"
                    name="fileUploadMaxSizeMb"
                    extra="Largest file deployed from the console; 0 for no limit. Clients such as npm or Maven are not limited by it."
                    rules={[REQUIRED]}
                  >
                    <InputNumber min={0} precision={0} style={{ width: '100%' }} aria-label="File upload limit (MB)" />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item
                    label="Global offline mode"
                    name="globalOfflineMode"
                    valuePropName="checked"
                    extra="Remote repositories serve only what they have cached, and release bundles are not distributed."
                  >
                    <Switch aria-label="Global offline mode" />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item label="Date format" name="dateFormat">
                    <Select
                      aria-label="Date format"
                      options={[
                        { value: '', label: 'The browser’s own format' },
                        ...DATE_FORMATS.map((f) => ({ value: f, label: `${dayjs().format(f)}   (${f})` })),
                      ]}
                    />
                  </Form.Item>
                </Col>
              </Row>
            </Card>
            <ReverseProxyCard
              method={method}
              useHttps={current.reverseProxy.useHttps}
              onShowNginx={() => setShowNginx(true)}
            />
          </Col>
          <Col xs={24} xl={10}>
            <LogoCard uploaded={answer.logoUploaded} />
          </Col>
        </Row>
        <FormActions
          primary="Save"
          busy={save.isPending}
          onReset={unsaved.requestReset}
          resetDisabled={!unsaved.dirty}
        />
      </Form>
      {showNginx && <NginxModal dirty={unsaved.dirty} onClose={() => setShowNginx(false)} />}
      {unsaved.dialog}
    </>
  );
}

function ReverseProxyCard({
  method,
  useHttps,
  onShowNginx,
}: {
  method: GeneralSettings['reverseProxy']['dockerReverseProxyMethod'];
  useHttps: boolean;
  onShowNginx: () => void;
}) {
  const repositories = useRepositories();
  const dockerRepos = (repositories.data ?? []).filter((r) => r.packageType === 'docker');
  return (
    <Card
      title="Reverse proxy"
      style={{ marginBottom: 20 }}
      extra={
        <Button icon={<FileTextOutlined />} onClick={onShowNginx}>
          View nginx configuration
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        Describe the reverse proxy in front of Arca: Arca writes its nginx configuration, and Docker clients reach each
        registry the way chosen here.
      </Typography.Paragraph>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            label="Public server name"
            name={['reverseProxy', 'serverName']}
            rules={[
              { pattern: /^$|^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/, message: SETTINGS_MESSAGES.hostInvalid },
            ]}
          >
            <Input placeholder="artifacts.example.com" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label="Arca's address, as the proxy reaches it"
            name={['reverseProxy', 'upstream']}
            rules={[urlRule]}
          >
            <Input placeholder="http://127.0.0.1:8082" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label="Docker access method" name={['reverseProxy', 'dockerReverseProxyMethod']}>
        <Radio.Group
          optionType="button"
          options={DOCKER_REVERSE_PROXY_METHODS.map((m) => ({ value: m, label: DOCKER_REVERSE_PROXY_LABELS[m] }))}
        />
      </Form.Item>
      <Typography.Paragraph type="secondary" style={{ marginTop: -12 }}>
        {method === 'REPOPATHPREFIX' && 'docker pull <server>/<repository>/<image>: no rewriting needed.'}
        {method === 'SUBDOMAIN' &&
          'docker pull <repository>.<server>/<image>: needs a wildcard DNS entry and certificate.'}
        {method === 'PORTPERREPO' && 'docker pull <server>:<port>/<image>: one port per repository, listed below.'}
      </Typography.Paragraph>
      <Row gutter={16} align="bottom">
        <Col xs={12} md={6}>
          <Form.Item name={['reverseProxy', 'useHttp']} valuePropName="checked">
            <Checkbox>HTTP</Checkbox>
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item label="HTTP port" name={['reverseProxy', 'httpPort']}>
            <InputNumber min={1} max={65535} precision={0} style={{ width: '100%' }} aria-label="HTTP port" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={['reverseProxy', 'useHttps']} valuePropName="checked">
            <Checkbox>HTTPS</Checkbox>
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item label="HTTPS port" name={['reverseProxy', 'httpsPort']}>
            <InputNumber min={1} max={65535} precision={0} style={{ width: '100%' }} aria-label="HTTPS port" />
          </Form.Item>
        </Col>
      </Row>
      {useHttps && (
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item label="Certificate file on the proxy" name={['reverseProxy', 'sslCertificate']}>
              <Input placeholder="/etc/ssl/certs/arca.crt" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Key file on the proxy" name={['reverseProxy', 'sslKey']}>
              <Input placeholder="/etc/ssl/private/arca.key" />
            </Form.Item>
          </Col>
        </Row>
      )}
      {method === 'PORTPERREPO' && (
        <Form.List name={['reverseProxy', 'reverseProxyRepositories']}>
          {(fields, { add, remove }) => (
            <>
              <Table
                size="small"
                pagination={false}
                rowKey="key"
                dataSource={fields}
                locale={{ emptyText: 'No Docker repository has a port yet. Add one for each registry clients use.' }}
                columns={[
                  {
                    title: 'Docker repository',
                    render: (_: unknown, field) => (
                      <Form.Item name={[field.name, 'repoKey']} noStyle rules={[REQUIRED]}>
                        <Select
                          aria-label="Docker repository"
                          style={{ width: '100%' }}
                          options={dockerRepos.map((r) => ({ value: r.key, label: r.key }))}
                        />
                      </Form.Item>
                    ),
                  },
                  {
                    title: 'Port',
                    width: 140,
                    render: (_: unknown, field) => (
                      <Form.Item
                        name={[field.name, 'port']}
                        noStyle
                        rules={[{ required: true, message: SETTINGS_MESSAGES.portInvalid }]}
                      >
                        <InputNumber min={1} max={65535} precision={0} aria-label="Port" style={{ width: '100%' }} />
                      </Form.Item>
                    ),
                  },
                  {
                    title: '',
                    width: 48,
                    render: (_: unknown, field) => (
                      <Button
                        type="text"
                        icon={<DeleteOutlined />}
                        aria-label="Remove repository port"
                        onClick={() => remove(field.name)}
                      />
                    ),
                  },
                ]}
              />
              <Button style={{ marginTop: 8 }} onClick={() => add({ repoKey: dockerRepos[0]?.key, port: undefined })}>
                Add repository port
              </Button>
            </>
          )}
        </Form.List>
      )}
    </Card>
  );
}

function LogoCard({ uploaded }: { uploaded: boolean }) {
  const { upload, remove } = useLogo();
  const { modal } = App.useApp();
  return (
    <Card title="Logo" style={{ marginBottom: 20 }}>
      <Typography.Paragraph type="secondary">
        Shown in the header and footer. An uploaded image wins over the address below; without either the edition’s mark
        is shown.
      </Typography.Paragraph>
      <Flex
        align="center"
        justify="center"
        style={{ height: 96, background: '#f5f7fb', borderRadius: 8, marginBottom: 16 }}
        aria-label="Logo preview"
      >
        {uploaded ? (
          <Image
            src={`/ui/api/v1/ui/generalConfig/logo?t=${upload.submittedAt}`}
            alt="Uploaded logo"
            height={64}
            preview={false}
          />
        ) : (
          <Typography.Text type="secondary">No logo uploaded</Typography.Text>
        )}
      </Flex>
      <Space wrap style={{ marginBottom: 16 }}>
        <Upload
          accept={LOGO_TYPES.join(',')}
          showUploadList={false}
          beforeUpload={(file) => {
            if (file.size > LOGO_MAX_BYTES) {
              notifyError(SETTINGS_MESSAGES.logoTooLarge);
              return Upload.LIST_IGNORE;
            }
            void runSafely(async () => {
              await upload.mutateAsync(file);
              notifySuccess('The logo was uploaded');
            });
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={upload.isPending}>
            {uploaded ? 'Replace logo' : 'Upload logo'}
          </Button>
        </Upload>
        {uploaded && (
          <Button
            danger
            icon={<DeleteOutlined />}
            loading={remove.isPending}
            onClick={() =>
              modal.confirm({
                title: 'Remove the uploaded logo?',
                content: 'The logo address below, or the edition’s mark, is shown instead.',
                okText: 'Remove',
                okButtonProps: { danger: true },
                onOk: () =>
                  runSafely(async () => {
                    await remove.mutateAsync();
                    notifySuccess('The logo was removed');
                  }),
              })
            }
          >
            Remove
          </Button>
        )}
      </Space>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        PNG, JPEG, GIF, SVG or WebP, at most 512 KB.
      </Typography.Paragraph>
      <Form.Item
        label="Logo address"
        name="logoUrl"
        rules={[urlRule]}
        extra="An image on another server, used when none is uploaded."
      >
        <Input placeholder="https://example.com/logo.svg" />
      </Form.Item>
    </Card>
  );
}

function NginxModal({ dirty, onClose }: { dirty: boolean; onClose: () => void }) {
  const config = useNginxConfig(true);
  const text = config.data ?? '';
  return (
    <Modal
      open
      width={760}
      title="nginx configuration"
      onCancel={onClose}
      footer={
        <Space>
          <Button
            icon={<CopyOutlined />}
            disabled={!text}
            onClick={() =>
              void navigator.clipboard.writeText(text).then(() => notifySuccess('The configuration was copied'))
            }
          >
            Copy
          </Button>
          <Button
            icon={<DownloadOutlined />}
            disabled={!text}
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
            download="arca.conf"
          >
            Download
          </Button>
          <Button type="primary" onClick={onClose}>
            Close
          </Button>
        </Space>
      }
    >
      {dirty && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title="This configuration is made of the saved settings: save your changes to see them here."
        />
      )}
      <Typography.Paragraph type="secondary">
        Put it in <Typography.Text code>/etc/nginx/conf.d/arca.conf</Typography.Text> and reload nginx.
      </Typography.Paragraph>
      {config.isPending ? (
        <Skeleton active />
      ) : (
        <pre
          aria-label="nginx configuration"
          style={{
            maxHeight: 420,
            overflow: 'auto',
            background: '#0f1f3d',
            color: '#e8eefc',
            padding: 16,
            borderRadius: 8,
            fontSize: 12,
          }}
        >
          {text}
        </pre>
      )}
    </Modal>
  );
}
