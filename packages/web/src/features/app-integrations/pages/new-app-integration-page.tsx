import { Alert, Button, Card, Descriptions, Form, Input, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { APP_INTEGRATION_MESSAGES, type AppIntegrationBody, type AppIntegrationCreated } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { PageHeader } from '../../../components/page-header';
import { useServerErrors } from '../../../lib/server-errors';
import { useAppIntegrationActions, useApplicationTypes } from '../api/app-integrations';
import { APP_INTEGRATIONS_PATH } from './app-integrations-page';
import { REQUIRED_TEXT } from '../../../lib/schema-rules';

const required = [REQUIRED_TEXT];

/** The credentials of a new application: the secret this once, with the warning the spec asks for. */
function Created({ created, onDone }: { created: AppIntegrationCreated; onDone: () => void }) {
  return (
    <Card style={{ maxWidth: 760 }}>
      <Alert type="warning" showIcon title={APP_INTEGRATION_MESSAGES.secretOnce} style={{ marginBottom: 16 }} />
      <Descriptions
        column={1}
        bordered
        size="small"
        items={[
          { key: 'name', label: 'Application Name', children: created.name },
          {
            key: 'client',
            label: 'Client ID',
            children: (
              <Typography.Text code copyable aria-label="Client ID">
                {created.clientId}
              </Typography.Text>
            ),
          },
          {
            key: 'secret',
            label: 'Secret',
            children: (
              <Typography.Text code copyable aria-label="Secret">
                {created.secret}
              </Typography.Text>
            ),
          },
          { key: 'callback', label: 'Callback URL', children: created.callbackUrl },
          { key: 'base', label: 'Platform Base Url', children: created.platformBaseUrl },
          {
            key: 'discovery',
            label: 'Authorisation server',
            children: (
              <Typography.Text
                code
                copyable
              >{`${window.location.origin}/.well-known/oauth-authorization-server`}</Typography.Text>
            ),
          },
        ]}
      />
      <Button type="primary" style={{ marginTop: 16 }} onClick={onDone}>
        Done
      </Button>
    </Card>
  );
}

/** Registers an application as an OAuth 2.0 client of this deployment. */
export function NewAppIntegrationPage() {
  const [form] = Form.useForm<AppIntegrationBody>();
  const navigate = useNavigate();
  const types = useApplicationTypes();
  const { create } = useAppIntegrationActions();
  const { errors, clear, capture } = useServerErrors();
  const [created, setCreated] = useState<AppIntegrationCreated>();

  const submit = (values: AppIntegrationBody) => {
    clear();
    create.mutateAsync(values).then(
      (answer) => {
        notifySuccess(APP_INTEGRATION_MESSAGES.created);
        setCreated(answer);
      },
      (error: unknown) => capture(error, form),
    );
  };

  return (
    <>
      <PageHeader
        title="New Application Integration"
        description="The application sends users here to approve it, then exchanges the code for a token (authorisation code with PKCE)."
      />
      {created ? (
        <Created created={created} onDone={() => void navigate(APP_INTEGRATIONS_PATH)} />
      ) : (
        <Card style={{ maxWidth: 760 }}>
          <ErrorList messages={errors} />
          <Form<AppIntegrationBody>
            form={form}
            layout="vertical"
            initialValues={{ type: 'web', platformBaseUrl: window.location.origin }}
            onFinish={submit}
          >
            <Form.Item
              name="name"
              label="Application Name"
              rules={[...required, { pattern: /^[A-Za-z0-9_-]+$/, message: APP_INTEGRATION_MESSAGES.nameRule }]}
            >
              <Input autoFocus />
            </Form.Item>
            <Form.Item name="type" label="Application Type" rules={required}>
              <Select
                loading={types.isPending}
                options={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
              />
            </Form.Item>
            <Form.Item name="description" label="Description">
              <Input.TextArea rows={3} />
            </Form.Item>
            <Form.Item
              name="callbackUrl"
              label="Callback URL"
              rules={required}
              extra="Where users are sent back with the authorisation code."
            >
              <Input placeholder="https://app.example.com/oauth/callback" />
            </Form.Item>
            <Form.Item name="platformBaseUrl" label="Platform Base Url" rules={required}>
              <Input />
            </Form.Item>
            <Alert type="info" showIcon title={APP_INTEGRATION_MESSAGES.secretOnce} style={{ marginBottom: 16 }} />
            <Space>
              <Button type="primary" htmlType="submit" loading={create.isPending}>
                Create
              </Button>
              <Button onClick={() => void navigate(APP_INTEGRATIONS_PATH)}>Cancel</Button>
            </Space>
          </Form>
        </Card>
      )}
    </>
  );
}
