import { DeleteOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  Flex,
  Form,
  Input,
  Row,
  Select,
  Skeleton,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useState, useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  RELEASE_BUNDLE_DOMAINS,
  REPOSITORY_DOMAINS,
  WEBHOOK_DOMAINS,
  WEBHOOK_DOMAIN_LABELS,
  WEBHOOK_DOMAIN_NAMES,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_MASK,
  formatMessage,
  webhookHandlerSchema,
  webhookSubscriptionSchema,
  type WebhookAnswer,
  type WebhookDomain,
  type WebhookSubscriptionInput,
} from '@arca/contracts';
import { ApiError } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { FormActions } from '../../../components/form-actions';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { nameField } from '../../../lib/name-rules';
import { schemaField } from '../../../lib/schema-rules';
import { useServerErrors } from '../../../lib/server-errors';
import { useBuildNames } from '../../builds';
import { useReleaseBundleNames } from '../../release-bundles';
import { useRepositories } from '../../../lib/queries/repositories';
import { testWebhook, useSaveWebhook, useWebhook, useWebhooks } from '../api/webhooks';
import { deliveriesHref } from './webhooks-page';
import { ProxySelect } from '../../settings';

/** The form's values: the subscription flattened for its fields. */
interface Values {
  key: string;
  description: string;
  enabled: boolean;
  domain: WebhookDomain;
  eventTypes: string[];
  anyLocal: boolean;
  anyRemote: boolean;
  anyFederated: boolean;
  repoKeys: string[];
  anyBuild: boolean;
  selectedBuilds: string[];
  anyReleaseBundle: boolean;
  registeredReleaseBundlesNames: string[];
  includePatterns: string[];
  excludePatterns: string[];
  url: string;
  secret: string;
  useSecretForSigning: boolean;
  proxy: string;
  headers: { name: string; value: string }[];
}

const EMPTY: Values = {
  key: '',
  description: '',
  enabled: true,
  domain: 'artifact',
  eventTypes: [],
  anyLocal: true,
  anyRemote: false,
  anyFederated: false,
  repoKeys: [],
  anyBuild: true,
  selectedBuilds: [],
  anyReleaseBundle: true,
  registeredReleaseBundlesNames: [],
  includePatterns: [],
  excludePatterns: [],
  url: '',
  secret: '',
  useSecretForSigning: false,
  proxy: '',
  headers: [],
};

function valuesOf(hook: WebhookAnswer): Values {
  const c = hook.event_filter.criteria as Partial<Values>;
  const handler = hook.handlers[0];
  return {
    ...EMPTY,
    key: hook.key,
    description: hook.description,
    enabled: hook.enabled,
    domain: hook.event_filter.domain as WebhookDomain,
    eventTypes: hook.event_filter.event_types,
    anyLocal: c.anyLocal ?? false,
    anyRemote: c.anyRemote ?? false,
    anyFederated: c.anyFederated ?? false,
    repoKeys: c.repoKeys ?? [],
    anyBuild: c.anyBuild ?? false,
    selectedBuilds: c.selectedBuilds ?? [],
    anyReleaseBundle: c.anyReleaseBundle ?? false,
    registeredReleaseBundlesNames: c.registeredReleaseBundlesNames ?? [],
    includePatterns: c.includePatterns ?? [],
    excludePatterns: c.excludePatterns ?? [],
    url: handler?.url ?? '',
    secret: handler?.secret ?? '',
    useSecretForSigning: handler?.use_secret_for_signing ?? false,
    proxy: handler?.proxy ?? '',
    headers: handler?.custom_http_headers ?? [],
  };
}

function bodyOf(v: Values): WebhookSubscriptionInput {
  const criteria = REPOSITORY_DOMAINS.includes(v.domain)
    ? {
        anyLocal: v.anyLocal,
        anyRemote: v.anyRemote,
        anyFederated: v.anyFederated,
        repoKeys: v.repoKeys,
        includePatterns: v.includePatterns,
        excludePatterns: v.excludePatterns,
      }
    : v.domain === 'build'
      ? {
          anyBuild: v.anyBuild,
          selectedBuilds: v.selectedBuilds,
          includePatterns: v.includePatterns,
          excludePatterns: v.excludePatterns,
        }
      : RELEASE_BUNDLE_DOMAINS.includes(v.domain)
        ? {
            anyReleaseBundle: v.anyReleaseBundle,
            registeredReleaseBundlesNames: v.registeredReleaseBundlesNames,
            includePatterns: v.includePatterns,
            excludePatterns: v.excludePatterns,
          }
        : {};
  return {
    key: v.key.trim(),
    description: v.description,
    enabled: v.enabled,
    event_filter: { domain: v.domain, event_types: v.eventTypes, criteria },
    handlers: [
      {
        handler_type: 'webhook',
        url: v.url.trim(),
        ...(v.secret ? { secret: v.secret } : {}),
        use_secret_for_signing: v.useSecretForSigning,
        ...(v.proxy ? { proxy: v.proxy } : {}),
        custom_http_headers: v.headers.filter((h) => h.name || h.value),
      },
    ],
  };
}

