import { Alert, Card, Col, Flex, Form, InputNumber, Row, Select, Skeleton, Switch, Typography } from 'antd';
import type { SecuritySettings } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { PageHeader } from '../../../components/page-header';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { useSaveSecuritySettings, useSecuritySettings } from '../api/security-settings';
import { useServerErrors } from '../../../lib/server-errors';
import { FormActions } from '../../../components/form-actions';

import { REQUIRED } from '../../../lib/schema-rules';

/** Security settings (`/admin/artifactory/security/general`). */
export function SecuritySettingsPage() {
  const settings = useSecuritySettings();
  if (settings.isPending) return <Skeleton active />;
  if (settings.isError) return <Alert type="error" showIcon title={settings.error.message} />;
  return <SecuritySettingsForm initial={settings.data} />;
}

function SecuritySettingsForm({ initial }: { initial: SecuritySettings }) {
  const [form] = Form.useForm<SecuritySettings>();
  const save = useSaveSecuritySettings();
  const { errors, clear, capture } = useServerErrors();
  const values = Form.useWatch([], form) as SecuritySettings | undefined;
  const current = { ...initial, ...values };
  const unsaved = useUnsavedChanges({ initial, current, onReset: () => form.resetFields() });
  const submit = (v: SecuritySettings) => {
    clear();
    save.mutate(
      { ...initial, ...v },
      {
        onSuccess: () => notifySuccess('Security settings were saved'),
        onError: (error) => capture(error),
      },
    );
  };
  const number = (
    name: keyof SecuritySettings,
    label: string,
    min: number,
    max: number,
    unit: string,
    extra?: string,
  ) => (
    <Form.Item label={label} name={name} extra={extra} rules={[REQUIRED]}>
      <InputNumber min={min} max={max} precision={0} suffix={unit} style={{ width: 200 }} aria-label={label} />
    </Form.Item>
  );
  const toggle = (name: keyof SecuritySettings, label: string, help: string) => (
    <Flex gap={12} align="flex-start" style={{ marginBottom: 16 }}>
      <Form.Item name={name} valuePropName="checked" noStyle>
        <Switch aria-label={label} style={{ marginTop: 2 }} />
      </Form.Item>
      <div>
        <Typography.Text strong>{label}</Typography.Text>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {help}
        </Typography.Paragraph>
      </div>
    </Flex>
  );
  return (
    <>
      <PageHeader
        title="Security Configuration"
        description="Who may use this deployment without signing in, and how sign-in is protected."
      />
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form<SecuritySettings> form={form} layout="vertical" initialValues={initial} onFinish={submit}>
        <Row gutter={20}>
          <Col xs={24} xl={12}>
            <Card title="Access" style={{ marginBottom: 20 }}>
              {toggle(
                'anonymousAccess',
                'Allow anonymous access',
                'Visitors who do not sign in get the rights of the “anonymous” user in permissions (read everything, as installed).',
              )}
              {toggle(
                'hideUnauthorizedResources',
                'Hide existence of unauthorized resources',
                'Answer “not found” instead of “forbidden” to users who may not read a path, so that its existence is not revealed.',
              )}
              {toggle(
                'requireMfa',
                'Require two-factor authentication',
                'Every user of the console enrols an authenticator app at the next sign-in.',
              )}
            </Card>
            <Card title="Sessions" style={{ marginBottom: 20 }}>
              {number(
                'sessionIdleMinutes',
                'Sign out after inactivity',
                1,
                10080,
                'minutes',
                'Applies to sessions started from now on.',
              )}
              {number(
                'tokenDefaultExpiryDays',
                'Tokens of client sign-ins last',
                0,
                3650,
                'days',
                'Tokens made by npm login; 0 never expires.',
              )}
            </Card>
          </Col>
          <Col xs={24} xl={12}>
            <Card title="Password policy" style={{ marginBottom: 20 }}>
              {number('passwordMinLength', 'Minimum length', 4, 128, 'characters')}
              {number(
                'passwordExpiryDays',
                'Password expires after',
                0,
                3650,
                'days',
                '0 keeps passwords valid forever.',
              )}
              {number('passwordExpiryNotifyDays', 'Warn before expiry', 0, 365, 'days')}
            </Card>
            <Card title="Login lockout" style={{ marginBottom: 20 }}>
              {toggle(
                'lockoutEnabled',
                'Lock users after failed logins',
                'Protects against password guessing; applies to package clients too.',
              )}
              {current.lockoutEnabled && (
                <Flex gap={20} wrap>
                  {number('lockoutAttempts', 'Failed attempts', 1, 100, 'attempts')}
                  {number('lockoutMinutes', 'Lock for', 1, 1440, 'minutes')}
                </Flex>
              )}
              {number(
                'clientFailuresPerMinute',
                'Refused client sign-ins per address',
                1,
                10000,
                'a minute',
                'Past this, an address gets 429 without its credentials being checked, whoever it names.',
              )}
            </Card>
            <Card title="Outbound requests" style={{ marginBottom: 20 }}>
              <Typography.Paragraph type="secondary">
                Remote repositories and webhooks never reach this host or link-local addresses (such as cloud metadata
                services) unless they are listed here. Private networks stay reachable.
              </Typography.Paragraph>
              <Form.Item
                name="outboundAllowedHosts"
                label="Allowed hosts"
                htmlFor="outboundAllowedHosts"
                extra="A host name or address, optionally with :port — type it and press Enter."
              >
                <Select
                  id="outboundAllowedHosts"
                  mode="tags"
                  tokenSeparators={[',', ' ']}
                  open={false}
                  suffixIcon={null}
                  placeholder="e.g. localhost:8081"
                />
              </Form.Item>
            </Card>
          </Col>
        </Row>
        <FormActions
          primary="Save"
          busy={save.isPending}
          onReset={unsaved.requestReset}
          resetDisabled={!unsaved.dirty}
        />
      </Form>
      {unsaved.dialog}
    </>
  );
}
