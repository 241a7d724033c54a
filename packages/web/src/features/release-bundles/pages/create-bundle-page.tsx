import { Alert, Button, Card, Descriptions, Flex, Form, Input, Radio, Select, Space, Steps, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  RELEASE_BUNDLE_MESSAGES,
  RELEASE_BUNDLE_SOURCE_LABELS,
  bundleNameSchema,
  bundleVersionSchema,
  type CreateReleaseBundleBody,
} from '@arca/contracts';
import { ApiError } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { PageHeader } from '../../../components/page-header';
import { schemaField } from '../../../lib/schema-rules';
import { useBuildNames } from '../../builds';
import { useKeyPairs } from '../../keys';
import { useCreateBundle, useReleaseBundleNames } from '../api/release-bundles';
import { versionHref } from '../components/links';

/** The sources the wizard offers (packages are made through the API). */
type WizardSource = 'builds' | 'release_bundles' | 'aql' | 'artifacts';
const SOURCES: WizardSource[] = ['builds', 'release_bundles', 'aql', 'artifacts'];

interface Values {
  name: string;
  version: string;
  description: string;
  signingKey?: string;
  sourceType: WizardSource;
  builds: { name?: string; number?: string; dependencies?: boolean }[];
  bundles: { name?: string; version?: string }[];
  aql: string;
  paths: string;
}

const INITIAL: Values = {
  name: '',
  version: '',
  description: '',
  sourceType: 'builds',
  builds: [{}],
  bundles: [{}],
  aql: 'items.find({"repo":"libs-release-local","path":{"$match":"org/acme/*"}})',
  paths: '',
};

/** The call's body from the wizard's values. */
function bodyOf(v: Values): CreateReleaseBundleBody {
  const source: CreateReleaseBundleBody['source'] =
    v.sourceType === 'builds'
      ? {
          builds: v.builds
            .filter((b) => b.name && b.number)
            .map((b) => ({
              build_name: b.name!,
              build_number: b.number!,
              include_dependencies: b.dependencies ?? false,
            })),
        }
      : v.sourceType === 'release_bundles'
        ? {
            release_bundles: v.bundles
              .filter((b) => b.name && b.version)
              .map((b) => ({ release_bundle_name: b.name!, release_bundle_version: b.version! })),
          }
        : v.sourceType === 'aql'
          ? { aql: v.aql.trim() }
          : {
              artifacts: v.paths
                .split('\n')
                .map((p) => p.trim())
                .filter(Boolean)
                .map((path) => ({ path })),
            };
  return {
    release_bundle_name: v.name.trim(),
    release_bundle_version: v.version.trim(),
    description: v.description,
    skip_docker_manifest_resolution: false,
    source_type: v.sourceType,
    source,
    signing_key: v.signingKey,
  };
}

/**
 * `/bundles/source`: a release bundle version made in three steps — what it is (name, version,
 * signing key), what it holds (builds, other bundles, an AQL query or paths), and a review before
 * it is created. The server resolves the sources once; its refusal (a missing file, a build that
 * does not exist) is shown on the last step, and nothing is created.
 */