/** New and edit webhook (`/admin/configuration/webhooks/new`, `edit/:webhookName`). */
export function WebhookFormPage() {
  const { webhookName } = useParams();
  const existing = useWebhook(webhookName);
  if (webhookName && existing.isPending) return <Skeleton active />;
  if (webhookName && existing.isError)
    return (
      <LoadError page what={`Webhook ${webhookName}`} error={existing.error} onRetry={() => void existing.refetch()} />
    );
  return (
    <WebhookForm
      key={webhookName ?? 'new'}
      initial={existing.data ? valuesOf(existing.data) : EMPTY}
      editing={webhookName}
    />
  );
}

/** Spec part 2 §9: the event cards' columns by breakpoint, gutter 25. */
const CARD_COLUMNS = { xs: 24, sm: 18, md: 12, lg: 8, xl: 6 } as const;

function WebhookForm({ initial, editing }: { initial: Values; editing: string | undefined }) {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const save = useSaveWebhook(editing);
  const all = useWebhooks();
  const repositories = useRepositories();
  const builds = useBuildNames();
  const bundles = useReleaseBundleNames();
  const { errors, clear, capture } = useServerErrors();
  const [saved, setSaved] = useState(false);
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<{ ok: boolean; text: string }>();
  const values = (Form.useWatch([], form) as Values | undefined) ?? initial;
  const current = { ...initial, ...values };
  const unsaved = useUnsavedChanges({ initial, current, onReset: () => form.resetFields(), enabled: !saved });
  // leaves once the unsaved-changes guard has seen the saved state
  useEffect(() => {
    if (saved) navigate('/admin/configuration/webhooks');
  }, [saved, navigate]);
  const domain = current.domain;

  const submit = async (v: Values) => {
    clear();
    try {
      await save.mutateAsync(bodyOf({ ...initial, ...v }));
      setSaved(true);
      notifySuccess(
        formatMessage(editing ? WEBHOOK_MESSAGES.updated : WEBHOOK_MESSAGES.created, { name: v.key || editing! }),
      );
    } catch (error) {
      capture(error, form);
    }
  };

  const test = async () => {
    setTested(undefined);
    try {
      await form.validateFields(['url', 'headers']);
    } catch {
      return;
    }
    setTesting(true);
    try {
      const answer = await testWebhook({ ...bodyOf(current), key: editing ?? (current.key.trim() || 'test') });
      setTested({ ok: true, text: `${answer.message} (the receiver answered ${answer.status}).` });
    } catch (error) {
      const status = error instanceof ApiError ? /RECEIVER_STATUS_(\d+)/.exec(codeOf(error.body))?.[1] : undefined;
      const text =
        error instanceof ApiError && error.status === 502
          ? `${WEBHOOK_MESSAGES.testFailed}${status ? ` (the receiver answered ${status}).` : '.'}`
          : error instanceof ApiError && error.status === 400
            ? error.messages.join(' ')
            : WEBHOOK_MESSAGES.testUnreachable;
      setTested({ ok: false, text });
    } finally {
      setTesting(false);
    }
  };

  const pickDomain = (next: WebhookDomain, types: string[]) => {
    // a webhook listens to one domain: choosing events of another starts over there
    form.setFieldsValue({ domain: next, eventTypes: types });
  };

  return (
    <>
      <PageHeader
        title={editing ? `Edit ${editing}` : 'New Webhook'}
        description="Choose what to listen to and where to send it. Each event is sent as a JSON request, signed with the secret when you give one."
        extra={
          editing && (
            <Button onClick={() => navigate(deliveriesHref(editing))} aria-label="Delivery log">
              Delivery log
            </Button>
          )
        }
      />
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form<Values>
        form={form}
        name="webhook"
        layout="vertical"
        initialValues={initial}
        onFinish={(v) => void submit(v)}
      >
        <Card title="General" style={{ marginBottom: 16 }}>
          <Row gutter={25}>
            <Col xs={24} md={12}>
              <Form.Item
                label="Name"
                name="key"
                extra={editing ? undefined : 'Starts with a letter; letters, digits, _ and -'}
                {...(editing
                  ? {}
                  : nameField({
                      schema: webhookSubscriptionSchema.shape.key,
                      existing: (all.data ?? []).map((h) => h.key),
                    }))}
              >
                <Input disabled={Boolean(editing)} autoComplete="off" autoFocus={!editing} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label="Enabled" name="enabled" valuePropName="checked">
                <Switch aria-label="Enabled" />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item label="Description" name="description">
                <Input.TextArea rows={2} maxLength={1024} />
              </Form.Item>
            </Col>
          </Row>
        </Card>

        <Card
          title="Events"
          extra={<Typography.Text type="secondary">A webhook listens to the events of one domain</Typography.Text>}
          style={{ marginBottom: 16 }}
        >
          <Form.Item name="domain" hidden>
            <Input />
          </Form.Item>
          <Form.Item
            name="eventTypes"
            rules={[
              {
                validator: (_r, v: string[]) =>
                  v?.length ? Promise.resolve() : Promise.reject(new Error(WEBHOOK_MESSAGES.noEventTypes)),
              },
            ]}
          >
            <EventPicker domain={domain} onPick={pickDomain} />
          </Form.Item>
          {REPOSITORY_DOMAINS.includes(domain) && (
            <Row gutter={25}>
              <Col xs={24}>
                <Typography.Text strong>Repositories</Typography.Text>
                <Flex gap={16} wrap style={{ margin: '8px 0 12px' }}>
                  <Form.Item name="anyLocal" valuePropName="checked" noStyle>
                    <Checkbox>Any local repository</Checkbox>
                  </Form.Item>
                  <Form.Item name="anyRemote" valuePropName="checked" noStyle>
                    <Checkbox>Any remote repository</Checkbox>
                  </Form.Item>
                  <Form.Item name="anyFederated" valuePropName="checked" noStyle>
                    <Checkbox>Any federated repository</Checkbox>
                  </Form.Item>
                </Flex>
              </Col>
              <Col xs={24} lg={12}>
                <Form.Item label="And these repositories" name="repoKeys">
                  <Select
                    mode="multiple"
                    allowClear
                    loading={repositories.isPending}
                    placeholder="Choose repositories"
                    aria-label="Repositories"
                    options={(repositories.data ?? []).map((r) => ({ value: r.key, label: `${r.key} (${r.rclass})` }))}
                  />
                </Form.Item>
              </Col>
              <PatternFields what="Paths" />
            </Row>
          )}
          {domain === 'build' && (
            <Row gutter={25}>
              <Col xs={24}>
                <Form.Item name="anyBuild" valuePropName="checked">
                  <Checkbox>Any build</Checkbox>
                </Form.Item>
              </Col>
              <Col xs={24} lg={12}>
                <Form.Item label="And these builds" name="selectedBuilds">
                  <Select
                    mode="multiple"
                    allowClear
                    loading={builds.isPending}
                    placeholder="Choose builds"
                    aria-label="Builds"
                    options={(builds.data ?? []).map((b) => ({ value: b.name, label: b.name }))}
                  />
                </Form.Item>
              </Col>
              <PatternFields what="Build names" />
            </Row>
          )}
          {RELEASE_BUNDLE_DOMAINS.includes(domain) && (
            <Row gutter={25}>
              <Col xs={24}>
                <Form.Item name="anyReleaseBundle" valuePropName="checked">
                  <Checkbox>Any release bundle</Checkbox>
                </Form.Item>
              </Col>
              <Col xs={24} lg={12}>
                <Form.Item label="And these release bundles" name="registeredReleaseBundlesNames">
                  <Select
                    mode="multiple"
                    allowClear
                    loading={bundles.isPending}
                    placeholder="Choose release bundles"
                    aria-label="Release bundles"
                    options={(bundles.data ?? []).map((b) => ({
                      value: b.release_bundle_name,
                      label: b.release_bundle_name,
                    }))}
                  />
                </Form.Item>
              </Col>
              <PatternFields what="Release bundle names" />
            </Row>
          )}
        </Card>

        <Card title="Where to send" style={{ marginBottom: 16 }}>
          <Row gutter={25}>
            <Col xs={24} lg={12}>
              <Form.Item label="URL" name="url" {...schemaField(webhookHandlerSchema.shape.url)}>
                <Input placeholder="https://ci.example.com/hooks/arca" autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
              <Form.Item
                label="Secret"
                name="secret"
                extra={
                  current.secret === WEBHOOK_SECRET_MASK
                    ? 'A secret is stored for this URL; leave it to keep it, or type a new one. A new URL needs the secret again.'
                    : 'Sent in the X-JFrog-Event-Auth header, or used to sign the body.'
                }
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
              <Form.Item
                label="Use the secret to sign the body"
                name="useSecretForSigning"
                valuePropName="checked"
                extra="The header then holds the body's HMAC-SHA256 (hex) instead of the secret itself."
              >
                <Switch aria-label="Use the secret to sign the body" disabled={!current.secret} />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
              <Form.Item
                label="Proxy"
                name="proxy"
                extra="The HTTP proxy the requests go through (Administration › Proxies)."
              >
                <ProxySelect />
              </Form.Item>
            </Col>
          </Row>
          <Typography.Text strong>Custom headers</Typography.Text>
          <Form.List name="headers">
            {(fields, { add, remove }) => (
              <div style={{ marginTop: 8 }}>
                {fields.map((field) => (
                  <Flex key={field.key} gap={8} align="flex-start">
                    <Form.Item
                      name={[field.name, 'name']}
                      style={{ flex: 1 }}
                      dependencies={[['headers', field.name, 'value']]}
                      rules={[headerRule(form, field.name)]}
                    >
                      <Input placeholder="Name" aria-label={`Header ${field.name + 1} name`} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'value']} style={{ flex: 2 }}>
                      <Input placeholder="Value" aria-label={`Header ${field.name + 1} value`} />
                    </Form.Item>
                    <Button
                      type="text"
                      icon={<DeleteOutlined />}
                      aria-label={`Remove header ${field.name + 1}`}
                      onClick={() => remove(field.name)}
                    />
                  </Flex>
                ))}
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', value: '' })}>
                  Add header
                </Button>
              </div>
            )}
          </Form.List>
          <Flex gap={12} align="center" style={{ marginTop: 20 }} wrap>
            <Button icon={<SendOutlined />} loading={testing} onClick={() => void test()}>
              Test
            </Button>
            <Typography.Text type="secondary">Sends a dummy event of the chosen domain to the URL.</Typography.Text>
          </Flex>
          {tested && (
            <Alert
              role="status"
              type={tested.ok ? 'success' : 'error'}
              showIcon
              title={tested.text}
              style={{ marginTop: 12 }}
            />
          )}
        </Card>
        <FormActions
          primary={editing ? 'Save' : 'Create'}
          busy={save.isPending}
          onCancel={() => navigate('/admin/configuration/webhooks')}
          onReset={unsaved.requestReset}
          resetDisabled={!unsaved.dirty}
        />
      </Form>
      {unsaved.dialog}
    </>
  );
}

