import { Alert, App, Button, Card, Checkbox, Descriptions, Form, Select, Space, Steps, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import {
  FEDERATION_ENTITY_LABELS,
  FEDERATION_ENTITY_TYPES,
  FEDERATION_MESSAGES,
  type Federation,
  type FederationCandidate,
  type FederationEntityType,
} from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { useServerErrors } from '../../../lib/server-errors';
import { useCandidates, useFederationActions, useFederations } from '../api/federation';
import { FEDERATION } from './access-federation-page';

const STEPS = ['Select deployments', 'Select entity types', 'Summary', 'Configuration output'];

/**
 * The federation wizard (`access_federation/mesh`, `/star`, `/star/:federationId`): the members,
 * what is synced, a summary to confirm, then the configuration each member received.
 */
export function FederationWizardPage() {
  const { pathname, state } = useLocation();
  const { federationId } = useParams();
  const topology = pathname.includes('/mesh') ? 'MESH' : 'STAR';
  const candidates = useCandidates();
  const federations = useFederations();
  // editing: the mesh a member belongs to, or the star of a source
  const group = (state as { group?: string } | null)?.group;
  const editing = useMemo(() => {
    const rows = federations.data ?? [];
    if (topology === 'STAR' && federationId) return rows.filter((r) => r.source.id === federationId);
    if (topology === 'MESH' && group) return rows.filter((r) => r.group_id === group);
    return [];
  }, [federations.data, federationId, group, topology]);
  if (candidates.isError)
    return <LoadError page what="The deployments" error={candidates.error} onRetry={() => void candidates.refetch()} />;
  if (federations.isError)
    return (
      <LoadError page what="The federations" error={federations.error} onRetry={() => void federations.refetch()} />
    );
  if (candidates.isPending || federations.isPending) return <Card loading />;
  return (
    <Wizard
      key={`${topology}:${editing[0]?.group_id ?? 'new'}`}
      topology={topology}
      editing={editing}
      candidates={candidates.data}
    />
  );
}

function Wizard({
  topology,
  editing,
  candidates,
}: {
  topology: 'MESH' | 'STAR';
  editing: Federation[];
  candidates: FederationCandidate[];
}) {
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const actions = useFederationActions();
  const { errors, clear, capture } = useServerErrors('The federation could not be saved');
  const first = editing[0];
  const [step, setStep] = useState(0);
  const [members, setMembers] = useState<string[]>(() =>
    !first ? [] : topology === 'STAR' ? first.targets.map((t) => t.id) : editing.map((r) => r.source.id),
  );
  const [source, setSource] = useState<string | undefined>(topology === 'STAR' ? first?.source.id : undefined);
  const [types, setTypes] = useState<FederationEntityType[]>(first?.entity_types ?? ['USERS', 'GROUPS', 'PERMISSIONS']);
  const [include, setInclude] = useState<string[]>(first?.permissions_filter.include_patterns ?? []);
  const [exclude, setExclude] = useState<string[]>(first?.permissions_filter.exclude_patterns ?? []);
  const [saved, setSaved] = useState<Federation[]>();
  const [stepError, setStepError] = useState<string>();
  const names = new Map(candidates.map((c) => [c.id, c]));
  const title = `${editing.length ? 'Edit' : 'New'} ${topology === 'MESH' ? 'Full Mesh' : 'Star'}`;

  const next = () => {
    setStepError(undefined);
    if (step === 0) {
      if (topology === 'MESH' && members.length < 2) return setStepError(FEDERATION_MESSAGES.meshMembers);
      if (topology === 'STAR' && (!source || !members.length)) return setStepError(FEDERATION_MESSAGES.starTargets);
    }
    if (step === 1 && !types.length) return setStepError(FEDERATION_MESSAGES.noEntity);
    setStep(step + 1);
  };
  const confirm = async () => {
    clear();
    try {
      const rows = await actions.save.mutateAsync({
        topology,
        ...(topology === 'STAR' ? { source } : {}),
        members,
        entity_types: types,
        permissions_filter: { include_patterns: include, exclude_patterns: exclude },
      });
      setSaved(rows);
      notifySuccess(FEDERATION_MESSAGES.saved);
      setStep(3);
    } catch (error) {
      capture(error);
    }
  };
  const cancel = () => navigate(FEDERATION);

  return (
    <>
      <PageHeader
        title={title}
        description={
          topology === 'MESH'
            ? 'Every member sends its own changes to every other member.'
            : 'The source sends its changes to each target; changes made on a target stay there.'
        }
      />
      <Card>
        <Steps current={step} items={STEPS.map((t) => ({ title: t }))} style={{ marginBottom: 24 }} />
        {stepError && <Alert type="error" showIcon title={stepError} style={{ marginBottom: 16 }} role="alert" />}
        <ErrorList messages={errors} style={{ marginBottom: 16 }} />
        {step === 0 && (
          <Form layout="vertical" style={{ maxWidth: 640 }}>
            {topology === 'STAR' && (
              <Form.Item label="Source" required>
                <Select
                  aria-label="Source"
                  value={source}
                  onChange={(value: string) => {
                    setSource(value);
                    setMembers(members.filter((m) => m !== value));
                  }}
                  placeholder="The deployment whose changes travel"
                  options={candidates.map((c) => ({ value: c.id, label: `${c.name} — ${c.url}` }))}
                />
              </Form.Item>
            )}
            <Form.Item label={topology === 'MESH' ? 'Members' : 'Targets'} required>
              <Checkbox.Group
                value={members}
                onChange={(values) => setMembers(values as string[])}
                style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
                options={candidates
                  .filter((c) => c.id !== source)
                  .map((c) => ({
                    value: c.id,
                    label: (
                      <span>
                        <Typography.Text strong>{c.name}</Typography.Text>{' '}
                        <Typography.Text type="secondary">{c.url}</Typography.Text>
                        {c.id === 'local' && <Tag style={{ marginLeft: 8 }}>this deployment</Tag>}
                      </span>
                    ),
                  }))}
              />
            </Form.Item>
          </Form>
        )}
        {step === 1 && (
          <Form layout="vertical" style={{ maxWidth: 640 }}>
            <Form.Item label="Entity types" required>
              <Checkbox.Group
                value={types}
                onChange={(values) => {
                  if (editing.length && values.length < types.length)
                    modal.info({ title: FEDERATION_MESSAGES.entityReset });
                  setTypes(values as FederationEntityType[]);
                }}
                options={FEDERATION_ENTITY_TYPES.map((t) => ({ value: t, label: FEDERATION_ENTITY_LABELS[t] }))}
              />
            </Form.Item>
            {types.includes('PERMISSIONS') && (
              <>
                <Form.Item
                  label="Permissions to include"
                  extra="Names matching one of these patterns travel (* matches anything); none: every permission."
                >
                  <Select mode="tags" aria-label="Permissions to include" value={include} onChange={setInclude} />
                </Form.Item>
                <Form.Item label="Permissions to exclude" extra="Names matching one of these stay where they are made.">
                  <Select mode="tags" aria-label="Permissions to exclude" value={exclude} onChange={setExclude} />
                </Form.Item>
              </>
            )}
          </Form>
        )}
        {step === 2 && (
          <Descriptions bordered column={1} size="small" style={{ maxWidth: 720 }}>
            <Descriptions.Item label="Topology">{topology === 'MESH' ? 'Full Mesh' : 'Star'}</Descriptions.Item>
            {topology === 'STAR' && (
              <Descriptions.Item label="Source">{names.get(source ?? '')?.name}</Descriptions.Item>
            )}
            <Descriptions.Item label={topology === 'MESH' ? 'Members' : 'Targets'}>
              {members.map((m) => (
                <Tag key={m}>{names.get(m)?.name ?? m}</Tag>
              ))}
            </Descriptions.Item>
            <Descriptions.Item label="Entity types">
              {types.map((t) => FEDERATION_ENTITY_LABELS[t]).join(', ')}
            </Descriptions.Item>
            {types.includes('PERMISSIONS') && (
              <Descriptions.Item label="Permissions filter">
                {`include ${include.join(', ') || 'all'}; exclude ${exclude.join(', ') || 'none'}`}
              </Descriptions.Item>
            )}
            <Descriptions.Item label="What happens">
              Each sending member gets a token on each of its peers and sends every change from now on; use Broadcast on
              the list to send what exists already.
            </Descriptions.Item>
          </Descriptions>
        )}
        {step === 3 && saved && (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Alert type="success" showIcon title={FEDERATION_MESSAGES.saved} />
            <pre
              tabIndex={0}
              aria-label="Configuration output"
              style={{ maxHeight: 360, overflow: 'auto', background: '#f6f8fa', padding: 12 }}
            >
              {JSON.stringify(
                saved.map((f) => ({
                  source: f.source.name,
                  targets: f.targets.map((t) => t.name),
                  entity_types: f.entity_types,
                  permissions_filter: f.permissions_filter,
                })),
                null,
                2,
              )}
            </pre>
          </Space>
        )}
        <Space style={{ marginTop: 24 }}>
          {step < 3 && <Button onClick={cancel}>Cancel</Button>}
          {step > 0 && step < 3 && <Button onClick={() => setStep(step - 1)}>Back</Button>}
          {step < 2 && (
            <Button type="primary" onClick={next}>
              {step === 1 ? 'Finish' : 'Next'}
            </Button>
          )}
          {step === 2 && (
            <Button type="primary" loading={actions.save.isPending} onClick={() => void confirm()}>
              Confirm
            </Button>
          )}
          {step === 3 && (
            <Button type="primary" onClick={cancel}>
              Close
            </Button>
          )}
        </Space>
      </Card>
    </>
  );
}
