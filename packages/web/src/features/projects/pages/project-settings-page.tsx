import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Flex, Form, Input, Select, Skeleton, Space, Table, Typography } from 'antd';
import { ApiError, runSafely } from '../../../api/client';
import { useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { NotFoundResult } from '../../../components/not-found-result';
import { LoadError } from '../../../components/load-error';
import {
  PACKAGE_TYPES,
  packageTypeLabel,
  type Project,
  PROJECT_ROLE_DESCRIPTIONS,
  PROJECT_ROLE_LABELS,
  PROJECT_ROLES,
  projectFormSchema,
  type ProjectMember,
  projectRepositorySchema,
  type ProjectRole,
} from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { useStartupData } from '../../../lib/startup';
import { ErrorList } from '../../../components/error-list';
import { PageHeader } from '../../../components/page-header';
import { useGroups, useUsers } from '../../../lib/queries/directory';
import { useRepositories } from '../../../lib/queries/repositories';
import { PROJECT_SECTIONS } from '../sections';
import {
  useCreateProjectRepository,
  useAssignRepositories,
  useProject,
  useSetMembers,
  useUpdateProject,
} from '../api/projects';
import { useServerErrors } from '../../../lib/server-errors';
import { schemaField } from '../../../lib/schema-rules';

function General({ project }: { project: Project }) {
  const update = useUpdateProject(project.projectKey);
  const { errors, capture } = useServerErrors();
  return (
    <Card style={{ maxWidth: 640 }}>
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form
        layout="vertical"
        initialValues={{ displayName: project.displayName, description: project.description }}
        onFinish={(v: { displayName: string; description: string }) =>
          update.mutate(v, {
            onSuccess: () => notifySuccess('The project was saved'),
            onError: (e) => capture(e),
          })
        }
      >
        <Form.Item label="Project key">
          <Typography.Text code>{project.projectKey}</Typography.Text>
        </Form.Item>
        <Form.Item label="Display name" name="displayName" {...schemaField(projectFormSchema.shape.displayName)}>
          <Input />
        </Form.Item>
        <Form.Item label="Description" name="description">
          <Input.TextArea rows={3} maxLength={2048} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          Save
        </Button>
      </Form>
    </Card>
  );
}

function Members({ project }: { project: Project }) {
  const { user } = useStartupData();
  // only administrators may list users and groups; project admins type names
  const users = useUsers(user?.admin ?? false);
  const groups = useGroups(user?.admin ?? false);
  const save = useSetMembers(project.projectKey);
  const { modal } = App.useApp();
  const [adding, setAdding] = useState<{ type: 'user' | 'group'; name?: string; role: ProjectRole }>({
    type: 'user',
    role: 'developer',
  });
  const { errors, clear, capture } = useServerErrors();
  const apply = (members: ProjectMember[], message: string) =>
    save.mutate(members, {
      onSuccess: () => {
        clear();
        setAdding((a) => ({ ...a, name: undefined }));
        notifySuccess(message);
      },
      onError: (e) => capture(e),
    });
  const candidates = (
    adding.type === 'user' ? (users.data ?? []).map((u) => u.name) : (groups.data ?? []).map((g) => g.name)
  ).filter((n) => !project.members.some((m) => m.type === adding.type && m.name === n));
  return (
    <Card>
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label="Member kind"
          value={adding.type}
          style={{ width: 110 }}
          onChange={(type: 'user' | 'group') => setAdding({ ...adding, type, name: undefined })}
          options={[
            { value: 'user', label: 'User' },
            { value: 'group', label: 'Group' },
          ]}
        />
        <Select
          showSearch
          aria-label="Member name"
          placeholder={`Choose a ${adding.type}`}
          style={{ width: 240 }}
          value={adding.name ?? null}
          onChange={(name: string) => setAdding({ ...adding, name })}
          options={candidates.map((n) => ({ value: n, label: n }))}
          notFoundContent={
            user?.admin ? `No ${adding.type}s left` : 'Ask an administrator to add members you cannot see'
          }
        />
        <Select
          aria-label="Role"
          value={adding.role}
          style={{ width: 160 }}
          onChange={(role: ProjectRole) => setAdding({ ...adding, role })}
          options={PROJECT_ROLES.map((r) => ({
            value: r,
            label: PROJECT_ROLE_LABELS[r],
            title: PROJECT_ROLE_DESCRIPTIONS[r],
          }))}
        />
        <Button
          icon={<PlusOutlined />}
          disabled={!adding.name}
          loading={save.isPending}
          onClick={() =>
            apply(
              [...project.members, { type: adding.type, name: adding.name!, role: adding.role }],
              `${adding.name} was added as ${PROJECT_ROLE_LABELS[adding.role]}`,
            )
          }
        >
          Add member
        </Button>
      </Space>
      <Table<ProjectMember>
        rowKey={(m) => `${m.type}:${m.name}`}
        dataSource={project.members}
        pagination={false}
        locale={{
          emptyText: <Empty description="No members yet. Add the users and groups who work on this project." />,
        }}
        columns={[
          { title: 'Name', dataIndex: 'name', render: (n: string) => <strong>{n}</strong> },
          { title: 'Kind', dataIndex: 'type', render: (t: string) => (t === 'user' ? 'User' : 'Group') },
          {
            title: 'Role',
            dataIndex: 'role',
            render: (role: ProjectRole, m) => (
              <Select
                aria-label={`Role of ${m.name}`}
                value={role}
                style={{ width: 160 }}
                onChange={(next: ProjectRole) =>
                  apply(
                    project.members.map((x) => (x.type === m.type && x.name === m.name ? { ...x, role: next } : x)),
                    `${m.name} is now ${PROJECT_ROLE_LABELS[next]}`,
                  )
                }
                options={PROJECT_ROLES.map((r) => ({ value: r, label: PROJECT_ROLE_LABELS[r] }))}
              />
            ),
          },
          {
            title: 'May',
            dataIndex: 'role',
            key: 'may',
            render: (role: ProjectRole) => PROJECT_ROLE_DESCRIPTIONS[role],
          },
          {
            title: 'Actions',
            key: 'remove',
            align: 'right',
            render: (_: unknown, m) => (
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={`Remove ${m.name}`}
                onClick={() =>
                  modal.confirm({
                    title: `Remove ${m.name} from ${project.displayName}?`,
                    content: 'The rights this project gave are gone from the next request.',
                    okText: 'Remove',
                    okButtonProps: { danger: true },
                    onOk: () =>
                      apply(
                        project.members.filter((x) => !(x.type === m.type && x.name === m.name)),
                        `${m.name} was removed`,
                      ),
                  })
                }
              />
            ),
          },
        ]}
      />
    </Card>
  );
}

/** Creates a local repository in the project (project admins and administrators). */
function NewProjectRepository({ project }: { project: Project }) {
  const create = useCreateProjectRepository(project.projectKey);
  const [form] = Form.useForm<{ key: string; packageType: string }>();
  const { errors, clear, capture } = useServerErrors();
  return (
    <div style={{ marginBottom: 20 }}>
      <Typography.Title level={5}>New repository in this project</Typography.Title>
      <ErrorList messages={errors} style={{ marginBottom: 12 }} />
      <Form
        form={form}
        layout="inline"
        initialValues={{ key: `${project.projectKey}-`, packageType: 'generic' }}
        onFinish={(v) =>
          create.mutate(
            { key: v.key.trim(), packageType: v.packageType },
            {
              onSuccess: () => {
                clear();
                notifySuccess(`Repository ${v.key.trim()} was created in ${project.displayName}`);
                form.resetFields();
              },
              onError: (e) => capture(e),
            },
          )
        }
      >
        <Form.Item label="Repository key" name="key" {...schemaField(projectRepositorySchema.shape.key)}>
          <Input style={{ width: 240 }} />
        </Form.Item>
        <Form.Item label="Package type" name="packageType">
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 180 }}
            aria-label="Package type"
            options={PACKAGE_TYPES.map((t) => ({ value: t, label: packageTypeLabel(t) }))}
          />
        </Form.Item>
        <Button htmlType="submit" icon={<PlusOutlined />} loading={create.isPending}>
          Create local repository
        </Button>
      </Form>
    </div>
  );
}

