import { PlusOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  Radio,
  Select,
  Space,
  Switch,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SEVERITIES, type PolicyInput } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { ListToolbar } from '../../../components/list-toolbar';
import { RowActions } from '../../../components/row-actions';
import { PageHeader } from '../../../components/page-header';
import { QueryTable } from '../../../components/query-table';
import { formatDateTime, formatRelative } from '../../../components/time';
import { useRepositories } from '../../../lib/queries/repositories';
import {
  useCreateIgnoreRule,
  useSavePolicy,
  useDeleteIgnoreRule,
  useDeletePolicy,
  useDeleteWatch,
  useIgnoreRules,
  usePolicies,
  useSaveWatch,
  useWatches,
  type IgnoreRuleAnswer,
  type PolicyAnswer,
  type WatchAnswer,
} from '../api/scanning';
import { useQuery } from '@tanstack/react-query';
import { treeReposQuery } from '../../artifacts';
import { useWebhooks } from '../../webhooks';
import { useStartupData } from '../../../lib/startup';

const TABS = [
  { key: '/admin/security/policies', label: 'Policies' },
  { key: '/admin/security/watches', label: 'Watches' },
  { key: '/admin/security/ignore-rules', label: 'Ignore Rules' },
  { key: '/admin/security/advisories', label: 'Advisories', admin: true },
];

/**
 * What the signed-in user may change here: an administrator everything; the holder of a security
 * scanning role what it allows (a policy manager policies, a watch manager watches and ignore
 * rules); a policy viewer reads them all. The server refuses the rest all the same.
 */
function useScanningRoles() {
  const { user } = useStartupData();
  const admin = user?.admin === true;
  return {
    admin,
    policies: admin || user?.xrayPermissions.isPolicyManager === true,
    watches: admin || user?.xrayPermissions.isWatchManager === true,
  };
}

/** The frame of the pages: what scanning does, the tabs between them, the page's action. */
export function SecurityFrame({ action, children }: { action?: ReactNode; children: ReactNode }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { admin } = useScanningRoles();
  const tabs = TABS.filter((tab) => admin || !tab.admin).map(({ key, label }) => ({ key, label }));
  return (
    <>
      <PageHeader
        title="Security & Compliance"
        description="Every package version and image is matched against the advisories imported in the OSV format. Policies say what must not ship; watches apply them to repositories and builds; ignore rules set findings aside, with a reason and an expiry."
        extra={action}
      />
      <Tabs activeKey={pathname} items={tabs} onChange={(key) => navigate(key)} />
      <Card>{children}</Card>
    </>
  );
}

/** What a rule catches, in words. */
function criteriaText(policy: PolicyAnswer): string[] {
  return policy.rules.map((rule) => {
    const { min_severity, banned_licenses, allowed_licenses } = rule.criteria;
    if (policy.type === 'security')
      return min_severity === 'All Severities' ? 'Any vulnerability' : `${min_severity} or worse`;
    return banned_licenses ? `Banned: ${banned_licenses.join(', ')}` : `Only: ${allowed_licenses?.join(', ')}`;
  });
}

interface PolicyForm {
  name: string;
  description?: string;
  type: 'security' | 'license';
  minSeverity: string;
  licenseMode: 'banned' | 'allowed';
  licenses: string[];
  allowUnknown: boolean;
  blockDownload: boolean;
  failBuild: boolean;
  webhooks: string[];
}

const NEW_POLICY: Partial<PolicyForm> = {
  type: 'security',
  minSeverity: 'High',
  licenseMode: 'banned',
  licenses: [],
  allowUnknown: true,
  blockDownload: true,
  failBuild: false,
  webhooks: [],
};

/** The form's values of a policy of one rule. */
function policyFormOf(policy: PolicyAnswer): PolicyForm {
  const [rule] = policy.rules;
  const { min_severity, banned_licenses, allowed_licenses, allow_unknown } = rule!.criteria;
  return {
    name: policy.name,
    description: policy.description,
    type: policy.type,
    minSeverity: min_severity ?? 'High',
    licenseMode: allowed_licenses ? 'allowed' : 'banned',
    licenses: banned_licenses ?? allowed_licenses ?? [],
    allowUnknown: allow_unknown ?? true,
    blockDownload: rule!.actions.block_download.active,
    failBuild: rule!.actions.fail_build ?? false,
    webhooks: rule!.actions.webhooks ?? [],
  };
}

