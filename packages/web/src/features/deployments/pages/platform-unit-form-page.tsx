import {
  Alert,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Skeleton,
  Space,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { DEPLOYMENT_MESSAGES, type DeploymentBody } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { useServerErrors } from '../../../lib/server-errors';
import { useDeployment, useDeploymentActions } from '../api/deployments';
import { DeploymentStatusTag, UNITS } from './platform-units-page';
import { REQUIRED } from '../../../lib/schema-rules';

interface Values {
  name: string;
  url: string;
  tags: string[];
  city: string;
  latitude: number | null;
  longitude: number | null;
  credentials: 'token' | 'password';
  pairing_token?: string;
  username?: string;
  password?: string;
}

const NAME = /^[A-Za-z0-9._-]{1,200}$/;
const TAG = /^[a-z0-9_]{2,50}$/;

/** Add (`platform_units/add`) or edit (`platform_units/:id`) a platform deployment. */
export function PlatformUnitFormPage() {
  const { id } = useParams();
  const editing = id && id !== 'add' ? id : undefined;
  const existing = useDeployment(editing);
  if (editing && existing.isError)
    return <LoadError page what="The deployment" error={existing.error} onRetry={() => void existing.refetch()} />;
  if (editing && !existing.data) return <Skeleton active />;
  return <DeploymentForm key={editing ?? 'new'} id={editing} initial={existing.data} />;
}

function DeploymentForm({
  id,
  initial,
}: {
  id: string | undefined;
  initial: ReturnType<typeof useDeployment>['data'];
}) {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const actions = useDeploymentActions();
  const { errors, capture, clear } = useServerErrors();
  const [reauthToken, setReauthToken] = useState('');
  const credentials = Form.useWatch('credentials', form) ?? 'token';
  const url = Form.useWatch('url', form) as string | undefined;
  // a new address is paired again: the service token of the old one is never sent there
  const urlChanged =
    Boolean(id) && url !== undefined && url.trim().replace(/\/+$/, '') !== (initial?.url ?? '').replace(/\/+$/, '');
  const askCredentials = !id || urlChanged;
  const onFinish = (values: Values) => {
    clear();
    const common = {
      name: values.name.trim(),
      url: values.url.trim(),
      tags: values.tags ?? [],
      location: {
        city: values.city?.trim() ?? '',
        latitude: values.latitude ?? null,
        longitude: values.longitude ?? null,
      },
    };
    const given =
      values.credentials === 'token'
        ? { pairing_token: values.pairing_token?.trim() }
        : { username: values.username?.trim(), password: values.password };
    if (id) {
      actions.update.mutate(
        { id, body: urlChanged ? { ...common, ...given } : common },
        {
          onSuccess: () => {
            notifySuccess(DEPLOYMENT_MESSAGES.updated);
            navigate(UNITS);
          },
          onError: (error) => capture(error, form),
        },
      );
      return;
    }
    const body: DeploymentBody = { ...common, ...given };
    actions.register.mutate(body, {
      onSuccess: () => {
        notifySuccess(DEPLOYMENT_MESSAGES.registered);
        navigate(UNITS);
      },
      onError: (error) => capture(error, form),
    });
  };
  return (
    <>
      <PageHeader
        title={id ? `Edit ${initial?.name ?? 'Deployment'}` : 'Add Deployment'}
        description={
          id ? (
            <Space>
              Status <DeploymentStatusTag status={initial!.status} /> {initial!.status_details}
            </Space>
          ) : (
            'Register another Arca deployment with a pairing token made by its administrator.'
          )
        }
      />
      <Row gutter={20}>
        <Col xs={24} xl={14}>
          <Card>
            <ErrorList messages={errors} style={{ marginBottom: 12 }} />
            <Form<Values>
              form={form}
              layout="vertical"
              onFinish={onFinish}
              initialValues={{
                name: initial?.name ?? '',
                url: initial?.url ?? 'https://',
                tags: initial?.tags ?? [],
                city: initial?.location.city ?? '',
                latitude: initial?.location.latitude ?? null,
                longitude: initial?.location.longitude ?? null,
                credentials: 'token',
              }}
            >
              <Form.Item
                label="Name"
                name="name"
                rules={[REQUIRED, { pattern: NAME, message: DEPLOYMENT_MESSAGES.nameInvalid }]}
              >
                <Input autoFocus={!id} placeholder="arca-eu-west" />
              </Form.Item>
              <Form.Item
                label="URL"
                name="url"
                rules={[REQUIRED, { type: 'url', message: DEPLOYMENT_MESSAGES.urlInvalid }]}
              >
                <Input placeholder="https://arca-eu.acme.com" />
              </Form.Item>
              <Form.Item
                label="Tags"
                name="tags"
                rules={[
                  {
                    validator: (_, tags: string[] | undefined) =>
                      (tags ?? []).every((t) => TAG.test(t))
                        ? Promise.resolve()
                        : Promise.reject(new Error(DEPLOYMENT_MESSAGES.tagInvalid)),
                  },
                ]}
              >
                <Select
                  mode="tags"
                  open={false}
                  tokenSeparators={[',', ' ']}
                  aria-label="Tags"
                  placeholder="prod, eu_west"
                />
              </Form.Item>
              <Row gutter={12}>
                <Col span={10}>
                  <Form.Item label="City" name="city">
                    <Input placeholder="Amsterdam" />
                  </Form.Item>
                </Col>
                <Col span={7}>
                  <Form.Item label="Latitude" name="latitude">
                    <InputNumber min={-90} max={90} step={0.01} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col span={7}>
                  <Form.Item label="Longitude" name="longitude">
                    <InputNumber min={-180} max={180} step={0.01} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
              </Row>
              {askCredentials && (
                <>
                  {urlChanged && (
                    <Alert
                      type="info"
                      showIcon
                      style={{ marginBottom: 16 }}
                      message="The URL changed: Arca pairs with the deployment at the new address, with a pairing token made there. The service token of the old address is not sent to it."
                    />
                  )}
                  <Form.Item label="Connect with" name="credentials">
                    <Radio.Group
                      options={[
                        { value: 'token', label: 'Pairing token' },
                        { value: 'password', label: 'Administrator user name and password (used once)' },
                      ]}
                    />
                  </Form.Item>
                  {credentials === 'token' ? (
                    <Form.Item
                      label="Pairing token"
                      name="pairing_token"
                      rules={[{ required: true, message: DEPLOYMENT_MESSAGES.tokenRequired }]}
                      extra={`Made on the deployment ${id ? 'at the new address' : 'to add'}: Platform Deployments → Generate Pairing Token.`}
                    >
                      <Input.Password autoComplete="off" />
                    </Form.Item>
                  ) : (
                    <Row gutter={12}>
                      <Col span={12}>
                        <Form.Item label="User name" name="username" rules={[REQUIRED]}>
                          <Input autoComplete="off" />
                        </Form.Item>
                      </Col>
                      <Col span={12}>
                        <Form.Item label="Password" name="password" rules={[REQUIRED]}>
                          <Input.Password autoComplete="new-password" />
                        </Form.Item>
                      </Col>
                    </Row>
                  )}
                </>
              )}
              <Space>
                <Button
                  type="primary"
                  htmlType="submit"
                  loading={actions.register.isPending || actions.update.isPending}
                >
                  {id ? 'Save' : 'Add Deployment'}
                </Button>
                <Button onClick={() => navigate(UNITS)}>Cancel</Button>
              </Space>
            </Form>
          </Card>
        </Col>
        {id && (
          <Col xs={24} xl={10}>
            <Card title="Re-authenticate">
              <Typography.Paragraph type="secondary">
                When the deployment no longer takes Arca&apos;s service token (revoked, or the deployment restored),
                give a new pairing token made on it.
              </Typography.Paragraph>
              {actions.reauth.isError && (
                <Alert
                  type="error"
                  showIcon
                  style={{ marginBottom: 12 }}
                  message={(actions.reauth.error as Error).message}
                />
              )}
              <Space.Compact style={{ width: '100%' }}>
                <Input.Password
                  aria-label="New pairing token"
                  value={reauthToken}
                  onChange={(e) => setReauthToken(e.target.value)}
                  autoComplete="off"
                />
                <Button
                  disabled={!reauthToken.trim()}
                  loading={actions.reauth.isPending}
                  onClick={() =>
                    actions.reauth.mutate(
                      { id, pairing_token: reauthToken.trim() },
                      {
                        onSuccess: () => {
                          setReauthToken('');
                          notifySuccess(DEPLOYMENT_MESSAGES.reauthOk);
                        },
                      },
                    )
                  }
                >
                  Re-authenticate
                </Button>
              </Space.Compact>
            </Card>
          </Col>
        )}
      </Row>
    </>
  );
}