function Repositories({ project }: { project: Project }) {
  const { user } = useStartupData();
  const all = useRepositories(user?.admin ?? false);
  const assign = useAssignRepositories();
  const { modal } = App.useApp();
  const [chosen, setChosen] = useState<string[]>([]);
  const free = (all.data ?? []).filter((r) => !project.repositories.includes(r.key));
  return (
    <Card>
      <NewProjectRepository project={project} />
      {user?.admin ? (
        <Space wrap style={{ marginBottom: 16 }}>
          <Select
            mode="multiple"
            aria-label="Repositories to add"
            placeholder="Choose repositories"
            style={{ minWidth: 320 }}
            value={chosen}
            onChange={setChosen}
            options={free.map((r) => ({ value: r.key, label: `${r.key} (${r.rclass})` }))}
          />
          <Button
            icon={<PlusOutlined />}
            disabled={!chosen.length}
            loading={assign.isPending}
            onClick={() =>
              assign.mutate(
                { projectKey: project.projectKey, repositories: chosen },
                {
                  onSuccess: () => {
                    notifySuccess(`Added ${chosen.join(', ')}`);
                    setChosen([]);
                  },
                },
              )
            }
          >
            Add to project
          </Button>
        </Space>
      ) : (
        <Typography.Paragraph type="secondary">
          An administrator adds existing repositories to projects.
        </Typography.Paragraph>
      )}
      <Table
        rowKey="key"
        dataSource={project.repositories.map((key) => ({ key }))}
        pagination={false}
        locale={{ emptyText: <Empty description="No repositories in this project yet." /> }}
        columns={[
          { title: 'Repository', dataIndex: 'key', render: (k: string) => <strong>{k}</strong> },
          {
            title: 'Actions',
            key: 'remove',
            align: 'right',
            render: (_: unknown, r: { key: string }) => (
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={`Remove ${r.key} from the project`}
                onClick={() =>
                  modal.confirm({
                    title: `Take ${r.key} out of ${project.displayName}?`,
                    content:
                      'The repository and its content stay; project members lose the rights the project gave them on it.',
                    okText: 'Take out',
                    okButtonProps: { danger: true },
                    onOk: () =>
                      runSafely(() =>
                        assign
                          .mutateAsync({ projectKey: null, repositories: [r.key] })
                          .then(() => notifySuccess(`${r.key} is no longer in ${project.displayName}`)),
                      ),
                  })
                }
              />
            ),
          },
        ]}
      />
    </Card>
  );
}

