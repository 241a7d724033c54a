import { DeleteOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Checkbox,
  Col,
  Empty,
  Flex,
  Form,
  Input,
  Row,
  Select,
  Skeleton,
  Switch,
  Table,
  Tabs,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  ANY_REPOSITORY_CHOICES,
  PERMISSION_ACTIONS,
  PERMISSION_ACTION_LABELS,
  PERMISSION_RESOURCE_LABELS,
  PERMISSION_RESOURCES,
  permissionTargetFormSchema,
  type PermissionAction,
  type PermissionResource,
  type PermissionResourceKind,
  type PermissionTargetForm,
} from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { PageHeader } from '../../../components/page-header';
import { ThingLoadError } from '../../../components/load-error';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { useGroups, useUsers } from '../../../lib/queries/directory';
import { useBuildNames } from '../../builds';
import { BuildPatternsPreview } from '../../builds';
import { useRepositories } from '../../../lib/queries/repositories';
import { toggleAction } from '../actions';
import { usePermission, usePermissions, useSavePermission } from '../api/permissions';
import { nameProblem } from '../../../lib/name-rules';
import { useServerErrors } from '../../../lib/server-errors';
import { FormActions } from '../../../components/form-actions';

type Draft = { name: string } & Record<PermissionResourceKind, PermissionResource | null>;

const EMPTY_RESOURCE = (kind: PermissionResourceKind): PermissionResource => ({
  repositories: kind === 'build' ? ['artifactory-build-info'] : kind === 'releaseBundle' ? ['release-bundles'] : [],
  includes: ['**'],
  excludes: [],
  users: {},
  groups: {},
});

const EMPTY: Draft = { name: '', repo: EMPTY_RESOURCE('repo'), build: null, releaseBundle: null };

/** The table of principals of one resource, with one checkbox per action. */
function PrincipalTable({
  kind,
  entries,
  candidates,
  onChange,
  resourceLabel,
}: {
  kind: 'user' | 'group';
  entries: Record<string, PermissionAction[]>;
  candidates: string[];
  onChange: (next: Record<string, PermissionAction[]>) => void;
  resourceLabel: string;
}) {
  const names = Object.keys(entries).sort();
  const free = candidates.filter((c) => !(c in entries));
  return (
    <>
      <Select
        showSearch
        value={null}
        placeholder={`Add a ${kind}…`}
        aria-label={`Add a ${kind} to ${resourceLabel}`}
        style={{ width: 280, marginBottom: 12 }}
        options={free.map((n) => ({ value: n, label: n }))}
        onChange={(name: string) => onChange({ ...entries, [name]: ['read'] })}
        notFoundContent={`No ${kind}s left to add`}
      />
      <Table<{ name: string; actions: PermissionAction[] }>
        size="small"
        rowKey="name"
        pagination={false}
        dataSource={names.map((name) => ({ name, actions: entries[name] ?? [] }))}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`No ${kind}s have rights here yet.`} />,
        }}
        columns={[
          { title: kind === 'user' ? 'User' : 'Group', dataIndex: 'name' },
          ...PERMISSION_ACTIONS.map((action) => ({
            title: PERMISSION_ACTION_LABELS[action],
            key: action,
            align: 'center' as const,
            render: (_: unknown, row: { name: string; actions: PermissionAction[] }) => (
              <Checkbox
                aria-label={`${PERMISSION_ACTION_LABELS[action]} for ${row.name}`}
                checked={row.actions.includes(action)}
                onChange={(e) =>
                  onChange({ ...entries, [row.name]: toggleAction(row.actions, action, e.target.checked) })
                }
              />
            ),
          })),
          {
            title: 'Actions',
            key: 'remove',
            width: 48,
            render: (_: unknown, row: { name: string }) => (
              <Button
                type="text"
                icon={<DeleteOutlined />}
                aria-label={`Remove ${row.name}`}
                onClick={() => {
                  const next = { ...entries };
                  delete next[row.name];
                  onChange(next);
                }}
              />
            ),
          },
        ]}
      />
    </>
  );
}

