import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Form, Input, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  DEFAULT_LIST_PAGE_SIZE,
  DEFAULT_PROJECT,
  PROJECT_MESSAGES,
  projectFormSchema,
  type Project,
  type ProjectForm,
} from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { PageHeader } from '../../../components/page-header';
import { useCreateProject, useDeleteProject, useProjects } from '../api/projects';
import { isoOf, useProjectBuilds } from '../../builds';
import { formatRelative } from '../../../components/time';
import { selectProject } from '../../../lib/selected-project';
import { schemaField } from '../../../lib/schema-rules';
import { runSafely } from '../../../api/client';
import { plural } from '../../../components/format';
import { ListEmpty } from '../../../components/list-empty';

function NewProjectModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<ProjectForm>();
  const create = useCreateProject();
  const { shape } = projectFormSchema;
  return (
    <FormModal<ProjectForm>
      open={open}
      title="New Project"
      okText="Create"
      form={form}
      failureText={PROJECT_MESSAGES.createFailed}
      onSubmit={async (values) => {
        const project = await create.mutateAsync(values);
        notifySuccess(`Project ${project.displayName} was created`);
        form.resetFields();
      }}
      onClose={onClose}
    >
      <Form.Item label="Display name" name="displayName" initialValue="" {...schemaField(shape.displayName)}>
        <Input autoFocus placeholder="e.g. Web Shop" />
      </Form.Item>
      <Form.Item
        label="Project key"
        name="projectKey"
        initialValue=""
        extra="Lowercase letters and digits, starting with a letter; it cannot change later."
        {...schemaField(shape.projectKey)}
      >
        <Input placeholder="e.g. webshop" />
      </Form.Item>
      <Form.Item label="Description" name="description" initialValue="" {...schemaField(shape.description)}>
        <Input.TextArea rows={2} maxLength={2048} />
      </Form.Item>
    </FormModal>
  );
}

/** Projects of this deployment (administrators): create, open the settings, delete. */
export function ProjectsPage() {
  const projects = useProjects();
  const builds = useProjectBuilds();
  const remove = useDeleteProject();
  const { modal } = App.useApp();
  const [creating, setCreating] = useState(false);
  const confirmDelete = (p: Project) =>
    modal.confirm({
      title: `Delete project ${p.displayName}?`,
      content: `Its ${p.repositories.length} repositor${p.repositories.length === 1 ? 'y stays' : 'ies stay'}, without a project; its ${p.members.length} member${p.members.length === 1 ? '' : 's'} lose the rights the project gave them.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        runSafely(() => remove.mutateAsync(p.projectKey).then(() => notifySuccess(`Deleted project ${p.displayName}`))),
    });
  return (
    <>
      <PageHeader
        title="Projects"
        description="Group repositories and the people who work on them; project admins manage their own project."
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            New Project
          </Button>
        }
      />
      <Card>
        <Table<Project>
          rowKey="projectKey"
          loading={projects.isPending}
          dataSource={projects.data ?? []}
          pagination={{ pageSize: DEFAULT_LIST_PAGE_SIZE, hideOnSinglePage: true }}
          locale={{
            emptyText: (
              <ListEmpty query={projects} what="The projects">
                <Empty description="No projects yet. Create one to give a team its own repositories, members and roles." />
              </ListEmpty>
            ),
          }}
          columns={[
            {
              title: 'Project',
              dataIndex: 'displayName',
              sorter: (a, b) => a.displayName.localeCompare(b.displayName),
              render: (name: string, p) => (
                <Link
                  to={`/projects/${encodeURIComponent(p.projectKey)}/general`}
                  onClick={() => selectProject(p.projectKey)}
                  style={{ fontWeight: 600 }}
                >
                  {name}
                </Link>
              ),
            },
            {
              title: 'Key',
              dataIndex: 'projectKey',
              render: (k: string) => <Typography.Text code>{k}</Typography.Text>,
            },
            { title: 'Repositories', key: 'repos', render: (_: unknown, p) => p.repositories.length },
            { title: 'Members', key: 'members', render: (_: unknown, p) => p.members.length },
            {
              title: 'Builds',
              key: 'builds',
              render: (_: unknown, p) => {
                const counted = builds.data?.find((b) => b.projectKey === p.projectKey);
                if (!counted) return builds.isPending ? '…' : 0;
                return (
                  <Tooltip
                    title={`${plural(counted.runs, 'run')}, the newest ${formatRelative(isoOf(counted.lastStarted))}`}
                  >
                    <Link to="/builds" onClick={() => selectProject(p.projectKey)}>
                      {counted.builds}
                    </Link>
                  </Tooltip>
                );
              },
            },
            {
              title: 'Actions',
              key: 'delete',
              align: 'right',
              render: (_: unknown, p) =>
                p.projectKey === DEFAULT_PROJECT.key ? (
                  <Tooltip title={PROJECT_MESSAGES.defaultProject}>
                    <Button type="text" icon={<DeleteOutlined />} disabled aria-label={`Delete ${p.displayName}`} />
                  </Tooltip>
                ) : (
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    onClick={() => confirmDelete(p)}
                    aria-label={`Delete ${p.displayName}`}
                  />
                ),
            },
          ]}
        />
      </Card>
      <NewProjectModal open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