/** Project Settings (spec part 1 §2 sidebars): general, members, repositories of one project. */
export function ProjectSettingsPage() {
  const { key, section = 'general' } = useParams();
  const project = useProject(key);
  const { user: me } = useStartupData();
  const label = PROJECT_SECTIONS.find((s) => s.key === section)?.label ?? 'General';
  if (project.isPending) return <Skeleton active />;
  const status = project.error instanceof ApiError ? project.error.status : undefined;
  // the server does not tell a non-member whether a project exists: for them both are not authorised
  if (project.isError && (status !== 404 || me?.admin) && status !== 403)
    return status === 404 ? (
      <NotFoundResult
        title={`Project '${key ?? ''}' was not found`}
        backTo="/admin/projects"
        backLabel="Back to Projects"
      />
    ) : (
      <LoadError page what="The project" error={project.error} onRetry={() => void project.refetch()} />
    );
  if (project.isError || !project.data.isCurrentUserProjectAdmin)
    return (
      <Navigate
        to="/authorization"
        replace
        state={{ message: `Only the administrators of project ${key ?? ''} may open its settings.` }}
      />
    );
  const p = project.data;
  return (
    <>
      <PageHeader
        title={`${p.displayName} · ${label}`}
        description={
          <Flex gap={8}>
            Project <Typography.Text code>{p.projectKey}</Typography.Text>
          </Flex>
        }
      />
      {section === 'members' ? (
        <Members project={p} />
      ) : section === 'repositories' ? (
        <Repositories project={p} />
      ) : (
        <General project={p} />
      )}
    </>
  );
}