export function CreateBundlePage() {
  const [form] = Form.useForm<Values>();
  const [step, setStep] = useState(0);
  const [errors, setErrors] = useState<string[]>([]);
  const navigate = useNavigate();
  const keys = useKeyPairs();
  const builds = useBuildNames();
  const bundles = useReleaseBundleNames();
  const create = useCreateBundle();
  const values = Form.useWatch([], form) as Values | undefined;
  const sourceType = values?.sourceType ?? 'builds';

  const next = async () => {
    const fields: (keyof Values)[][] = [
      ['name', 'version', 'signingKey'],
      ['sourceType', 'builds', 'bundles', 'aql', 'paths'],
    ];
    await form.validateFields(fields[step]);
    setStep(step + 1);
  };
  const submit = async () => {
    setErrors([]);
    const body = bodyOf(form.getFieldsValue(true) as Values);
    try {
      await create.mutateAsync(body);
      notifySuccess(`${body.release_bundle_name} ${body.release_bundle_version} was created and signed.`);
      void navigate(versionHref(body.release_bundle_name, body.release_bundle_version));
    } catch (error) {
      setErrors(error instanceof ApiError ? error.messages : [String(error)]);
    }
  };
  const review = values ? bodyOf({ ...INITIAL, ...values }) : undefined;

  return (
    <>
      <PageHeader
        title="New Release Bundle"
        description="A signed, immutable set of artifacts: resolved once, its artifacts kept as they are while it exists."
      />
      <Card>
        <Steps
          current={step}
          style={{ marginBottom: 24 }}
          items={[{ title: 'Details' }, { title: 'Source' }, { title: 'Review' }]}
        />
        <Form<Values> form={form} layout="vertical" initialValues={INITIAL} style={{ maxWidth: 760 }}>
          <div hidden={step !== 0}>
            <Flex gap={16} wrap>
              <Form.Item label="Name" name="name" style={{ flex: 2, minWidth: 240 }} {...schemaField(bundleNameSchema)}>
                <Input placeholder="web-app" autoComplete="off" />
              </Form.Item>
              <Form.Item
                label="Version"
                name="version"
                style={{ flex: 1, minWidth: 140 }}
                {...schemaField(bundleVersionSchema)}
              >
                <Input placeholder="1.0.0" autoComplete="off" />
              </Form.Item>
            </Flex>
            <Form.Item label="Description" name="description">
              <Input.TextArea rows={2} placeholder="What this release is" />
            </Form.Item>
            <Form.Item
              label="Signing key"
              name="signingKey"
              rules={[{ required: true, message: RELEASE_BUNDLE_MESSAGES.signingKeyMissing }]}
              extra={
                keys.data?.length === 0 ? (
                  <span>
                    No key pair yet: an administrator makes one under{' '}
                    <Link to="/admin/artifactory/security/keys_management">Keys Management</Link>.
                  </span>
                ) : (
                  'The key pair whose signature proves the manifest unchanged (GPG or RSA).'
                )
              }
            >
              <Select
                aria-label="Signing key"
                loading={keys.isPending}
                placeholder="Choose a key pair"
                options={(keys.data ?? []).map((k) => ({ value: k.pairName, label: `${k.pairName} (${k.pairType})` }))}
              />
            </Form.Item>
          </div>

          <div hidden={step !== 1}>
            <Form.Item label="Made from" name="sourceType">
              <Radio.Group
                optionType="button"
                buttonStyle="solid"
                options={SOURCES.map((s) => ({ value: s, label: RELEASE_BUNDLE_SOURCE_LABELS[s] }))}
              />
            </Form.Item>
            {sourceType === 'builds' && (
              <Form.List name="builds">
                {(fields, { add, remove }) => (
                  <>
                    {fields.map((field) => (
                      <Space key={field.key} align="baseline" wrap>
                        <Form.Item
                          name={[field.name, 'name']}
                          label="Build"
                          rules={[{ required: true, message: 'Choose a build.' }]}
                        >
                          <Select
                            style={{ width: 260 }}
                            aria-label="Build"
                            showSearch
                            loading={builds.isPending}
                            placeholder="Choose a build"
                            onChange={(name: string) => {
                              const last = builds.data?.find((b) => b.name === name)?.lastNumber;
                              form.setFieldValue(['builds', field.name, 'number'], last);
                            }}
                            options={(builds.data ?? []).map((b) => ({ value: b.name, label: b.name }))}
                          />
                        </Form.Item>
                        <Form.Item
                          name={[field.name, 'number']}
                          label="Number"
                          rules={[{ required: true, message: 'Give the run number.' }]}
                        >
                          <Input style={{ width: 120 }} aria-label="Build number" />
                        </Form.Item>
                        <Form.Item name={[field.name, 'dependencies']} label="Takes" initialValue={false}>
                          <Radio.Group
                            options={[
                              { value: false, label: 'Artifacts' },
                              { value: true, label: 'Artifacts and dependencies' },
                            ]}
                          />
                        </Form.Item>
                        {fields.length > 1 && (
                          <Button type="link" onClick={() => remove(field.name)}>
                            Remove
                          </Button>
                        )}
                      </Space>
                    ))}
                    <Button onClick={() => add({})}>Add a build</Button>
                  </>
                )}
              </Form.List>
            )}
            {sourceType === 'release_bundles' && (
              <Form.List name="bundles">
                {(fields, { add, remove }) => (
                  <>
                    {fields.map((field) => (
                      <Space key={field.key} align="baseline" wrap>
                        <Form.Item
                          name={[field.name, 'name']}
                          label="Release bundle"
                          rules={[{ required: true, message: 'Choose a release bundle.' }]}
                        >
                          <Select
                            style={{ width: 260 }}
                            aria-label="Release bundle"
                            showSearch
                            loading={bundles.isPending}
                            onChange={(name: string) => {
                              const latest = bundles.data?.find(
                                (b) => b.release_bundle_name === name,
                              )?.release_bundle_version_latest;
                              form.setFieldValue(['bundles', field.name, 'version'], latest);
                            }}
                            options={(bundles.data ?? []).map((b) => ({
                              value: b.release_bundle_name,
                              label: b.release_bundle_name,
                            }))}
                          />
                        </Form.Item>
                        <Form.Item
                          name={[field.name, 'version']}
                          label="Version"
                          rules={[{ required: true, message: 'Give the version.' }]}
                        >
                          <Input style={{ width: 120 }} aria-label="Bundle version" />
                        </Form.Item>
                        {fields.length > 1 && (
                          <Button type="link" onClick={() => remove(field.name)}>
                            Remove
                          </Button>
                        )}
                      </Space>
                    ))}
                    <Button onClick={() => add({})}>Add a release bundle</Button>
                  </>
                )}
              </Form.List>
            )}
            {sourceType === 'aql' && (
              <Form.Item
                label="AQL query"
                name="aql"
                rules={[{ required: true, message: RELEASE_BUNDLE_MESSAGES.aqlItemsOnly }]}
                extra="Every file the query finds that you may read is taken, with its SHA-256 now."
              >
                <Input.TextArea rows={4} style={{ fontFamily: 'monospace' }} />
              </Form.Item>
            )}
            {sourceType === 'artifacts' && (
              <Form.Item
                label="Paths"
                name="paths"
                rules={[{ required: true, message: 'Give at least one path.' }]}
                extra="One file per line, as repository/path: libs-release-local/org/acme/app/1.0/app-1.0.jar"
              >
                <Input.TextArea rows={6} style={{ fontFamily: 'monospace' }} />
              </Form.Item>
            )}
          </div>

          {step === 2 && review && (
            <>
              <Descriptions
                bordered
                size="small"
                column={1}
                style={{ marginBottom: 16 }}
                items={[
                  {
                    key: 'name',
                    label: 'Release bundle',
                    children: `${review.release_bundle_name} ${review.release_bundle_version}`,
                  },
                  { key: 'key', label: 'Signed with', children: review.signing_key },
                  { key: 'type', label: 'Made from', children: RELEASE_BUNDLE_SOURCE_LABELS[sourceType] },
                  {
                    key: 'source',
                    label: 'Source',
                    children: <Typography.Text code>{JSON.stringify(review.source)}</Typography.Text>,
                  },
                ]}
              />
              <Alert
                type="info"
                showIcon
                style={{ marginBottom: 16 }}
                title="Once created, its artifacts cannot be deleted, moved or overwritten until the version is deleted."
              />
              <ErrorList messages={errors} style={{ marginBottom: 16 }} />
            </>
          )}
        </Form>
        <Space style={{ marginTop: 24 }}>
          {step > 0 && <Button onClick={() => setStep(step - 1)}>Back</Button>}
          {step < 2 && (
            <Button type="primary" onClick={() => void next()}>
              Next
            </Button>
          )}
          {step === 2 && (
            <Button type="primary" loading={create.isPending} onClick={() => void submit()}>
              Create
            </Button>
          )}
          <Button type="link" onClick={() => void navigate('/bundles')}>
            Cancel
          </Button>
        </Space>
      </Card>
    </>
  );
}
