import { CheckCircleFilled, RocketOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  Flex,
  Form,
  Input,
  List,
  Radio,
  Result,
  Row,
  Skeleton,
  Space,
  Steps,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  ONBOARDING_FEATURES,
  ONBOARDING_MESSAGES,
  ONBOARDING_PURPOSES,
  ONBOARDING_ROLES,
  ONBOARDING_STEPS,
  ONBOARDING_STORAGE_KEY,
  onboardingStepErrors,
  packageTypeLabel,
  type OnboardingInput,
  type OnboardingStep,
  type QuickSetupAnswer,
} from '@arca/contracts';
import { ApiError } from '../../../api/client';
import { ErrorList } from '../../../components/error-list';
import { PageHeader } from '../../../components/page-header';
import { SetMeUpModal } from '../../artifacts';
import { useMarkGettingStartedSeen, useOnboardingState, useQuickSetup, useSendOnboarding } from '../api/onboarding';

/** The wizard's progress as kept in the browser until the server has it (spec: stepDataObject, isCompleted). */
interface StoredProgress {
  stepDataObject: OnboardingInput;
  isCompleted: Partial<Record<OnboardingStep, boolean>>;
}

function readProgress(): StoredProgress {
  try {
    const raw = window.localStorage.getItem(ONBOARDING_STORAGE_KEY);
    if (raw) return JSON.parse(raw) as StoredProgress;
  } catch {
    // a broken entry starts over
  }
  return { stepDataObject: { desiredFeature: [] }, isCompleted: {} };
}

const FEATURE_HINTS: Record<(typeof ONBOARDING_FEATURES)[number], string> = {
  'Binary management': 'Local, remote and virtual repositories for every package type',
  'Team Administration': 'Users, groups, permissions and projects',
  'Single Sign On': 'Sign in through your identity provider',
  'Vulnerabilities Scanning': 'Know what is vulnerable in what you ship',
  'License Compliance Checks': 'Keep the licenses of dependencies in check',
  'CI/CD': 'Builds, build info and promotions from your CI server',
  'Container Registry': 'Docker and OCI images and Helm charts',
  SBOM: 'What each release is made of',
};

/** The steps after the personalisation: the quick setup, and its result. */
const TITLES = ['Welcome', 'Purpose', 'About you', 'Features', 'Repositories', 'Ready'];

/**
 * The onboarding wizard and quick setup (`/quick-setup`): what the platform is used for, who uses
 * it, the features wanted (spec part 1 §3–§5), then repositories for the chosen package types and
 * the client set-up for them.
 */
export function QuickSetupPage() {
  const state = useOnboardingState();
  const markSeen = useMarkGettingStartedSeen();
  const seenMarked = useRef(false);
  // entering the wizard marks Getting Started seen
  useEffect(() => {
    if (state.data && !state.data.gettingStartedSeen && !seenMarked.current) {
      seenMarked.current = true;
      markSeen.mutate();
    }
  }, [state.data, markSeen]);
  if (state.isPending) return <Skeleton active />;
  if (state.isError) return <Alert type="error" showIcon title={state.error.message} />;
  return <Wizard completed={state.data.completed} />;
}