/** New permission target (`admin.management.permissions.new`) or edit one (`.edit`). */
export function PermissionFormPage() {
  const { name: editName } = useParams();
  const existing = usePermission(editName);
  const initial = useMemo<Draft>(() => (existing.data ? { ...existing.data } : EMPTY), [existing.data]);
  if (editName && existing.isPending) return <Skeleton active />;
  if (editName && existing.isError)
    return (
      <ThingLoadError
        what={`Permission '${editName}'`}
        error={existing.error}
        onRetry={() => void existing.refetch()}
        backTo="/admin/management/permissions"
        backLabel="Back to Permissions"
      />
    );
  return <PermissionEditor key={`${editName ?? ''}:${existing.dataUpdatedAt}`} editName={editName} initial={initial} />;
}

function PermissionEditor({ editName, initial }: { editName: string | undefined; initial: Draft }) {
  const navigate = useNavigate();
  const repositories = useRepositories();
  const users = useUsers();
  const groups = useGroups();
  const permissions = usePermissions();
  const buildNames = useBuildNames();
  const save = useSavePermission(editName);
  const [draft, setDraft] = useState<Draft>(initial);
  const { errors, clear, capture } = useServerErrors();
  const [saved, setSaved] = useState(false);
  const [nameError, setNameError] = useState<string | undefined>();
  // declared after the guard, so that the guard knows the page was saved before it navigates
  const unsaved = useUnsavedChanges({ initial, current: draft, onReset: () => setDraft(initial), enabled: !saved });
  useEffect(() => {
    if (saved) navigate('/admin/management/permissions');
  }, [saved, navigate]);

  const setResource = (kind: PermissionResourceKind, resource: PermissionResource | null) =>
    setDraft((d) => ({ ...d, [kind]: resource }));
  const repoOptions = [
    ...ANY_REPOSITORY_CHOICES.map((c) => ({ value: c, label: `${c[0]}${c.slice(1).toLowerCase()} repository` })),
    ...(repositories.data ?? []).map((r) => ({ value: r.key, label: `${r.key} (${r.rclass})` })),
  ];

  const submit = () => {
    clear();
    const name = editName ?? draft.name.trim();
    const problem = editName
      ? undefined
      : nameProblem(name, {
          schema: permissionTargetFormSchema.shape.name,
          existing: (permissions.data ?? []).map((p) => p.name),
        });
    if (problem) {
      setNameError(problem);
      return;
    }
    setNameError(undefined);
    const form: PermissionTargetForm = {
      name,
      repo: draft.repo,
      build: draft.build,
      releaseBundle: draft.releaseBundle,
    };
    save.mutate(form, {
      onSuccess: (target) => {
        notifySuccess(`Permission ${target.name} was ${editName ? 'updated' : 'created'}`);
        setSaved(true);
      },
      onError: (error) => capture(error),
    });
  };

  return (
    <>
      <PageHeader
        title={editName ? `Edit ${editName}` : 'New Permission'}
        description="Choose the resources, then who may do what with them. Rights add up across permissions and groups."
      />
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Card style={{ marginBottom: 20 }}>
        <Form layout="vertical">
          <Form.Item
            label="Permission name"
            required
            validateStatus={nameError ? 'error' : undefined}
            help={nameError}
            style={{ marginBottom: 0, maxWidth: 480 }}
          >
            <Input
              value={editName ?? draft.name}
              disabled={Boolean(editName)}
              autoFocus={!editName}
              placeholder="e.g. developers-deploy"
              onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
              aria-label="Permission name"
            />
          </Form.Item>
        </Form>
      </Card>
      <Tabs
        items={PERMISSION_RESOURCES.map((kind) => {
          const resource = draft[kind];
          const label = PERMISSION_RESOURCE_LABELS[kind];
          return {
            key: kind,
            label: (
              <span>
                {label}
                {resource ? ' ●' : ''}
              </span>
            ),
            children: (
              <Card>
                <Flex align="center" gap={12} style={{ marginBottom: resource ? 20 : 0 }}>
                  <Switch
                    checked={Boolean(resource)}
                    onChange={(on) => setResource(kind, on ? EMPTY_RESOURCE(kind) : null)}
                    aria-label={`Grant rights on ${label.toLowerCase()}`}
                  />
                  <Typography.Text>
                    {resource
                      ? `This permission covers ${label.toLowerCase()}.`
                      : `Not used for ${label.toLowerCase()}.`}
                  </Typography.Text>
                </Flex>
                {resource && (
                  <>
                    <Row gutter={20}>
                      {kind === 'repo' && (
                        <Col xs={24} xl={8}>
                          <Form.Item label="Repositories" layout="vertical" required>
                            <Select
                              mode="multiple"
                              aria-label="Repositories"
                              placeholder="Choose repositories"
                              value={resource.repositories}
                              loading={repositories.isPending}
                              options={repoOptions}
                              onChange={(repos: string[]) => setResource(kind, { ...resource, repositories: repos })}
                            />
                          </Form.Item>
                        </Col>
                      )}
                      <Col xs={24} xl={kind === 'repo' ? 8 : 12}>
                        <Form.Item
                          label="Include patterns"
                          layout="vertical"
                          extra={
                            kind === 'build'
                              ? 'Build names as Ant patterns, e.g. app-build/** or release-*/**'
                              : 'Ant patterns, e.g. org/acme/** or **/*.jar'
                          }
                        >
                          <Select
                            mode="tags"
                            aria-label={`Include patterns for ${label}`}
                            value={resource.includes}
                            // builds: pick a published build (its pattern is `name/**`) or type a pattern
                            {...(kind === 'build'
                              ? {
                                  options: (buildNames.data ?? []).map((b) => ({
                                    value: `${encodeURIComponent(b.name)}/**`,
                                    label: b.name,
                                  })),
                                  placeholder: 'Pick a build or type a pattern',
                                }
                              : { open: false })}
                            tokenSeparators={[',']}
                            onChange={(v: string[]) => setResource(kind, { ...resource, includes: v })}
                          />
                        </Form.Item>
                      </Col>
                      <Col xs={24} xl={kind === 'repo' ? 8 : 12}>
                        <Form.Item
                          label="Exclude patterns"
                          layout="vertical"
                          extra="Paths matching these are never covered"
                        >
                          <Select
                            mode="tags"
                            aria-label={`Exclude patterns for ${label}`}
                            value={resource.excludes}
                            open={false}
                            tokenSeparators={[',']}
                            onChange={(v: string[]) => setResource(kind, { ...resource, excludes: v })}
                          />
                        </Form.Item>
                      </Col>
                    </Row>
                    {kind === 'build' && (
                      <BuildPatternsPreview includes={resource.includes} excludes={resource.excludes} />
                    )}
                    <Row gutter={20}>
                      <Col xs={24} xxl={12}>
                        <Typography.Title level={5}>Users</Typography.Title>
                        <PrincipalTable
                          kind="user"
                          resourceLabel={label}
                          entries={resource.users}
                          candidates={['anonymous', ...(users.data ?? []).map((u) => u.name)]}
                          onChange={(next) => setResource(kind, { ...resource, users: next })}
                        />
                      </Col>
                      <Col xs={24} xxl={12}>
                        <Typography.Title level={5}>Groups</Typography.Title>
                        <PrincipalTable
                          kind="group"
                          resourceLabel={label}
                          entries={resource.groups}
                          candidates={(groups.data ?? []).map((g) => g.name)}
                          onChange={(next) => setResource(kind, { ...resource, groups: next })}
                        />
                      </Col>
                    </Row>
                  </>
                )}
              </Card>
            ),
          };
        })}
      />
      <FormActions
        primary={editName ? 'Save' : 'Create'}
        busy={save.isPending}
        onCancel={() => navigate('/admin/management/permissions')}
        onReset={unsaved.requestReset}
        resetDisabled={!unsaved.dirty}
        onPrimary={submit}
      />
      {unsaved.dialog}
    </>
  );
}
