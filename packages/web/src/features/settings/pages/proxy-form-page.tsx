import { Card, Checkbox, Col, Form, Input, InputNumber, Row, Select, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PROXY_MESSAGES, type ProxyAnswer, type ProxyInput, SETTINGS_MESSAGES } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { FormActions } from '../../../components/form-actions';
import { PageHeader } from '../../../components/page-header';
import { ThingLoadError } from '../../../components/load-error';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { useServerErrors } from '../../../lib/server-errors';
import { useProxy, useSaveProxy } from '../api/proxies';
import { PROXIES_PATH } from './proxies-page';
import { REQUIRED, REQUIRED_TEXT } from '../../../lib/schema-rules';

type FormValues = Omit<ProxyInput, 'redirectToHosts'> & { redirectToHosts: string[] };

const EMPTY: FormValues = {
  key: '',
  host: '',
  port: 8080,
  username: '',
  password: '',
  ntHost: '',
  domain: '',
  defaultProxy: false,
  redirectToHosts: [],
};

/** New proxy and edit proxy (`/admin/proxies/configuration/new`, `…/edit/:proxyName`). */
export function ProxyFormPage() {
  const { proxyName } = useParams();
  const existing = useProxy(proxyName);
  if (proxyName !== undefined && existing.isPending) return <Skeleton active />;
  if (existing.isError)
    return (
      <ThingLoadError
        what={`Proxy '${proxyName ?? ''}'`}
        error={existing.error}
        onRetry={() => void existing.refetch()}
        backTo="/admin/proxies/configuration/list"
        backLabel="Back to Proxies"
      />
    );
  return <ProxyForm key={proxyName ?? 'new'} existing={existing.data} />;
}

function ProxyForm({ existing }: { existing?: ProxyAnswer }) {
  const navigate = useNavigate();
  const [form] = Form.useForm<FormValues>();
  const save = useSaveProxy(existing?.key);
  const { errors, clear, capture } = useServerErrors();
  const initial: FormValues = existing ? { ...EMPTY, ...existing, password: '' } : EMPTY;
  const values = Form.useWatch([], form) as Partial<FormValues> | undefined;
  const current = { ...initial, ...values };
  const [saved, setSaved] = useState(false);
  const unsaved = useUnsavedChanges({ initial, current, onReset: () => form.resetFields(), enabled: !saved });
  // leaves once the guard has seen the saved state
  useEffect(() => {
    if (saved) navigate(PROXIES_PATH);
  }, [saved, navigate]);
  const submit = (v: FormValues) => {
    clear();
    save.mutate(
      { ...initial, ...v },
      {
        onSuccess: (answer) => {
          setSaved(true);
          notifySuccess(`Proxy ${answer.key} was ${existing ? 'saved' : 'created'}`);
        },
        onError: (error) => capture(error, form),
      },
    );
  };
  return (
    <>
      <PageHeader
        title={existing ? `Edit proxy ${existing.key}` : 'New Proxy'}
        description="An HTTP proxy Arca's outbound requests go through: remote repositories fetching from their upstream, webhooks posting events."
      />
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={submit}>
        <Row gutter={20}>
          <Col xs={24} xl={12}>
            <Card title="Proxy" style={{ marginBottom: 20 }}>
              <Form.Item
                label="Key"
                name="key"
                rules={[REQUIRED, { pattern: /^[A-Za-z][A-Za-z0-9._-]*$/, message: PROXY_MESSAGES.keyInvalid }]}
              >
                <Input disabled={existing !== undefined} placeholder="corporate" autoFocus={!existing} />
              </Form.Item>
              <Row gutter={16}>
                <Col span={16}>
                  <Form.Item label="Host" name="host" rules={[REQUIRED_TEXT]}>
                    <Input placeholder="proxy.example.com" />
                  </Form.Item>
                </Col>
                <Col span={8}>
                  <Form.Item
                    label="Port"
                    name="port"
                    rules={[{ required: true, message: SETTINGS_MESSAGES.portInvalid }]}
                  >
                    <InputNumber min={1} max={65535} precision={0} style={{ width: '100%' }} aria-label="Port" />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item
                name="defaultProxy"
                valuePropName="checked"
                extra="Used by every remote repository and webhook that names no proxy; the previous default stops being one."
              >
                <Checkbox>System default</Checkbox>
              </Form.Item>
              <Form.Item
                label="Redirect to hosts"
                name="redirectToHosts"
                extra="Hosts a redirect may lead to with the proxy's credentials still sent (a download redirected to a CDN)."
              >
                <Select
                  mode="tags"
                  tokenSeparators={[',', ' ']}
                  placeholder="cdn.example.com"
                  aria-label="Redirect to hosts"
                  open={false}
                />
              </Form.Item>
            </Card>
          </Col>
          <Col xs={24} xl={12}>
            <Card title="Authentication" style={{ marginBottom: 20 }}>
              <Row gutter={16}>
                <Col span={12}>
                  <Form.Item label="User name" name="username">
                    <Input autoComplete="off" />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item
                    label="Password"
                    name="password"
                    extra={existing?.passwordSet ? 'A password is stored; leave empty to keep it.' : undefined}
                  >
                    <Input.Password autoComplete="new-password" />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item label="NT host" name="ntHost">
                    <Input placeholder="WORKSTATION" />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item label="NT domain" name="domain">
                    <Input placeholder="CORP" />
                  </Form.Item>
                </Col>
              </Row>
              <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
                Arca authenticates to the proxy with Basic credentials; the NT host and domain are kept for proxies that
                accept Basic alongside Windows authentication.
              </Typography.Paragraph>
            </Card>
          </Col>
        </Row>
        <FormActions
          primary={existing ? 'Save' : 'Create'}
          busy={save.isPending}
          onCancel={() => navigate(PROXIES_PATH)}
          onReset={unsaved.requestReset}
          resetDisabled={!unsaved.dirty}
        />
      </Form>
      {unsaved.dialog}
    </>
  );
}