/** The machine-readable reason of a refusal (`RECEIVER_STATUS_500`), from the error body. */
function codeOf(body: unknown): string {
  const errors = (body as { errors?: { code?: string }[] } | undefined)?.errors;
  return errors?.[0]?.code ?? '';
}

/** A header row is both a name and a value, or neither (spec part 1 §5). */
function headerRule(form: ReturnType<typeof Form.useForm<Values>>[0], index: number) {
  return {
    validator: () => {
      const header = (form.getFieldValue(['headers', index]) ?? {}) as { name?: string; value?: string };
      const name = (header.name ?? '').trim();
      const value = header.value ?? '';
      return Boolean(name) === Boolean(value)
        ? Promise.resolve()
        : Promise.reject(new Error(WEBHOOK_MESSAGES.headerIncomplete));
    },
  };
}

function PatternFields({ what }: { what: string }) {
  return (
    <>
      <Col xs={24} lg={12}>
        <Form.Item
          label={`${what}: include patterns`}
          name="includePatterns"
          extra="Ant patterns such as org/acme/**; empty: all"
        >
          <Select mode="tags" open={false} aria-label="Include patterns" placeholder="Type a pattern and press Enter" />
        </Form.Item>
      </Col>
      <Col xs={24} lg={12}>
        <Form.Item label={`${what}: exclude patterns`} name="excludePatterns">
          <Select mode="tags" open={false} aria-label="Exclude patterns" placeholder="Type a pattern and press Enter" />
        </Form.Item>
      </Col>
    </>
  );
}

/** The events grouped by domain, one card each; a webhook takes the events of one domain. */
function EventPicker({
  domain,
  value = [],
  onPick,
}: {
  domain: WebhookDomain;
  value?: string[];
  onChange?: (value: string[]) => void;
  onPick: (domain: WebhookDomain, types: string[]) => void;
}) {
  return (
    <Row gutter={[25, 25]}>
      {WEBHOOK_DOMAIN_NAMES.map((d) => {
        const chosen = d === domain ? value : [];
        return (
          <Col key={d} {...CARD_COLUMNS}>
            <Card
              size="small"
              title={WEBHOOK_DOMAIN_LABELS[d]}
              style={{ height: '100%', borderColor: chosen.length ? '#1677ff' : undefined }}
            >
              <div role="group" aria-label={`${WEBHOOK_DOMAIN_LABELS[d]} events`}>
                <Checkbox.Group value={chosen} onChange={(next) => onPick(d, next as string[])}>
                  <Space direction="vertical" size={4}>
                    {WEBHOOK_DOMAINS[d].map((type) => (
                      <Checkbox key={type} value={type}>
                        {type.replace(/_/g, ' ')}
                      </Checkbox>
                    ))}
                  </Space>
                </Checkbox.Group>
              </div>
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
