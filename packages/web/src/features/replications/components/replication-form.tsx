import { Checkbox, Col, Form, Input, Radio, Row, Select, Space, Switch } from 'antd';
import { REPLICATION_MESSAGES, replicationBodySchema, type Replication, type ReplicationBody } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { schemaField } from '../../../lib/schema-rules';
import { useDeployments } from '../../deployments';
import { useRepositories } from '../../../lib/queries/repositories';
import { useReplicationActions } from '../api/replications';

/** The form that adds or changes a replication; its fields are checked by the API's own schema. */
const fields = replicationBodySchema.shape;

export interface FormValues extends Omit<ReplicationBody, 'include_patterns' | 'exclude_patterns'> {
  include_patterns: string[];
  exclude_patterns: string[];
}

export function ReplicationForm({
  editing,
  onClose,
}: {
  editing: Replication | 'new' | undefined;
  onClose: () => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const actions = useReplicationActions();
  const deployments = useDeployments();
  const repositories = useRepositories();
  const strategy = Form.useWatch('strategy', form);
  const existing = editing && editing !== 'new' ? editing : undefined;
  return (
    <FormModal<FormValues>
      open={Boolean(editing)}
      title={existing ? `Edit replication ${existing.key}` : 'New Replication'}
      okText={existing ? 'Save' : 'Create'}
      form={form}
      width={720}
      failureText={existing ? 'Update failed' : 'The replication could not be created'}
      onClose={onClose}
      initialValues={
        existing ?? {
          strategy: 'push',
          cron: '0 0 2 * * *',
          event_based: false,
          enabled: true,
          sync_deletes: false,
          sync_properties: true,
          include_patterns: [],
          exclude_patterns: [],
        }
      }
      onSubmit={async (values) => {
        if (existing) await actions.update.mutateAsync({ ...values, key: existing.key });
        else await actions.create.mutateAsync(values);
        notifySuccess(REPLICATION_MESSAGES.saved);
      }}
    >
      <Form.Item name="key" label="Name" {...schemaField(fields.key)}>
        <Input disabled={Boolean(existing)} placeholder="libs-to-eu" />
      </Form.Item>
      <Form.Item name="strategy" label="Strategy">
        <Radio.Group
          options={[
            { value: 'push', label: 'Push: this deployment sends to the other' },
            { value: 'pull', label: 'Pull: this deployment fetches from the other' },
          ]}
        />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="repo_key" label="Local repository (here)" {...schemaField(fields.repo_key)}>
            <Select
              showSearch
              options={(repositories.data ?? [])
                .filter((r) => r.rclass === 'local')
                .map((r) => ({ value: r.key, label: r.key }))}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="deployment_id" label="Deployment" {...schemaField(fields.deployment_id)}>
            <Select options={(deployments.data ?? []).map((d) => ({ value: d.id, label: d.name }))} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="remote_repo_key"
        label="Repository on the deployment"
        {...schemaField(fields.remote_repo_key)}
        extra="A local repository of the other deployment."
      >
        <Input />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="cron" label="Schedule (cron, seconds first)" extra="Empty: no schedule.">
            <Input placeholder="0 0 2 * * *" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="event_based" valuePropName="checked" label="On every change">
            <Switch disabled={strategy === 'pull'} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="include_patterns" label="Include paths" extra="Ant patterns (org/**); none: every path.">
            <Select mode="tags" aria-label="Include paths" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="exclude_patterns" label="Exclude paths">
            <Select mode="tags" aria-label="Exclude paths" />
          </Form.Item>
        </Col>
      </Row>
      <Space size="large">
        <Form.Item name="sync_deletes" valuePropName="checked" noStyle>
          <Checkbox>Delete what is gone from the source</Checkbox>
        </Form.Item>
        <Form.Item name="sync_properties" valuePropName="checked" noStyle>
          <Checkbox>Copy properties</Checkbox>
        </Form.Item>
        <Form.Item name="enabled" valuePropName="checked" noStyle>
          <Checkbox>Enabled</Checkbox>
        </Form.Item>
      </Space>
    </FormModal>
  );
}
