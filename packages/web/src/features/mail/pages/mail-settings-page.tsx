import { SendOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  Flex,
  Form,
  Input,
  InputNumber,
  Row,
  Skeleton,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useState } from 'react';
import { ERROR_MESSAGES, type MailSettings } from '@arca/contracts';
import { ApiError } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { PageHeader } from '../../../components/page-header';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { useMailSettings, useSaveMailSettings, useSendTestMail } from '../api/mail';
import { useServerErrors } from '../../../lib/server-errors';
import { FormActions } from '../../../components/form-actions';
import { REQUIRED } from '../../../lib/schema-rules';

/** Mail server settings (`/admin/configuration/mail`), with a test message before saving. */
export function MailSettingsPage() {
  const settings = useMailSettings();
  if (settings.isPending) return <Skeleton active />;
  if (settings.isError) return <Alert type="error" showIcon title={settings.error.message} />;
  return <MailSettingsForm initial={settings.data} />;
}

function MailSettingsForm({ initial }: { initial: MailSettings }) {
  const [form] = Form.useForm<MailSettings>();
  const save = useSaveMailSettings();
  const test = useSendTestMail();
  const { errors, clear, capture } = useServerErrors();
  const [testTo, setTestTo] = useState('');
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | undefined>();
  const values = Form.useWatch([], form) as MailSettings | undefined;
  const current = { ...initial, ...values };
  const unsaved = useUnsavedChanges({ initial, current, onReset: () => form.resetFields() });
  const submit = (v: MailSettings) => {
    clear();
    save.mutate(
      { ...initial, ...v },
      {
        onSuccess: () => {
          form.setFieldValue('password', '');
          notifySuccess('Mail settings were saved');
        },
        onError: (error) => capture(error),
      },
    );
  };
  const sendTest = () => {
    setTestResult(undefined);
    test.mutate(
      { to: testTo.trim(), settings: current },
      {
        onSuccess: ({ message }) => setTestResult({ ok: true, text: message }),
        onError: (error) =>
          setTestResult({ ok: false, text: error instanceof ApiError ? error.messages.join(' ') : error.message }),
      },
    );
  };
  return (
    <>
      <PageHeader title="Mail" description="The mail server Arca sends password-reset links and invitations through." />
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form<MailSettings> form={form} layout="vertical" initialValues={initial} onFinish={submit}>
        <Row gutter={20}>
          <Col xs={24} xl={14}>
            <Card title="Server" style={{ marginBottom: 20 }}>
              <Flex gap={12} align="center" style={{ marginBottom: 16 }}>
                <Form.Item name="enabled" valuePropName="checked" noStyle>
                  <Switch aria-label="Send mail" />
                </Form.Item>
                <Typography.Text strong>Send mail</Typography.Text>
              </Flex>
              <Row gutter={16}>
                <Col span={16}>
                  <Form.Item
                    label="Host"
                    name="host"
                    rules={[{ required: current.enabled, whitespace: true, message: 'Enter the mail server host.' }]}
                  >
                    <Input placeholder="smtp.example.com" autoComplete="off" />
                  </Form.Item>
                </Col>
                <Col span={8}>
                  <Form.Item label="Port" name="port" rules={[REQUIRED]}>
                    <InputNumber min={1} max={65535} precision={0} style={{ width: '100%' }} aria-label="Port" />
                  </Form.Item>
                </Col>
              </Row>
              <Space size={24} style={{ marginBottom: 16 }}>
                <Form.Item name="useSsl" valuePropName="checked" noStyle>
                  <Checkbox>Use SSL/TLS (port 465)</Checkbox>
                </Form.Item>
                <Form.Item name="useTls" valuePropName="checked" noStyle>
                  <Checkbox>Use STARTTLS (port 587)</Checkbox>
                </Form.Item>
              </Space>
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
                    extra={initial.passwordSet ? 'A password is stored; leave empty to keep it.' : undefined}
                  >
                    <Input.Password autoComplete="new-password" />
                  </Form.Item>
                </Col>
              </Row>
            </Card>
          </Col>
          <Col xs={24} xl={10}>
            <Card title="Messages" style={{ marginBottom: 20 }}>
              <Form.Item
                label="From"
                name="from"
                rules={[{ type: 'email', message: 'Enter a valid sender e-mail address.' }]}
              >
                <Input placeholder="arca@example.com" />
              </Form.Item>
              <Form.Item label="Subject prefix" name="subjectPrefix">
                <Input placeholder="[Arca]" />
              </Form.Item>
              <Form.Item
                label="Console address in links"
                name="externalUrl"
                extra="How users reach Arca, e.g. https://arca.example.com. Empty uses the address of the request."
                rules={[{ type: 'url', message: ERROR_MESSAGES.invalidUrl }]}
              >
                <Input placeholder="https://arca.example.com" />
              </Form.Item>
            </Card>
            <Card title="Send a test message" style={{ marginBottom: 20 }}>
              <Space.Compact style={{ width: '100%' }}>
                <Input
                  aria-label="Test recipient"
                  placeholder="you@example.com"
                  value={testTo}
                  onChange={(e) => setTestTo(e.target.value)}
                />
                <Button
                  icon={<SendOutlined />}
                  onClick={sendTest}
                  loading={test.isPending}
                  disabled={!testTo.trim() || !current.host}
                >
                  Send
                </Button>
              </Space.Compact>
              {testResult && (
                <Alert
                  type={testResult.ok ? 'success' : 'error'}
                  showIcon
                  title={testResult.text}
                  style={{ marginTop: 12 }}
                />
              )}
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