function Wizard({ completed }: { completed: boolean }) {
  const navigate = useNavigate();
  const [progress, setProgress] = useState<StoredProgress>(readProgress);
  const [step, setStep] = useState(completed ? 4 : 0);
  const [shownErrors, setShownErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<QuickSetupAnswer>();
  const send = useSendOnboarding();
  const [sendError, setSendError] = useState<string[]>([]);
  const data = progress.stepDataObject;

  const update = (changes: Partial<OnboardingInput>) => {
    // a field changed is judged again at the next Next
    setShownErrors((shown) => Object.fromEntries(Object.entries(shown).filter(([field]) => !(field in changes))));
    setProgress((p) => {
      const next = { ...p, stepDataObject: { ...p.stepDataObject, ...changes } };
      window.localStorage.setItem(ONBOARDING_STORAGE_KEY, JSON.stringify(next));
      return next;
    });
  };
  const goTo = (target: number) => {
    setShownErrors({});
    setStep(target);
  };

  const wizardStep = ONBOARDING_STEPS[step];
  const next = async () => {
    if (wizardStep && wizardStep !== 'init') {
      const errors = onboardingStepErrors(wizardStep, data);
      if (Object.keys(errors).length) {
        setShownErrors(errors);
        return;
      }
      const isCompleted = { ...progress.isCompleted, [wizardStep]: true };
      setProgress((p) => ({ ...p, isCompleted }));
      window.localStorage.setItem(ONBOARDING_STORAGE_KEY, JSON.stringify({ ...progress, isCompleted }));
    }
    if (wizardStep === 'desiredFeatures') {
      setSendError([]);
      try {
        await send.mutateAsync(data);
        // sent: the personalisation lives in the user's custom data now
        window.localStorage.removeItem(ONBOARDING_STORAGE_KEY);
      } catch (error) {
        setSendError(error instanceof ApiError ? error.messages : [(error as Error).message]);
        return;
      }
    }
    goTo(step + 1);
  };

  return (
    <>
      <PageHeader
        title="Quick Setup"
        description="From an empty installation to clients that install and publish through Arca, in a few steps."
        extra={
          step < 5 && (
            <Button type="link" onClick={() => navigate('/')}>
              Skip setup
            </Button>
          )
        }
      />
      <Card>
        <Steps
          current={step}
          status={step === 5 ? 'finish' : 'process'}
          size="small"
          items={TITLES.map((title) => ({ title }))}
          style={{ marginBottom: 28 }}
        />
        <div style={{ maxWidth: 860, margin: '0 auto' }}>
          {step === 0 && (
            <Result
              icon={<RocketOutlined style={{ color: '#1f4fd1' }} />}
              title="Welcome to Arca"
              subTitle="Tell us how you will use it, then pick your package types: Arca creates a local, a remote and a virtual repository for each and shows how to point your clients at them."
              extra={
                <Button type="primary" size="large" onClick={() => void next()}>
                  Get started
                </Button>
              }
            />
          )}
          {step === 1 && (
            <StepBody title="What will you use Arca for?" error={shownErrors.purpose}>
              <Radio.Group
                value={data.purpose}
                onChange={(e) => update({ purpose: e.target.value as OnboardingInput['purpose'] })}
                aria-label="Purpose"
              >
                <Space size={16} wrap>
                  {ONBOARDING_PURPOSES.map((purpose) => (
                    <Radio.Button
                      key={purpose}
                      value={purpose}
                      style={{ height: 'auto', padding: '14px 20px', minWidth: 240 }}
                    >
                      <Typography.Text strong>{purpose}</Typography.Text>
                      <br />
                      <Typography.Text type="secondary">
                        {purpose === 'Commercial'
                          ? 'For a company and its teams'
                          : 'For myself or an open source project'}
                      </Typography.Text>
                    </Radio.Button>
                  ))}
                </Space>
              </Radio.Group>
            </StepBody>
          )}
          {step === 2 && (
            <StepBody title="About you">
              <Form layout="vertical" style={{ maxWidth: 520 }}>
                <Form.Item
                  label="Your role"
                  required
                  validateStatus={shownErrors.role ? 'error' : undefined}
                  help={shownErrors.role}
                >
                  <Radio.Group
                    value={data.role}
                    onChange={(e) => update({ role: e.target.value as OnboardingInput['role'] })}
                    aria-label="Your role"
                  >
                    <Space direction="vertical">
                      {ONBOARDING_ROLES.map((role) => (
                        <Radio key={role} value={role}>
                          {role}
                        </Radio>
                      ))}
                    </Space>
                  </Radio.Group>
                </Form.Item>
                {data.role === 'Other' && (
                  <Form.Item
                    label="Your role, in your words"
                    htmlFor="onboarding-other-role"
                    required
                    validateStatus={shownErrors.otherRole ? 'error' : undefined}
                    help={shownErrors.otherRole}
                  >
                    <Input
                      id="onboarding-other-role"
                      value={data.otherRole}
                      onChange={(e) => update({ otherRole: e.target.value })}
                      maxLength={200}
                    />
                  </Form.Item>
                )}
                {data.purpose === 'Commercial' ? (
                  <Form.Item
                    label="Company name"
                    htmlFor="onboarding-company"
                    required
                    validateStatus={shownErrors.companyName ? 'error' : undefined}
                    help={shownErrors.companyName}
                  >
                    <Input
                      id="onboarding-company"
                      value={data.companyName}
                      onChange={(e) => update({ companyName: e.target.value })}
                      maxLength={200}
                    />
                  </Form.Item>
                ) : (
                  <Form.Item label="Open source project (optional)" htmlFor="onboarding-oss">
                    <Input
                      id="onboarding-oss"
                      value={data.ossProjectName}
                      onChange={(e) => update({ ossProjectName: e.target.value })}
                      maxLength={200}
                    />
                  </Form.Item>
                )}
              </Form>
            </StepBody>
          )}
          {step === 3 && (
            <StepBody title="Which features matter to you?" error={shownErrors.desiredFeature}>
              <Checkbox.Group
                value={data.desiredFeature}
                onChange={(values) => update({ desiredFeature: values as OnboardingInput['desiredFeature'] })}
                aria-label="Desired features"
                style={{ width: '100%' }}
              >
                <Row gutter={[12, 12]}>
                  {ONBOARDING_FEATURES.map((feature) => (
                    <Col xs={24} md={12} key={feature}>
                      <Card size="small" style={{ height: '100%' }}>
                        <Checkbox value={feature}>
                          <Typography.Text strong>{feature}</Typography.Text>
                          <br />
                          <Typography.Text type="secondary">{FEATURE_HINTS[feature]}</Typography.Text>
                        </Checkbox>
                      </Card>
                    </Col>
                  ))}
                </Row>
              </Checkbox.Group>
              <ErrorList messages={sendError} style={{ marginTop: 16 }} />
            </StepBody>
          )}
          {step === 4 && (
            <RepositoriesStep
              onCreated={(answer) => {
                setCreated(answer);
                goTo(5);
              }}
            />
          )}
          {step === 5 && <ReadyStep created={created} />}
          {step > 0 && step < 4 && (
            <Flex justify="space-between" style={{ marginTop: 28 }}>
              <Button onClick={() => goTo(step - 1)}>Back</Button>
              <Button type="primary" loading={send.isPending} onClick={() => void next()}>
                Next
              </Button>
            </Flex>
          )}
        </div>
      </Card>
    </>
  );
}

function StepBody({ title, error, children }: { title: string; error?: string; children: React.ReactNode }) {
  return (
    <section aria-label={title}>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {title}
      </Typography.Title>
      {children}
      {error && (
        <Typography.Paragraph type="danger" role="alert" style={{ marginTop: 12 }}>
          {error}
        </Typography.Paragraph>
      )}
    </section>
  );
}

function RepositoriesStep({ onCreated }: { onCreated: (answer: QuickSetupAnswer) => void }) {
  const state = useOnboardingState();
  const setup = useQuickSetup();
  const [chosen, setChosen] = useState<string[]>([]);
  const [inProject, setInProject] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [tried, setTried] = useState(false);
  const types = state.data?.packageTypes ?? [];
  const create = async () => {
    setTried(true);
    if (!chosen.length) return;
    setErrors([]);
    try {
      onCreated(await setup.mutateAsync({ packageTypes: chosen, inDefaultProject: inProject }));
    } catch (error) {
      setErrors(error instanceof ApiError ? error.messages : [(error as Error).message]);
    }
  };
  return (
    <StepBody
      title="Which package types do you use?"
      error={tried && !chosen.length ? ONBOARDING_MESSAGES.packageTypeRequired : undefined}
    >
      <Typography.Paragraph type="secondary">
        For each type Arca creates <Typography.Text code>&lt;type&gt;-local</Typography.Text> for your own packages,{' '}
        <Typography.Text code>&lt;type&gt;-remote</Typography.Text> caching the public registry, and the virtual{' '}
        <Typography.Text code>&lt;type&gt;</Typography.Text> your clients use for both.
      </Typography.Paragraph>
      <Checkbox.Group
        value={chosen}
        onChange={(v) => setChosen(v as string[])}
        style={{ width: '100%' }}
        aria-label="Package types"
      >
        <Row gutter={[12, 12]}>
          {types.map((t) => (
            <Col xs={12} md={8} lg={6} key={t.type}>
              <Card size="small" style={{ height: '100%', opacity: t.exists ? 0.65 : 1 }}>
                <Checkbox value={t.type} disabled={t.exists}>
                  <Typography.Text strong>{t.label}</Typography.Text>
                </Checkbox>
                <div style={{ marginTop: 4 }}>
                  {t.exists ? (
                    <Tag color="green">Set up already</Tag>
                  ) : (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t.upstream ? new URL(t.upstream).host : 'local and virtual only'}
                    </Typography.Text>
                  )}
                </div>
              </Card>
            </Col>
          ))}
        </Row>
      </Checkbox.Group>
      <Checkbox checked={inProject} onChange={(e) => setInProject(e.target.checked)} style={{ marginTop: 20 }}>
        Put them in the project {state.data?.defaultProject.name} ({state.data?.defaultProject.key})
      </Checkbox>
      <ErrorList messages={errors} style={{ marginTop: 16 }} />
      <Flex justify="flex-end" style={{ marginTop: 28 }}>
        <Button type="primary" loading={setup.isPending} onClick={() => void create()}>
          Create repositories
        </Button>
      </Flex>
    </StepBody>
  );
}

