import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { Alert, Button, Checkbox, Form, Input, Modal, Popover, Space, Steps, Typography } from 'antd';
import { useState } from 'react';
import {
  VCS_DEFAULT_URLS,
  VCS_MESSAGES,
  VCS_SERVICES,
  VCS_VENDOR_LABELS,
  type VcsIntegration,
  type VcsIntegrationForm,
  type VcsTestResult,
  type VcsVendor,
} from '@arca/contracts';
import { notifyError, notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { useServerErrors } from '../../../lib/server-errors';
import { useIntegrationActions } from '../api/integrations';

interface Values {
  integrationName: string;
  url: string;
  userName: string;
  token: string;
}

const TOKEN_HELP: Record<VcsVendor, string> = {
  github: 'A personal access token of that user.',
  gitlab: 'A personal access token (read_api) of that user.',
  bitbucket_cloud: 'An app password of that user.',
  bitbucket_server: 'An HTTP access token of that user.',
};

/** Step 2: the services the integration serves; only services this deployment runs can be chosen. */
function SelectService({ onFinish }: { onFinish: () => void }) {
  return (
    <>
      <Typography.Paragraph>Choose the services that use this integration.</Typography.Paragraph>
      <Space orientation="vertical" style={{ marginBottom: 16 }}>
        {VCS_SERVICES.map((service) => (
          <Checkbox key={service.name} disabled>
            {service.label} <Typography.Text type="secondary">— {VCS_MESSAGES.serviceMissing}</Typography.Text>
          </Checkbox>
        ))}
      </Space>
      <Alert
        type="info"
        showIcon
        title="The integration is kept: connect a service to it once one runs in this deployment."
        style={{ marginBottom: 16 }}
      />
      <Button type="primary" onClick={onFinish}>
        Finish
      </Button>
    </>
  );
}

/**
 * The Git integration modal (spec part 1 §2, §4): step 1 creates or edits the account — Create is
 * enabled once Test connection passed with the form as it is — and step 2 selects its services.
 */
export function GitIntegrationModal({
  vendor,
  editing,
  startAt = 0,
  open,
  onClose,
}: {
  vendor: VcsVendor;
  editing?: VcsIntegration | undefined;
  startAt?: 0 | 1;
  open: boolean;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const { test, create, update } = useIntegrationActions();
  const { errors, clear, capture } = useServerErrors();
  const [step, setStep] = useState<0 | 1>(startAt);
  const [result, setResult] = useState<VcsTestResult>();
  const tested = result?.success === true;

  const formOf = (values: Values): VcsIntegrationForm => ({
    vendorName: vendor,
    integrationName: values.integrationName,
    url: values.url ?? '',
    userName: values.userName,
    token: values.token ?? '',
    ...(editing ? { integrationKey: editing.key } : {}),
  });

  const close = () => {
    form.resetFields();
    setResult(undefined);
    setStep(0);
    clear();
    onClose();
  };

  // a form with missing fields shows their messages and goes no further
  const valid = () => form.validateFields().catch(() => undefined);

  const runTest = async () => {
    clear();
    const values = await valid();
    if (!values) return;
    test.mutateAsync(formOf(values)).then(setResult, (error: unknown) => capture(error, form));
  };

  const save = async () => {
    clear();
    const values = await valid();
    if (!values) return;
    try {
      if (editing) {
        const saved = await update.mutateAsync({ key: editing.key, form: formOf(values) });
        notifySuccess(saved.message);
        close();
      } else {
        const saved = await create.mutateAsync(formOf(values));
        notifySuccess(saved.message);
        setStep(1);
      }
    } catch (error) {
      notifyError(editing ? VCS_MESSAGES.updateFailed : VCS_MESSAGES.createFailed);
      capture(error, form);
    }
  };

  const label = VCS_VENDOR_LABELS[vendor];
  return (
    <Modal
      open={open}
      title={editing ? `Edit ${editing.name}` : `Connect ${label}`}
      onCancel={close}
      footer={null}
      destroyOnHidden
      width={600}
    >
      <Steps
        size="small"
        current={step}
        style={{ marginBottom: 20 }}
        items={[{ title: editing ? 'Edit integration' : 'Create integration' }, { title: 'Select service' }]}
      />
      {step === 1 ? (
        <SelectService onFinish={close} />
      ) : (
        <>
          <ErrorList messages={errors} />
          <Form<Values>
            form={form}
            layout="vertical"
            initialValues={{
              integrationName: editing?.name ?? '',
              url: editing?.url ?? VCS_DEFAULT_URLS[vendor],
              userName: editing?.userName ?? '',
              token: '',
            }}
            // a change of what was tested asks for a new test
            onValuesChange={() => setResult(undefined)}
          >
            <Form.Item
              name="integrationName"
              label="Integration Name"
              rules={[
                { required: true, whitespace: true, message: VCS_MESSAGES.integrationName },
                { pattern: /^[A-Za-z0-9_-]+$/, message: VCS_MESSAGES.nameRule },
              ]}
            >
              <Input autoFocus />
            </Form.Item>
            <Form.Item
              name="url"
              label="URL"
              extra={`The ${label} API address; change it for a self-hosted ${label}.`}
              rules={vendor === 'bitbucket_server' ? [{ required: true, message: VCS_MESSAGES.url }] : []}
            >
              <Input placeholder={VCS_DEFAULT_URLS[vendor] || 'https://bitbucket.example.com'} />
            </Form.Item>
            <Form.Item
              name="userName"
              label="User name"
              rules={[{ required: true, whitespace: true, message: VCS_MESSAGES.userName }]}
            >
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="token"
              label="Token"
              extra={editing ? 'Leave empty to keep the stored token.' : TOKEN_HELP[vendor]}
              rules={editing ? [] : [{ required: true, whitespace: true, message: VCS_MESSAGES.token }]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </Form>
          <Space>
            <Popover
              open={result !== undefined}
              content={
                <Space>
                  {result?.success ? (
                    <CheckCircleFilled style={{ color: '#237804' }} />
                  ) : (
                    <CloseCircleFilled style={{ color: '#a8071a' }} />
                  )}
                  <span role="status">{result?.message}</span>
                </Space>
              }
            >
              <Button onClick={() => void runTest()} loading={test.isPending}>
                Test connection
              </Button>
            </Popover>
            <Button
              type="primary"
              disabled={!tested}
              loading={create.isPending || update.isPending}
              onClick={() => void save()}
            >
              {editing ? 'Save' : 'Create'}
            </Button>
            <Button onClick={close}>Cancel</Button>
          </Space>
        </>
      )}
    </Modal>
  );
}
