import { Alert, Button, Card, Checkbox, Form, Input, Select, Skeleton, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HTTP_SSO_MESSAGES, type HttpSsoSettings } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { useServerErrors } from '../../../lib/server-errors';

const key = ['http-sso'] as const;

/** HTTP single sign-on: a reverse proxy that authenticates names the user in a header Arca trusts from it. */
export function HttpSsoTab() {
  const client = useQueryClient();
  const settings = useQuery({ queryKey: key, queryFn: () => apiFetch<HttpSsoSettings>('ui/auth/httpSso') });
  const save = useMutation({
    mutationFn: (body: HttpSsoSettings) =>
      apiFetch<HttpSsoSettings>('ui/auth/httpSso', { method: 'PUT', body, silent: true }),
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      void client.invalidateQueries({ queryKey: ['auth'] });
    },
  });
  const [form] = Form.useForm<HttpSsoSettings>();
  const { errors, capture, clear } = useServerErrors();
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [form, settings.data]);
  if (!settings.data) return <Skeleton active />;
  return (
    <Card title="HTTP single sign-on" style={{ maxWidth: 760 }}>
      <Typography.Paragraph type="secondary">
        For a reverse proxy that signs people in itself (Kerberos, a company portal) and names the user in a header. The
        login page then offers “Sign in with your company sign-in”, which opens{' '}
        <Typography.Text code>/ui/api/v1/auth/http-sso-login</Typography.Text> through the proxy.
      </Typography.Paragraph>
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        message="Arca believes the header only from the proxy addresses listed: make sure nothing else can reach Arca from them."
      />
      <ErrorList messages={errors} style={{ marginBottom: 12 }} />
      <Form<HttpSsoSettings>
        form={form}
        layout="vertical"
        initialValues={settings.data}
        onFinish={(values) => {
          clear();
          save.mutate(values, {
            onSuccess: (saved) =>
              notifySuccess(saved.enabled ? 'HTTP single sign-on is on' : 'HTTP single sign-on is off'),
            onError: (error) => capture(error, form),
          });
        }}
      >
        <Form.Item label="Enabled" name="enabled" valuePropName="checked" htmlFor="http-sso-enabled">
          <Switch id="http-sso-enabled" />
        </Form.Item>
        <Form.Item
          label="User header"
          name="header"
          rules={[{ pattern: /^[A-Za-z0-9_-]+$/, message: HTTP_SSO_MESSAGES.headerInvalid }]}
        >
          <Input style={{ maxWidth: 320 }} />
        </Form.Item>
        <Form.Item
          label="Trusted proxies"
          name="trustedProxies"
          extra="Addresses or CIDR ranges, e.g. 10.0.0.5 or 10.0.0.0/24"
        >
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} aria-label="Trusted proxies" />
        </Form.Item>
        <Form.Item name="autoCreateUser" valuePropName="checked">
          <Checkbox>Create Arca users at their first sign-in</Checkbox>
        </Form.Item>
        <Form.Item
          name="allowAdministrators"
          valuePropName="checked"
          extra="Off: administrators sign in with their password (and second factor). Users of other realms and users with a second factor never sign in through the header."
        >
          <Checkbox>Let the header sign in administrators</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          Save
        </Button>
      </Form>
    </Card>
  );
}