/** Policies (`/admin/security/policies`): what each one catches, what follows, which watches apply it. */
export function PoliciesPage() {
  const policies = usePolicies();
  const watches = useWatches();
  const savePolicy = useSavePolicy();
  const remove = useDeletePolicy();
  const roles = useScanningRoles();
  // the webhooks a rule may tell: those of the Security violation event (administrators list webhooks)
  const webhooks = useWebhooks(roles.admin);
  const violationHooks = (webhooks.data ?? []).filter((w) => w.event_filter.domain === 'security').map((w) => w.key);
  const [form] = Form.useForm<PolicyForm>();
  const [open, setOpen] = useState(false);
  // the policy the form edits; none: a new one
  const [editing, setEditing] = useState<PolicyAnswer>();
  const [query, setQuery] = useState('');
  const type = Form.useWatch('type', form);
  const openForm = (policy?: PolicyAnswer) => {
    setEditing(policy);
    form.resetFields();
    if (policy) form.setFieldsValue(policyFormOf(policy));
    setOpen(true);
  };
  const appliedBy = (name: string) =>
    (watches.data ?? [])
      .filter((w) => w.assigned_policies.some((p) => p.name === name))
      .map((w) => w.general_data.name);
  const rows = useMemo(
    () => (policies.data ?? []).filter((p) => !query || p.name.toLowerCase().includes(query.trim().toLowerCase())),
    [policies.data, query],
  );

  const save = async (values: PolicyForm) => {
    const criteria =
      values.type === 'security'
        ? { min_severity: values.minSeverity }
        : {
            [values.licenseMode === 'banned' ? 'banned_licenses' : 'allowed_licenses']: values.licenses,
            allow_unknown: values.allowUnknown,
          };
    const body: PolicyInput = {
      name: values.name,
      type: values.type,
      description: values.description ?? '',
      rules: [
        {
          name: values.type === 'security' ? 'severity' : 'licenses',
          criteria,
          actions: {
            block_download: { active: values.blockDownload },
            fail_build: values.failBuild,
            webhooks: values.webhooks,
          },
        },
      ],
    };
    await savePolicy.mutateAsync({ body, ...(editing ? { existing: editing.name } : {}) });
    notifySuccess(`Policy ${values.name} ${editing ? 'saved' : 'created'}`);
  };

  return (
    <SecurityFrame
      action={
        roles.policies && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm()}>
            New Policy
          </Button>
        )
      }
    >
      <ListToolbar query={query} onQuery={setQuery} placeholder="Filter by name" label="Filter policies" width={280} />
      <QueryTable<PolicyAnswer>
        rowKey="name"
        query={policies}
        rows={rows}
        noun={['policy', 'policies']}
        filter={query}
        emptyText="No policies yet. Create one to block vulnerable or banned-license versions, then apply it with a watch."
        columns={[
          {
            title: 'Name',
            dataIndex: 'name',
            defaultSortOrder: 'ascend',
            sorter: (a, b) => a.name.localeCompare(b.name),
            render: (name: string, row) => (
              <Space direction="vertical" size={0}>
                <Typography.Text strong>{name}</Typography.Text>
                {row.description && <Typography.Text type="secondary">{row.description}</Typography.Text>}
              </Space>
            ),
          },
          {
            title: 'Type',
            dataIndex: 'type',
            width: 110,
            render: (t: string) => (
              <Tag color={t === 'security' ? 'red' : 'blue'}>{t === 'security' ? 'Security' : 'License'}</Tag>
            ),
          },
          { title: 'Catches', key: 'criteria', render: (_: unknown, row) => criteriaText(row).join('; ') },
          {
            title: 'Actions taken',
            key: 'actions',
            render: (_: unknown, row) => {
              const block = row.rules.some((r) => r.actions.block_download.active);
              const fail = row.rules.some((r) => r.actions.fail_build);
              const told = [...new Set(row.rules.flatMap((r) => r.actions.webhooks ?? []))];
              return block || fail || told.length ? (
                <Space size={4} wrap>
                  {block && <Tag color="volcano">Blocks downloads</Tag>}
                  {fail && <Tag color="purple">Fails builds</Tag>}
                  {told.length > 0 && <Tag color="geekblue">{`Tells ${told.join(', ')}`}</Tag>}
                </Space>
              ) : (
                <Typography.Text type="secondary">Reports only</Typography.Text>
              );
            },
          },
          {
            title: 'Applied by',
            key: 'watches',
            render: (_: unknown, row) => {
              const names = appliedBy(row.name);
              return names.length ? (
                names.map((n) => <Tag key={n}>{n}</Tag>)
              ) : (
                <Typography.Text type="secondary">No watch yet</Typography.Text>
              );
            },
          },
          ...(roles.policies
            ? [
                {
                  title: '',
                  key: 'delete',
                  width: 96,
                  render: (_: unknown, row: PolicyAnswer) => {
                    const names = appliedBy(row.name);
                    return (
                      <RowActions
                        what={`policy ${row.name}`}
                        // the form holds one rule; a policy written with more is edited through the REST API
                        {...(row.rules.length === 1 ? { onEdit: () => openForm(row) } : {})}
                        remove={{
                          run: () => remove.mutateAsync(row.name),
                          consequence:
                            'Downloads and builds it blocks are no longer blocked by it. This cannot be undone.',
                          deleted: `Policy ${row.name} deleted`,
                          ...(names.length
                            ? { refused: `Applied by ${names.join(', ')}: remove it from the watch first` }
                            : {}),
                        }}
                      />
                    );
                  },
                },
              ]
            : []),
        ]}
      />
      <FormModal<PolicyForm>
        open={open}
        title={editing ? `Edit Policy ${editing.name}` : 'New Policy'}
        okText={editing ? 'Save' : 'Create'}
        form={form}
        onSubmit={save}
        onClose={() => setOpen(false)}
        failureText={editing ? 'The policy could not be saved.' : 'The policy could not be created.'}
        width={560}
        initialValues={NEW_POLICY}
        {...(editing
          ? {
              intro: (
                <Typography.Paragraph type="secondary">
                  {appliedBy(editing.name).length
                    ? `The watches that apply it (${appliedBy(editing.name).join(', ')}) block, fail and tell by the rule saved here from now on.`
                    : 'No watch applies it yet: what it catches takes effect once a watch does.'}
                </Typography.Paragraph>
              ),
            }
          : {})}
      >
        <Form.Item name="name" label="Name" rules={[{ required: true, message: 'A policy needs a name.' }]}>
          <Input placeholder="no-critical" autoFocus disabled={Boolean(editing)} />
        </Form.Item>
        <Form.Item name="description" label="Description">
          <Input placeholder="What it is for" />
        </Form.Item>
        <Form.Item name="type" label="Type">
          <Radio.Group
            disabled={Boolean(editing)}
            options={[
              { value: 'security', label: 'Security: vulnerabilities' },
              { value: 'license', label: 'License compliance' },
            ]}
          />
        </Form.Item>
        {type !== 'license' ? (
          <Form.Item name="minSeverity" label="Catches vulnerabilities from">
            <Select
              options={['All Severities', ...SEVERITIES.filter((s) => s !== 'Unknown')].map((s) => ({
                value: s,
                label: s === 'All Severities' ? s : `${s} and worse`,
              }))}
            />
          </Form.Item>
        ) : (
          <>
            <Form.Item name="licenseMode" label="Licenses">
              <Radio.Group
                options={[
                  { value: 'banned', label: 'These are banned' },
                  { value: 'allowed', label: 'Only these are allowed' },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="licenses"
              label="SPDX license ids"
              rules={[{ required: true, message: 'Name at least one license.' }]}
            >
              <Select mode="tags" placeholder="GPL-3.0-only, AGPL-3.0-only" tokenSeparators={[',', ' ']} />
            </Form.Item>
            <Form.Item name="allowUnknown" label="A version that declares no known license" valuePropName="checked">
              <Switch checkedChildren="Allowed" unCheckedChildren="Violates" />
            </Form.Item>
          </>
        )}
        <Form.Item name="blockDownload" label="Block the download of a version it catches" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="failBuild" label="Fail a build that uses or produces one" valuePropName="checked">
          <Switch />
        </Form.Item>
        {roles.admin && (
          <Form.Item
            name="webhooks"
            label="Tell these webhooks of each new violation"
            extra={
              violationHooks.length
                ? undefined
                : 'No webhook listens to security violations yet: create one for the Security violation event under Webhooks.'
            }
          >
            <Select
              mode="multiple"
              allowClear
              loading={webhooks.isPending}
              disabled={!violationHooks.length}
              placeholder="None"
              aria-label="Webhooks told of violations"
              options={violationHooks.map((key) => ({ value: key, label: key }))}
            />
          </Form.Item>
        )}
      </FormModal>
    </SecurityFrame>
  );
}

