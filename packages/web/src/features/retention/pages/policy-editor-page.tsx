import { EyeOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Descriptions,
  Flex,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Segmented,
  Select,
  Space,
  Spin,
  Switch,
  Table,
  Typography,
} from 'antd';
import { useState, useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  AGE_UNITS,
  DURATION_UNITS,
  EXPIRATION_UNITS,
  PREVIEW_PAGE,
  RETENTION_KEY_PATTERN,
  RETENTION_MESSAGES,
  type PreviewAnswer,
  type PreviewItem,
} from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { FormActions } from '../../../components/form-actions';
import { formatBytes } from '../../../components/format';
import { LoadError } from '../../../components/load-error';
import { NotFoundResult } from '../../../components/not-found-result';
import { PageHeader } from '../../../components/page-header';
import { formatDate, formatDateTime } from '../../../components/time';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { messagesOf, useServerErrors } from '../../../lib/server-errors';
import {
  convertToAql,
  previewPolicy,
  useCronTime,
  useLocalRepositories,
  usePolicy,
  useSavePolicy,
} from '../api/retention';
import { RETENTION_BASE } from './retention-policies-page';
import { type Group, type Values, EMPTY, valuesOf, criteriaOf, bodyOf } from '../policy-values';

/**
 * A retention policy (`/admin/artifactory/services/retention/edit/:id?`): its name and schedule,
 * what it takes (a form, or AQL — one way), how long a run may last, when the archive deletes what
 * it took; and its preview, listing every artifact it would take now.
 */
export function PolicyEditorPage() {
  const { id } = useParams();
  const existing = usePolicy(id);
  if (id && existing.isPending)
    return <Spin style={{ display: 'block', margin: 48 }} aria-label="Loading the policy" />;
  if (id && existing.isError) {
    if ((existing.error as { status?: number }).status === 404)
      return (
        <NotFoundResult
          title={`There is no policy ${id}`}
          backTo={`${RETENTION_BASE}/policies`}
          backLabel="Back to the policies"
        />
      );
    return <LoadError page what="The policy" error={existing.error} onRetry={() => void existing.refetch()} />;
  }
  return <PolicyForm key={id ?? 'new'} initial={existing.data ? valuesOf(existing.data) : EMPTY} editing={id} />;
}

