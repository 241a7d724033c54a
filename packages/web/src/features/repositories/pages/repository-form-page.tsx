import { Alert, Card, Col, Form, Input, InputNumber, Row, Select, Skeleton, Switch, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import {
  ERROR_MESSAGES,
  REPOSITORY_KEY_PATTERN,
  REPOSITORY_MESSAGES,
  defaultLayout,
  type RepositoryConfigInput,
} from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { PageHeader } from '../../../components/page-header';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { useLayouts } from '../api/get-layouts';
import { useRepositories } from '../../../lib/queries/repositories';
import { useRepository } from '../api/get-repository';
import { useSaveRepository } from '../api/save-repository';
import { RepositoryClassTag } from '../components/repository-class-tag';
import { RemoteTest } from '../components/remote-test';
import { RepositoryReplications } from '../components/repository-replications';
import { UpstreamState } from '../components/upstream-state';
import { useServerErrors } from '../../../lib/server-errors';
import { NotFoundResult } from '../../../components/not-found-result';
import { FormActions } from '../../../components/form-actions';
import { packageTypeOptions, packageTypeSearch } from '../../../lib/package-type-options';
import { ProxySelect } from '../../settings';
import { useCertificates } from '../../keys';
import { EffectivePermissions } from '../../permissions';
import { REQUIRED } from '../../../lib/schema-rules';

type Rclass = 'local' | 'remote' | 'virtual';

interface FormValues {
  key: string;
  packageType: string;
  description: string;
  notes: string;
  includesPattern: string;
  excludesPattern: string;
  repoLayoutRef: string;
  url: string;
  username: string;
  password: string;
  proxy: string;
  clientTlsCertificate: string;
  repositories: string[];
  defaultDeploymentRepo: string;
  metadataRetrievalCachePeriodSecs: number;
  offline: boolean;
  socketTimeoutMillis: number;
  /** The storage quota in MB as typed (0: no limit); sent in bytes. */
  storageQuotaMb: number;
  checksumPolicyType: 'client-checksums' | 'server-generated-checksums';
  suppressPomConsistencyChecks: boolean;
  redeployReleases: boolean;
}

const MB = 1024 * 1024;

/** Package types laid out as Maven 2 repositories: they have the Maven deploy rules. */
const MAVEN_TYPES = ['maven', 'gradle'];

const EMPTY: FormValues = {
  key: '',
  packageType: 'generic',
  description: '',
  notes: '',
  includesPattern: '**/*',
  excludesPattern: '',
  repoLayoutRef: 'simple-default',
  url: '',
  username: '',
  password: '',
  proxy: '',
  clientTlsCertificate: '',
  repositories: [],
  defaultDeploymentRepo: '',
  metadataRetrievalCachePeriodSecs: 7200,
  offline: false,
  socketTimeoutMillis: 15_000,
  storageQuotaMb: 0,
  checksumPolicyType: 'client-checksums',
  suppressPomConsistencyChecks: false,
  redeployReleases: true,
};

/** Creates a repository (`admin.repositories.new`) or edits one (`admin.repositories.edit`). */
export function RepositoryFormPage() {
  const { key: editKey } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const existing = useRepository(editKey);
  const all = useRepositories();
  const layouts = useLayouts();
  const certificates = useCertificates();
  const rclass: Rclass = (existing.data?.rclass ?? (params.get('rclass') as Rclass | null) ?? 'local') as Rclass;
  const save = useSaveRepository(Boolean(editKey));
  const [form] = Form.useForm<FormValues>();
  const { errors, clear, capture } = useServerErrors();
  const initial = useMemo<FormValues>(
    () =>
      existing.data
        ? {
            ...EMPTY,
            ...existing.data,
            password: '',
            storageQuotaMb: Math.round(existing.data.storageQuotaBytes / MB),
          }
        : EMPTY,
    [existing.data],
  );
  const values = Form.useWatch([], form) as FormValues | undefined;
  const [saved, setSaved] = useState(false);
  const unsaved = useUnsavedChanges({
    initial,
    current: values ?? initial,
    onReset: () => form.resetFields(),
    // nothing to lose while the repository is loading or missing
    enabled: !saved && (!editKey || existing.isSuccess),
  });
  useEffect(() => form.resetFields(), [initial, form]);
  useEffect(() => {
    if (saved) navigate('/admin/repositories');
  }, [saved, navigate]);

  const packageType = Form.useWatch('packageType', form) ?? initial.packageType;
  const members = (Form.useWatch('repositories', form) as string[] | undefined) ?? [];
  const candidates = (all.data ?? []).filter(
    (r) => r.rclass !== 'virtual' && r.key !== editKey && (packageType === 'generic' || r.packageType === packageType),
  );
  const localMembers = members.filter((m) => all.data?.find((r) => r.key === m)?.rclass === 'local');

  const submit = (v: FormValues) => {
    clear();
    const { storageQuotaMb, ...rest } = v;
    const config: RepositoryConfigInput = {
      ...rest,
      storageQuotaBytes: Math.round((storageQuotaMb ?? 0) * MB),
      key: editKey ?? v.key.trim(),
      rclass,
      ...(v.password ? {} : { password: undefined }),
    };
    save.mutate(config, {
      onSuccess: (repo) => {
        notifySuccess(`Repository ${repo.key} was ${editKey ? 'updated' : 'created'}`);
        setSaved(true);
      },
      onError: (error) => capture(error, form),
    });
  };

  const title = editKey ? `Edit ${editKey}` : `New ${rclass[0]!.toUpperCase()}${rclass.slice(1)} Repository`;
  if (editKey && existing.isPending) return <Skeleton active />;
  if (editKey && existing.isError) {
    return (existing.error as { status?: number }).status === 404 ? (
      <NotFoundResult
        title={`Repository '${editKey}' was not found`}
        backTo="/admin/repositories"
        backLabel="Back to Repositories"
      />
    ) : (
      <Alert type="error" showIcon title={existing.error.message} />
    );
  }
  return (
    <>
      <PageHeader title={title} description={<RepositoryClassTag rclass={rclass} />} />
      {editKey && rclass === 'remote' && <UpstreamState repoKey={editKey} />}
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={submit}>
        <Row gutter={20}>
          <Col xs={24} xl={14}>
            <Card title="Basic settings" style={{ marginBottom: 20 }}>
              <ErrorList messages={errors} style={{ marginBottom: 16 }} />
              <Form.Item
                label="Repository key"
                name="key"
                rules={[REQUIRED, { pattern: REPOSITORY_KEY_PATTERN, message: REPOSITORY_MESSAGES.keyFormat }]}
              >
                <Input disabled={Boolean(editKey)} placeholder="e.g. libs-release-local" autoFocus={!editKey} />
              </Form.Item>
              <Form.Item label="Package type" name="packageType" rules={[REQUIRED]}>
                <Select
                  showSearch={packageTypeSearch}
                  disabled={Boolean(editKey)}
                  options={packageTypeOptions()}
                  onChange={(t: string) => form.setFieldValue('repoLayoutRef', defaultLayout(t))}
                />
              </Form.Item>
              {rclass === 'remote' && (
                <>
                  <Form.Item
                    label="URL"
                    name="url"
                    rules={[REQUIRED, { type: 'url', message: ERROR_MESSAGES.invalidUrl }]}
                  >
                    <Input placeholder="https://registry.example.com/" />
                  </Form.Item>
                  <Row gutter={16}>
                    <Col span={12}>
                      <Form.Item label="User name" name="username">
                        <Input autoComplete="off" />
                      </Form.Item>
                    </Col>
                    <Col span={12}>
                      <Form.Item
                        label="Password"
                        name="password"
                        extra={existing.data?.hasPassword ? 'Stored; leave empty to keep it.' : undefined}
                      >
                        <Input.Password autoComplete="new-password" />
                      </Form.Item>
                    </Col>
                  </Row>
                  <RemoteTest form={form} repoKey={editKey} />
                  <Form.Item
                    label="Proxy"
                    name="proxy"
                    extra="The HTTP proxy requests to the upstream go through (Administration › Proxies)."
                  >
                    <ProxySelect />
                  </Form.Item>
                  <Form.Item
                    label="Client certificate"
                    name="clientTlsCertificate"
                    extra="Presented to an upstream that asks for one (Administration › Keys Management › Certificates)."
                  >
                    <Select
                      aria-label="Client certificate"
                      options={[
                        { value: '', label: 'None' },
                        ...(certificates.data ?? [])
                          .filter((c) => c.kind === 'client')
                          .map((c) => ({ value: c.alias, label: `${c.alias} (${c.subject})` })),
                      ]}
                    />
                  </Form.Item>
                  <Form.Item
                    label="Metadata retrieval cache period (seconds)"
                    name="metadataRetrievalCachePeriodSecs"
                    extra="How long cached metadata (npm packuments and the like) is served before the upstream is asked again. Package files are kept for good."
                    rules={[REQUIRED]}
                  >
                    <InputNumber min={0} max={31_536_000} precision={0} style={{ width: 200 }} />
                  </Form.Item>
                  <Row gutter={16}>
                    <Col span={12}>
                      <Form.Item
                        label="Socket timeout (milliseconds)"
                        name="socketTimeoutMillis"
                        extra="How long the upstream gets to connect and to send each part of an answer."
                        rules={[REQUIRED]}
                      >
                        <InputNumber min={1_000} max={600_000} step={1_000} precision={0} style={{ width: 200 }} />
                      </Form.Item>
                    </Col>
                    <Col span={12}>
                      <Form.Item
                        label="Offline"
                        name="offline"
                        valuePropName="checked"
                        extra="On: only cached files are served and the upstream is never asked."
                      >
                        <Switch />
                      </Form.Item>
                    </Col>
                  </Row>
                </>
              )}
              {rclass === 'local' && (
                <Form.Item
                  label="Storage quota (MB)"
                  name="storageQuotaMb"
                  extra="Deploys that would take the repository past it are refused (413). 0: no limit."
                >
                  <InputNumber min={0} precision={0} style={{ width: 200 }} />
                </Form.Item>
              )}
              {rclass === 'local' && MAVEN_TYPES.includes(packageType) && (
                <>
                  <Form.Item
                    label="Checksum policy"
                    name="checksumPolicyType"
                    extra="What happens when a client deploys a .sha1, .md5 or .sha256 file next to an artifact."
                  >
                    <Select
                      options={[
                        { value: 'client-checksums', label: 'Verify against client checksums (refuse a mismatch)' },
                        { value: 'server-generated-checksums', label: 'Trust server-generated checksums only' },
                      ]}
                    />
                  </Form.Item>
                  <Row gutter={16}>
                    <Col span={12}>
                      <Form.Item
                        label="Allow release redeploy"
                        name="redeployReleases"
                        valuePropName="checked"
                        extra="Off: a release file already stored cannot be deployed again. Snapshots always can."
                      >
                        <Switch />
                      </Form.Item>
                    </Col>
                    <Col span={12}>
                      <Form.Item
                        label="Suppress POM consistency checks"
                        name="suppressPomConsistencyChecks"
                        valuePropName="checked"
                        extra="On: a POM is accepted even when its groupId, artifactId and version do not match its path."
                      >
                        <Switch />
                      </Form.Item>
                    </Col>
                  </Row>
                </>
              )}
              {rclass === 'virtual' && (
                <>
                  <Form.Item
                    label="Repositories, in resolution order"
                    name="repositories"
                    extra="A request is answered by the first repository that has the path."
                  >
                    <Select
                      mode="multiple"
                      options={candidates.map((r) => ({ value: r.key, label: `${r.key} (${r.rclass})` }))}
                      placeholder="Pick local and remote repositories"
                    />
                  </Form.Item>
                  <Form.Item
                    label="Default deployment repository"
                    name="defaultDeploymentRepo"
                    extra="Deploys to this virtual repository land there."
                  >
                    <Select
                      allowClear
                      options={localMembers.map((k) => ({ value: k, label: k }))}
                      placeholder={localMembers.length ? 'Pick a local member' : 'Add a local repository first'}
                    />
                  </Form.Item>
                </>
              )}
              <Form.Item label="Description" name="description">
                <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} />
              </Form.Item>
            </Card>
          </Col>
          <Col xs={24} xl={10}>
            <Card title="Advanced" style={{ marginBottom: 20 }}>
              <Form.Item
                label="Include patterns"
                name="includesPattern"
                extra="Comma-separated Ant patterns, e.g. org/acme/**, **/*.jar"
              >
                <Input />
              </Form.Item>
              <Form.Item label="Exclude patterns" name="excludesPattern">
                <Input placeholder="e.g. **/internal/**" />
              </Form.Item>
              <Form.Item label="Repository layout" name="repoLayoutRef">
                <Select options={(layouts.data ?? []).map((l) => ({ value: l.name, label: l.name }))} />
              </Form.Item>
              <Form.Item label="Notes" name="notes">
                <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} />
              </Form.Item>
              <Typography.Text type="secondary">Changes take effect at once for every client.</Typography.Text>
            </Card>
          </Col>
        </Row>
        <FormActions
          primary={editKey ? 'Save' : 'Create'}
          busy={save.isPending}
          onCancel={() => navigate('/admin/repositories')}
          onReset={unsaved.requestReset}
          resetDisabled={!unsaved.dirty}
        />
      </Form>
      {editKey && (
        <div style={{ marginTop: 20 }}>
          {rclass !== 'virtual' && <RepositoryReplications repoKey={editKey} />}
          <Card title="Effective permissions" style={{ marginBottom: 20 }}>
            <EffectivePermissions subject={{ repo: editKey }} />
          </Card>
        </div>
      )}
      {unsaved.dialog}
    </>
  );
}