interface WatchForm {
  name: string;
  description?: string;
  allRepositories: boolean;
  repositories: string[];
  policies: string[];
}

/** Watches (`/admin/security/watches`): which repositories each covers, which policies it applies, whether it is on. */
export function WatchesPage() {
  const watches = useWatches();
  const policies = usePolicies();
  const roles = useScanningRoles();
  // the repositories a watch may cover: every one for an administrator, those a watch manager may read
  const repositories = useRepositories(roles.admin);
  const readable = useQuery({ ...treeReposQuery(), enabled: !roles.admin });
  const repositoryOptions = roles.admin
    ? (repositories.data ?? []).map((r) => ({ key: r.key, rclass: r.rclass, packageType: r.packageType }))
    : (readable.data ?? []).map((r) => ({ key: r.repoKey, rclass: r.repoType, packageType: r.pkgType }));
  const saveWatch = useSaveWatch();
  const remove = useDeleteWatch();
  const [form] = Form.useForm<WatchForm>();
  const [open, setOpen] = useState(false);
  const allRepositories = Form.useWatch('allRepositories', form);
  const policyType = (name: string) => policies.data?.find((p) => p.name === name)?.type ?? 'security';

  const save = async (values: WatchForm) => {
    await saveWatch.mutateAsync({
      body: {
        general_data: { name: values.name, description: values.description ?? '', active: true },
        project_resources: {
          resources: values.allRepositories
            ? [{ type: 'all-repos' }]
            : values.repositories.map((name) => ({ type: 'repository' as const, name })),
        },
        assigned_policies: values.policies.map((name) => ({ name, type: policyType(name) })),
      },
    });
    notifySuccess(`Watch ${values.name} created`);
  };
  const toggle = (watch: WatchAnswer, active: boolean) =>
    runSafely(async () => {
      const { author: _a, created: _c, modified: _m, ...body } = watch;
      await saveWatch.mutateAsync({
        existing: watch.general_data.name,
        body: { ...body, general_data: { ...body.general_data, active } },
      });
      notifySuccess(`Watch ${watch.general_data.name} is ${active ? 'on' : 'paused'}`);
    });
  return (
    <SecurityFrame
      action={
        roles.watches && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setOpen(true)}
            disabled={!policies.data?.length}
            title={policies.data?.length ? undefined : 'Create a policy first: a watch applies policies'}
          >
            New Watch
          </Button>
        )
      }
    >
      <QueryTable<WatchAnswer>
        rowKey={(w) => w.general_data.name}
        query={watches}
        rows={watches.data ?? []}
        noun={['watch', 'watches']}
        emptyText={
          policies.data?.length
            ? 'No watches yet. Create one to apply your policies to repositories.'
            : 'No watches yet. Create a policy first, then a watch that applies it to repositories.'
        }
        columns={[
          {
            title: 'Name',
            key: 'name',
            render: (_: unknown, row) => (
              <Space direction="vertical" size={0}>
                <Typography.Text strong>{row.general_data.name}</Typography.Text>
                {row.general_data.description && (
                  <Typography.Text type="secondary">{row.general_data.description}</Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: 'Covers',
            key: 'resources',
            render: (_: unknown, row) => (
              <Space size={[4, 4]} wrap>
                {row.project_resources.resources.map((r) => (
                  <Tag key={'name' in r ? `${r.type}:${r.name}` : r.type}>
                    {r.type === 'all-repos'
                      ? 'All repositories'
                      : r.type === 'all-builds'
                        ? 'All builds'
                        : 'name' in r
                          ? r.name
                          : ''}
                  </Tag>
                ))}
              </Space>
            ),
          },
          {
            title: 'Policies',
            key: 'policies',
            render: (_: unknown, row) => row.assigned_policies.map((p) => <Tag key={p.name}>{p.name}</Tag>),
          },
          {
            title: 'Active',
            key: 'active',
            width: 90,
            render: (_: unknown, row) => (
              <Switch
                size="small"
                disabled={!roles.watches}
                checked={row.general_data.active}
                aria-label={`${row.general_data.active ? 'Pause' : 'Resume'} ${row.general_data.name}`}
                onChange={(next) => void toggle(row, next)}
              />
            ),
          },
          ...(roles.watches
            ? [
                {
                  title: '',
                  key: 'delete',
                  width: 60,
                  render: (_: unknown, row: WatchAnswer) => (
                    <RowActions
                      what={`watch ${row.general_data.name}`}
                      remove={{
                        run: () => remove.mutateAsync(row.general_data.name),
                        consequence:
                          'Its policies no longer apply to the repositories and builds it covers. This cannot be undone.',
                        deleted: `Watch ${row.general_data.name} deleted`,
                      }}
                    />
                  ),
                },
              ]
            : []),
        ]}
      />
      <FormModal<WatchForm>
        open={open}
        title="New Watch"
        okText="Create"
        form={form}
        onSubmit={save}
        onClose={() => setOpen(false)}
        failureText="The watch could not be created."
        width={560}
        initialValues={{ allRepositories: false, repositories: [], policies: [] }}
      >
        <Form.Item name="name" label="Name" rules={[{ required: true, message: 'A watch needs a name.' }]}>
          <Input placeholder="production" autoFocus />
        </Form.Item>
        <Form.Item name="description" label="Description">
          <Input placeholder="What it guards" />
        </Form.Item>
        <Form.Item name="allRepositories" label="Every repository" valuePropName="checked">
          <Switch />
        </Form.Item>
        {!allRepositories && (
          <Form.Item
            name="repositories"
            label="Repositories"
            extra="Local and remote repositories: a virtual one serves what its members hold."
            rules={[{ required: true, message: 'Choose the repositories it covers.' }]}
          >
            <Select
              mode="multiple"
              loading={roles.admin ? repositories.isPending : readable.isPending}
              placeholder="Choose repositories"
              options={repositoryOptions
                .filter((r) => r.rclass !== 'virtual' && r.rclass !== 'trashcan')
                .map((r) => ({ value: r.key, label: `${r.key} (${r.packageType}, ${r.rclass})` }))}
            />
          </Form.Item>
        )}
        <Form.Item
          name="policies"
          label="Policies"
          rules={[{ required: true, message: 'Choose the policies it applies.' }]}
        >
          <Select
            mode="multiple"
            placeholder="Choose policies"
            options={(policies.data ?? []).map((p) => ({ value: p.name, label: p.name }))}
          />
        </Form.Item>
      </FormModal>
    </SecurityFrame>
  );
}

interface IgnoreForm {
  notes: string;
  vulnerabilities: string[];
  component?: string;
  expires?: Dayjs;
}

/** Ignore rules (`/admin/security/ignore-rules`): what each sets aside, why, until when, who made it. */
export function IgnoreRulesPage() {
  const rules = useIgnoreRules();
  const create = useCreateIgnoreRule();
  const remove = useDeleteIgnoreRule();
  const roles = useScanningRoles();
  const [form] = Form.useForm<IgnoreForm>();
  const [open, setOpen] = useState(false);

  const save = async (values: IgnoreForm) => {
    await create.mutateAsync({
      notes: values.notes,
      ...(values.expires ? { expires_at: values.expires.endOf('day').toISOString() } : {}),
      ignore_filters: {
        vulnerabilities: values.vulnerabilities,
        ...(values.component ? { components: [{ name: values.component }] } : {}),
      },
    });
    notifySuccess('Ignore rule created');
  };
  return (
    <SecurityFrame
      action={
        roles.watches && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)}>
            New Ignore Rule
          </Button>
        )
      }
    >
      <QueryTable<IgnoreRuleAnswer>
        rowKey="id"
        query={rules}
        rows={rules.data ?? []}
        noun={['ignore rule', 'ignore rules']}
        emptyText="No ignore rules. Add one when a finding is accepted for a reason, with an expiry so that it is looked at again."
        columns={[
          {
            title: 'Sets aside',
            key: 'filters',
            render: (_: unknown, row) => (
              <Space size={[4, 4]} wrap>
                {[...(row.ignore_filters.vulnerabilities ?? []), ...(row.ignore_filters.licenses ?? [])].map((v) => (
                  <Tag key={v} color="red">
                    {v}
                  </Tag>
                ))}
                {(row.ignore_filters.components ?? []).map((c) => (
                  <Tag key={c.name}>{c.version ? `${c.name}@${c.version}` : c.name}</Tag>
                ))}
              </Space>
            ),
          },
          { title: 'Reason', dataIndex: 'notes' },
          {
            title: 'Expires',
            key: 'expires',
            width: 170,
            render: (_: unknown, row) =>
              row.expires_at ? (
                <Tooltip title={formatDateTime(row.expires_at)}>
                  {row.is_expired ? <Tag>Expired</Tag> : <span>{formatRelative(row.expires_at)}</span>}
                </Tooltip>
              ) : (
                <Typography.Text type="warning">Never</Typography.Text>
              ),
          },
          { title: 'Created by', dataIndex: 'author', width: 120 },
          ...(roles.watches
            ? [
                {
                  title: '',
                  key: 'delete',
                  width: 60,
                  render: (_: unknown, row: IgnoreRuleAnswer) => (
                    <RowActions
                      what={`the ignore rule "${row.notes}"`}
                      remove={{
                        run: () => remove.mutateAsync(row.id),
                        consequence: 'What it set aside counts again: a download it let through may be blocked.',
                        deleted: 'Ignore rule deleted',
                      }}
                    />
                  ),
                },
              ]
            : []),
        ]}
      />
      <FormModal<IgnoreForm>
        open={open}
        title="New Ignore Rule"
        okText="Create"
        form={form}
        onSubmit={save}
        onClose={() => setOpen(false)}
        failureText="The ignore rule could not be created."
        width={560}
        initialValues={{ vulnerabilities: [], expires: dayjs().add(30, 'day') }}
      >
        <Form.Item
          name="vulnerabilities"
          label="Vulnerabilities"
          extra="Advisory or CVE ids, as the findings name them."
          rules={[{ required: true, message: 'Name at least one vulnerability.' }]}
        >
          <Select mode="tags" placeholder="CVE-2026-4001" tokenSeparators={[',', ' ']} />
        </Form.Item>
        <Form.Item name="component" label="Only in the package" extra="Optional: npm://left-pad, or a name alone.">
          <Input placeholder="npm://left-pad" />
        </Form.Item>
        <Form.Item
          name="notes"
          label="Reason"
          rules={[{ required: true, whitespace: true, message: 'Say why it is accepted.' }]}
        >
          <Input.TextArea rows={2} placeholder="Not reachable from user input; upgrade planned for the next release" />
        </Form.Item>
        <Form.Item name="expires" label="Expires" extra="Leave empty for no expiry.">
          <DatePicker disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
        </Form.Item>
      </FormModal>
    </SecurityFrame>
  );
}