function PolicyForm({ initial, editing }: { initial: Values; editing: string | undefined }) {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const save = useSavePolicy(editing);
  const repositories = useLocalRepositories();
  const { errors, clear, capture } = useServerErrors(RETENTION_MESSAGES.saveFailed);
  const [saved, setSaved] = useState(false);
  const values = (Form.useWatch([], form) as Values | undefined) ?? initial;
  const current = { ...initial, ...values };
  const unsaved = useUnsavedChanges({ initial, current, onReset: () => form.resetFields(), enabled: !saved });
  // leaves once the unsaved-changes guard has seen the saved state
  useEffect(() => {
    if (saved) navigate(`${RETENTION_BASE}/policies`);
  }, [saved, navigate]);
  const aql = current.basis === 'aql';
  const cron = useCronTime(current.cronExp ?? '');
  const [preview, setPreview] = useState<{ answer?: PreviewAnswer; error?: string; loading: boolean; page: number }>({
    loading: false,
    page: 1,
  });

  const submit = async (v: Values) => {
    clear();
    try {
      await save.mutateAsync(bodyOf({ ...initial, ...v }));
      setSaved(true);
      notifySuccess(RETENTION_MESSAGES.saved);
    } catch (error) {
      capture(error, form);
    }
  };

  const runPreview = async (page: number) => {
    setPreview((p) => ({ ...p, loading: true, page }));
    try {
      const body = bodyOf(current);
      const answer = await previewPolicy(
        { aqlQuery: body.aqlQuery, searchCriteriaForm: body.searchCriteriaForm },
        (page - 1) * PREVIEW_PAGE,
        PREVIEW_PAGE,
      );
      setPreview({ answer, loading: false, page });
    } catch (error) {
      setPreview({
        error: [RETENTION_MESSAGES.previewFailed, ...messagesOf(error)].join(' '),
        loading: false,
        page,
      });
    }
  };

  const switchToAql = () =>
    modal.confirm({
      title: 'Write this policy in AQL?',
      content:
        'The criteria become an AQL query you can edit freely. This is one way: the policy cannot go back to the form, and only its name, description, schedule and deletion from the archive stay editable besides the query.',
      okText: 'Switch to AQL',
      onOk: () =>
        runSafely(async () => {
          const { aqlQuery } = await convertToAql(criteriaOf(current));
          form.setFieldsValue({ basis: 'aql', aqlQuery });
        }),
    });

  const repositoryOptions = (repositories.data ?? []).map((r) => ({
    value: r.repoKey,
    label: `${r.repoKey} (${r.packageType})`,
  }));
  const cronHelp = !current.cronExp?.trim()
    ? RETENTION_MESSAGES.cronEmpty
    : cron.isError
      ? RETENTION_MESSAGES.cronInvalid
      : cron.data
        ? `Next runs: ${cron.data.nextRuns
            .slice(0, 3)
            .map((ms) => formatDateTime(new Date(ms).toISOString()))
            .join(', ')}`
        : ' ';

  return (
    <>
      <PageHeader
        title={editing ? `Edit ${editing}` : 'New Retention Policy'}
        description="Choose what the policy archives and when. Preview lists every artifact it would take now; a run takes exactly those that still match."
      />
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={(v) => void submit(v)}
        requiredMark
        aria-label="Retention policy"
      >
        <Form.Item name="basis" hidden>
          <Input />
        </Form.Item>
        <Row gutter={24}>
          <Col xs={24} xl={14}>
            <Card title="Policy" style={{ marginBottom: 20 }}>
              <Form.Item
                name="key"
                label="Policy Name"
                rules={[
                  { required: true, message: RETENTION_MESSAGES.keyRequired },
                  { pattern: RETENTION_KEY_PATTERN, message: RETENTION_MESSAGES.keyFormat },
                  { max: 64 },
                ]}
              >
                <Input disabled={Boolean(editing)} autoFocus={!editing} />
              </Form.Item>
              <Form.Item name="description" label="Description">
                <Input.TextArea rows={2} maxLength={1000} />
              </Form.Item>
              <Form.Item
                name="cronExp"
                label="Schedule Execution (cron)"
                help={cronHelp}
                validateStatus={!current.cronExp?.trim() || cron.isError ? 'error' : undefined}
                rules={[
                  { required: true, message: RETENTION_MESSAGES.cronEmpty },
                  {
                    validator: () =>
                      cron.isError ? Promise.reject(new Error(RETENTION_MESSAGES.cronInvalid)) : Promise.resolve(),
                  },
                ]}
              >
                <Input style={{ fontFamily: 'monospace' }} placeholder="0 0 2 * * ?" />
              </Form.Item>
              <Flex gap={24} wrap style={{ marginTop: 12 }}>
                <Form.Item name="enabled" label="Active Policy" valuePropName="checked">
                  <Switch disabled={aql} />
                </Form.Item>
                <Form.Item
                  name="skipTrashcan"
                  label="Trash Can"
                  valuePropName="checked"
                  tooltip="Without it, archived artifacts also pass through the trash can, and their hot copies stay until it is emptied."
                >
                  <Checkbox disabled={aql}>Skip the trash can</Checkbox>
                </Form.Item>
              </Flex>
              <Flex gap={24} wrap>
                <Space align="end">
                  <Form.Item name="limitDuration" label="Max Execution Duration" valuePropName="checked">
                    <Switch disabled={aql} />
                  </Form.Item>
                  <Form.Item name="duration" label=" " rules={[{ type: 'integer', min: 1 }]}>
                    <InputNumber min={1} disabled={aql || !current.limitDuration} aria-label="Duration" />
                  </Form.Item>
                  <Form.Item name="durationUnit" label=" ">
                    <Select
                      style={{ width: 110 }}
                      aria-label="Duration unit"
                      disabled={aql || !current.limitDuration}
                      options={Object.keys(DURATION_UNITS).map((u) => ({ value: u, label: u }))}
                    />
                  </Form.Item>
                </Space>
                <Space align="end">
                  <Form.Item name="deleteFromArchive" label="Delete from Archive after" valuePropName="checked">
                    <Switch />
                  </Form.Item>
                  <Form.Item name="expiration" label=" " rules={[{ type: 'integer', min: 1 }]}>
                    <InputNumber min={1} disabled={!current.deleteFromArchive} aria-label="Expiration" />
                  </Form.Item>
                  <Form.Item name="expirationUnit" label=" ">
                    <Select
                      style={{ width: 110 }}
                      aria-label="Expiration unit"
                      disabled={!current.deleteFromArchive}
                      options={Object.keys(EXPIRATION_UNITS).map((u) => ({ value: u, label: u }))}
                    />
                  </Form.Item>
                </Space>
              </Flex>
            </Card>
            <Card
              title="What it archives"
              style={{ marginBottom: 20 }}
              extra={
                <Segmented
                  aria-label="Criteria written as"
                  value={current.basis}
                  options={[
                    { value: 'form', label: 'Form', disabled: aql },
                    { value: 'aql', label: 'AQL' },
                  ]}
                  onChange={(value) => value === 'aql' && !aql && switchToAql()}
                />
              }
            >
              {aql ? (
                <Form.Item
                  name="aqlQuery"
                  label="AQL query"
                  extra='Items only: items.find({…}). Files of local repositories it matches are archived, e.g. items.find({"repo":"libs-local","created":{"$before":"6mo"}}).'
                  rules={[{ required: true, message: RETENTION_MESSAGES.criteriaMissing }]}
                >
                  <Input.TextArea rows={8} style={{ fontFamily: 'monospace' }} spellCheck={false} />
                </Form.Item>
              ) : (
                <>
                  <GroupFields
                    name="include"
                    title="Include"
                    explanation="Files of these repositories that meet the paths, names and properties below (all of them, or any)."
                    repositoryOptions={repositoryOptions}
                    loadingRepositories={repositories.isPending}
                    required
                  />
                  <GroupFields
                    name="exclude"
                    title="Exclude"
                    explanation="Files of these repositories, and files meeting these paths, names and properties (all, or any), are kept."
                    repositoryOptions={repositoryOptions}
                    loadingRepositories={repositories.isPending}
                  />
                  <Typography.Title level={5}>Age</Typography.Title>
                  <AgeField
                    flag="createdBefore"
                    age="created"
                    label="Deployed more than"
                    checked={current.createdBefore}
                  />
                  <AgeField
                    flag="downloadedBefore"
                    age="downloaded"
                    label="Not downloaded for"
                    checked={current.downloadedBefore}
                    note="A file never downloaded counts from its deployment."
                  />
                </>
              )}
            </Card>
          </Col>
          <Col xs={24} xl={10}>
            <PreviewCard state={preview} onRun={(page) => void runPreview(page)} />
          </Col>
        </Row>
        <FormActions
          primary={editing ? 'Save' : 'Create'}
          busy={save.isPending}
          onCancel={() => navigate(`${RETENTION_BASE}/policies`)}
          onReset={unsaved.requestReset}
          resetDisabled={!unsaved.dirty}
        />
      </Form>
      {unsaved.dialog}
    </>
  );
}