function ReadyStep({ created }: { created?: QuickSetupAnswer }) {
  const navigate = useNavigate();
  const [setMeUp, setSetMeUp] = useState<{ key: string; packageType: string }>();
  const virtuals = (created?.repositories ?? []).filter((r) => r.rclass === 'virtual');
  return (
    <section aria-label="Ready">
      <Result
        status="success"
        icon={<CheckCircleFilled />}
        title="Your repositories are ready"
        subTitle={`${created?.repositories.length ?? 0} repositories were created${
          created?.project ? ` in the project ${created.project}` : ''
        }. Point your clients at the virtual ones:`}
      />
      <List
        bordered
        dataSource={virtuals}
        renderItem={(repo) => (
          <List.Item
            actions={[
              <Button
                key="setmeup"
                type="primary"
                onClick={() => setSetMeUp({ key: repo.key, packageType: repo.packageType })}
              >
                Set Me Up
              </Button>,
              <Link key="browse" to={`/repos/tree/General/${encodeURIComponent(repo.key)}`}>
                Browse
              </Link>,
            ]}
          >
            <List.Item.Meta
              title={<Typography.Text strong>{repo.key}</Typography.Text>}
              description={`${packageTypeLabel(repo.packageType)}: ${repo.key}-local${
                created?.repositories.some((r) => r.key === `${repo.key}-remote`)
                  ? ` and ${repo.key}-remote`
                  : ' (no public registry to proxy)'
              }`}
            />
          </List.Item>
        )}
      />
      <Flex justify="center" gap={12} style={{ marginTop: 24 }}>
        <Button onClick={() => navigate('/admin/management/users')}>Invite your team</Button>
        <Button type="primary" onClick={() => navigate('/')}>
          Go to the overview
        </Button>
      </Flex>
      {setMeUp && (
        <SetMeUpModal
          open
          repoKey={setMeUp.key}
          packageType={setMeUp.packageType}
          onClose={() => setSetMeUp(undefined)}
        />
      )}
    </section>
  );
}
