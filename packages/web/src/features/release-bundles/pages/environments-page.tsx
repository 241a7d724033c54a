import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { environmentNameSchema, type Environment } from '@arca/contracts';
import { ApiError } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { PageHeader } from '../../../components/page-header';
import { QueryTable } from '../../../components/query-table';
import { RowActions } from '../../../components/row-actions';
import { schemaField } from '../../../lib/schema-rules';
import { useRepositories } from '../../../lib/queries/repositories';
import { useEnvironments, useSaveEnvironment } from '../api/release-bundles';

interface Values {
  name: string;
  description: string;
  repositories: string[];
}

function EnvironmentDialog({ editing, onClose }: { editing: Environment | 'new'; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const repositories = useRepositories();
  const save = useSaveEnvironment();
  const [errors, setErrors] = useState<string[]>([]);
  const isNew = editing === 'new';
  const submit = async () => {
    const values = await form.validateFields();
    setErrors([]);
    try {
      await save.create.mutateAsync(isNew ? values : { ...values, name: editing.name, existing: true });
      notifySuccess(`Environment ${isNew ? values.name : editing.name} was saved.`);
      onClose();
    } catch (error) {
      setErrors(error instanceof ApiError ? error.messages : [String(error)]);
    }
  };
  return (
    <Modal
      open
      title={isNew ? 'New environment' : `Edit ${editing.name}`}
      okText="Save"
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={save.create.isPending}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          isNew ? { name: '', description: '', repositories: [] } : { ...editing, repositories: editing.repositories }
        }
      >
        {isNew && (
          <Form.Item label="Name" name="name" {...schemaField(environmentNameSchema)}>
            <Input placeholder="STAGING" autoComplete="off" />
          </Form.Item>
        )}
        <Form.Item label="Description" name="description">
          <Input placeholder="What this stage is for" />
        </Form.Item>
        <Form.Item
          label="Repositories"
          name="repositories"
          extra="Promoting a release bundle here copies each artifact into the repository of its package type (a generic one takes any)."
        >
          <Select
            mode="multiple"
            aria-label="Repositories"
            loading={repositories.isPending}
            placeholder="Choose local repositories"
            options={(repositories.data ?? [])
              .filter((r) => r.rclass === 'local')
              .map((r) => ({ value: r.key, label: `${r.key} (${r.packageType})` }))}
          />
        </Form.Item>
      </Form>
      <ErrorList messages={errors} />
    </Modal>
  );
}

/** `/admin/environments`: the stages releases are promoted through, in order, with their repositories. */
export function EnvironmentsPage() {
  const environments = useEnvironments();
  const save = useSaveEnvironment();
  const [editing, setEditing] = useState<Environment | 'new'>();
  return (
    <>
      <PageHeader
        title="Environments"
        description="The stages a release bundle is promoted through, in order. Each holds the repositories a promotion copies into."
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            New Environment
          </Button>
        }
      />
      <QueryTable<Environment>
        rowKey="name"
        query={environments}
        rows={environments.data}
        noun={['environment', 'environments']}
        emptyText="No environment yet. Add the stages your releases go through, such as DEV, QA and PROD."
        columns={[
          {
            title: 'Name',
            dataIndex: 'name',
            render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
          },
          { title: 'Description', dataIndex: 'description' },
          {
            title: 'Repositories',
            dataIndex: 'repositories',
            render: (repos: string[]) =>
              repos.length ? (
                <Space size={4} wrap>
                  {repos.map((r) => (
                    <Typography.Text key={r} code>
                      {r}
                    </Typography.Text>
                  ))}
                </Space>
              ) : (
                <Typography.Text type="secondary">none yet: promotions here are refused</Typography.Text>
              ),
          },
          {
            title: 'Actions',
            key: 'actions',
            width: 120,
            render: (_: unknown, e) => (
              <RowActions
                what={`environment ${e.name}`}
                onEdit={() => setEditing(e)}
                remove={{
                  run: () => save.remove.mutateAsync(e.name),
                  consequence: 'Release bundles promoted here keep their records; the repositories keep their files.',
                  deleted: `Environment ${e.name} was deleted.`,
                }}
              />
            ),
          },
        ]}
      />
      {editing && <EnvironmentDialog editing={editing} onClose={() => setEditing(undefined)} />}
    </>
  );
}