function GroupFields({
  name,
  title,
  explanation,
  repositoryOptions,
  loadingRepositories,
  required = false,
}: {
  name: 'include' | 'exclude';
  title: string;
  explanation: string;
  repositoryOptions: { value: string; label: string }[];
  loadingRepositories: boolean;
  required?: boolean;
}) {
  const tags = (label: string, field: keyof Group, placeholder: string) => (
    <Form.Item name={[name, field]} label={label}>
      <Select
        mode="tags"
        placeholder={placeholder}
        tokenSeparators={[',']}
        open={false}
        aria-label={`${title} ${label}`}
        suffixIcon={null}
      />
    </Form.Item>
  );
  return (
    <fieldset style={{ border: 0, padding: 0, margin: '0 0 16px' }}>
      <Flex justify="space-between" align="center">
        <Typography.Title level={5} style={{ margin: 0 }}>
          <legend style={{ fontSize: 'inherit', margin: 0 }}>{title}</legend>
        </Typography.Title>
        <Form.Item name={[name, 'operator']} style={{ margin: 0 }}>
          <Radio.Group
            optionType="button"
            size="small"
            aria-label={`${title}: combine paths, names and properties`}
            options={[
              { value: 'and', label: 'All of' },
              { value: 'or', label: 'Any of' },
            ]}
          />
        </Form.Item>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ marginTop: 4 }}>
        {explanation}
      </Typography.Paragraph>
      <Form.Item
        name={[name, 'repositories']}
        label="Repositories"
        rules={
          required ? [{ required: true, type: 'array', min: 1, message: RETENTION_MESSAGES.repositoryMissing }] : []
        }
      >
        <Select
          mode="multiple"
          options={repositoryOptions}
          loading={loadingRepositories}
          placeholder="Local repositories"
          aria-label={`${title} repositories`}
          optionFilterProp="label"
        />
      </Form.Item>
      <Row gutter={12}>
        <Col xs={24} md={8}>
          {tags('Paths', 'paths', 'com/acme/*')}
        </Col>
        <Col xs={24} md={8}>
          {tags('Names', 'names', '*.jar')}
        </Col>
        <Col xs={24} md={8}>
          {tags('Properties', 'properties', 'keep=true')}
        </Col>
      </Row>
    </fieldset>
  );
}

function AgeField({
  flag,
  age,
  label,
  checked,
  note,
}: {
  flag: 'createdBefore' | 'downloadedBefore';
  age: 'created' | 'downloaded';
  label: string;
  checked: boolean;
  note?: string;
}) {
  return (
    <Space align="baseline" wrap>
      <Form.Item name={flag} valuePropName="checked">
        <Checkbox>{label}</Checkbox>
      </Form.Item>
      <Form.Item name={[age, 'value']} rules={[{ type: 'integer', min: 1 }]}>
        <InputNumber min={1} disabled={!checked} aria-label={`${label}: amount`} />
      </Form.Item>
      <Form.Item name={[age, 'unit']}>
        <Select
          style={{ width: 110 }}
          disabled={!checked}
          aria-label={`${label}: unit`}
          options={AGE_UNITS.map((u) => ({ value: u, label: u }))}
        />
      </Form.Item>
      {note && <Typography.Text type="secondary">{note}</Typography.Text>}
    </Space>
  );
}

function PreviewCard({
  state,
  onRun,
}: {
  state: { answer?: PreviewAnswer; error?: string; loading: boolean; page: number };
  onRun: (page: number) => void;
}) {
  const { answer } = state;
  return (
    <Card
      title="Preview"
      extra={
        <Button icon={<EyeOutlined />} onClick={() => onRun(1)} loading={state.loading && !answer}>
          {answer ? 'Refresh' : 'Preview'}
        </Button>
      }
      style={{ marginBottom: 20 }}
    >
      {state.error && <Alert type="error" showIcon message={state.error} style={{ marginBottom: 12 }} />}
      {!answer && !state.error && (
        <Typography.Paragraph type="secondary">
          Preview lists every artifact the policy would archive if it ran now, with its size and when it was last
          downloaded.
        </Typography.Paragraph>
      )}
      {answer && (
        <>
          <Descriptions size="small" column={2} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="Artifacts">{answer.count.toLocaleString()}</Descriptions.Item>
            <Descriptions.Item label="Total size">{formatBytes(answer.totalSize)}</Descriptions.Item>
          </Descriptions>
          <Table<PreviewItem>
            size="small"
            rowKey={(row) => `${row.repoKey}/${row.path}`}
            loading={state.loading}
            dataSource={answer.items}
            aria-label="Artifacts the policy would archive"
            tableLayout="fixed"
            pagination={{
              current: state.page,
              pageSize: PREVIEW_PAGE,
              total: answer.count,
              showSizeChanger: false,
              onChange: onRun,
              hideOnSinglePage: true,
            }}
            locale={{ emptyText: 'The policy takes nothing now.' }}
            columns={[
              {
                title: 'Artifact',
                key: 'path',
                render: (_: unknown, row) => (
                  <Typography.Text ellipsis={{ tooltip: `${row.repoKey}/${row.path}` }} style={{ maxWidth: 240 }}>
                    {`${row.repoKey}/${row.path}`}
                  </Typography.Text>
                ),
              },
              {
                title: 'Size',
                dataIndex: 'size',
                width: 84,
                render: (size: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatBytes(size)}</span>,
              },
              {
                title: 'Downloaded',
                dataIndex: 'lastDownloaded',
                width: 110,
                render: (at: number | null) => (at ? formatDate(new Date(at).toISOString()) : 'Never'),
              },
            ]}
          />
        </>
      )}
    </Card>
  );
}
