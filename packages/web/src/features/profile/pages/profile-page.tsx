import { KeyOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Col, Descriptions, Flex, Form, Input, Row, Space, Typography } from 'antd';
import { Link } from 'react-router';
import { useState } from 'react';
import type { CreatedToken } from '@arca/contracts';
import { apiFetch, runSafely } from '../../../api/client';
import { StatusTag } from '../../../components/status-tag';
import { notifySuccess } from '../../../api/notifications';
import { useStartupData } from '../../../lib/startup';
import { ErrorList } from '../../../components/error-list';
import { FormModal } from '../../../components/form-modal';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../components/time';
import {
  useAccessTokens,
  useApiKeyState,
  useGenerateApiKey,
  useRevokeApiKey,
  useUnlockProfile,
  type Profile,
} from '../api/tokens';
import { SecretOnce } from '../components/secret-once';
import { TokensTable } from '../components/tokens-table';
import { NewTokenModal } from '../components/new-token-modal';
import { SshKeysCard } from '../components/ssh-keys-card';
import { useServerErrors } from '../../../lib/server-errors';
import { AuthorizedAppsCard } from '../../app-integrations';

import { REQUIRED } from '../../../lib/schema-rules';

/** Asks for the password before the profile shows keys and tokens. */
function Unlock({ onUnlocked }: { onUnlocked: (profile: Profile) => void }) {
  const unlock = useUnlockProfile();
  const { errors, capture } = useServerErrors();
  return (
    <Card style={{ maxWidth: 460 }}>
      <Typography.Paragraph>
        <LockOutlined /> Enter your current password to see and change your API key and access tokens.
      </Typography.Paragraph>
      <ErrorList messages={errors} style={{ marginBottom: 12 }} />
      <Form
        layout="vertical"
        onFinish={({ password }: { password: string }) =>
          unlock.mutate(password, {
            onSuccess: onUnlocked,
            onError: (error) => capture(error),
          })
        }
      >
        <Form.Item label="Current password" name="password" rules={[REQUIRED]}>
          <Input.Password autoFocus autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={unlock.isPending}>
          Unlock
        </Button>
      </Form>
    </Card>
  );
}

function ApiKeyCard() {
  const state = useApiKeyState(true);
  const generate = useGenerateApiKey();
  const revoke = useRevokeApiKey();
  const { modal } = App.useApp();
  const [shown, setShown] = useState<string | undefined>();
  const create = () =>
    generate.mutate(undefined, {
      onSuccess: ({ apiKey }) => {
        setShown(apiKey);
        notifySuccess('A new API key was generated');
      },
    });
  const exists = state.data?.exists ?? false;
  return (
    <Card title="API Key" loading={state.isPending} style={{ marginBottom: 20 }}>
      {shown && <SecretOnce label="API key" secret={shown} />}
      <Typography.Paragraph type="secondary">
        Package clients send it as the password, or in the <Typography.Text code>X-JFrog-Art-Api</Typography.Text>{' '}
        header.
      </Typography.Paragraph>
      <Typography.Paragraph>
        {exists
          ? `Created ${formatDateTime(state.data!.createdAt!)}; ${state.data!.lastUsedAt ? `last used ${formatDateTime(state.data!.lastUsedAt)}` : 'never used'}.`
          : 'You have no API key.'}
      </Typography.Paragraph>
      <Flex gap={8}>
        <Button
          type={exists ? 'default' : 'primary'}
          icon={<KeyOutlined />}
          loading={generate.isPending}
          onClick={() =>
            exists
              ? modal.confirm({
                  title: 'Regenerate the API key?',
                  content: 'Clients using the current key are refused from their next request.',
                  okText: 'Regenerate',
                  onOk: create,
                })
              : create()
          }
        >
          {exists ? 'Regenerate' : 'Generate API Key'}
        </Button>
        {exists && (
          <Button
            danger
            onClick={() =>
              modal.confirm({
                title: 'Revoke the API key?',
                content: 'Clients using it are refused from their next request. This cannot be undone.',
                okText: 'Revoke',
                okButtonProps: { danger: true },
                onOk: () =>
                  runSafely(() =>
                    revoke.mutateAsync().then(() => {
                      setShown(undefined);
                      notifySuccess('The API key was revoked');
                    }),
                  ),
              })
            }
          >
            Revoke
          </Button>
        )}
      </Flex>
    </Card>
  );
}

function TokensCard() {
  const tokens = useAccessTokens();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedToken | undefined>();
  return (
    <Card
      title="Access Tokens"
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          Generate Token
        </Button>
      }
    >
      {created && <SecretOnce label={`token “${created.description}”`} secret={created.token} />}
      {created?.refreshToken && <SecretOnce label="refresh token" secret={created.refreshToken} />}
      <Typography.Paragraph type="secondary">
        Use a token as <Typography.Text code>Authorization: Bearer …</Typography.Text> or as the password of your user
        name. Give each client its own token, so that you can revoke one without the others.
      </Typography.Paragraph>
      <TokensTable
        tokens={tokens.data ?? []}
        loading={tokens.isPending}
        showOwner={false}
        emptyText="No access tokens. Generate one for each CI system or package client."
      />
      <NewTokenModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(t) => {
          setCreating(false);
          setCreated(t);
          notifySuccess(`Token “${t.description}” was generated`);
        }}
      />
    </Card>
  );
}

/** Two-factor state, with set-up (enrolment page) and removal (with a current code, when the deployment allows it). */
function MfaState({ enrolled, onRemoved }: { enrolled: boolean; onRemoved: () => void }) {
  const [removing, setRemoving] = useState(false);
  const [form] = Form.useForm<{ otp: string }>();
  const otp = Form.useWatch('otp', form) ?? '';
  if (!enrolled) return <Link to="/login/mfa-enroll">Not set up — set up now</Link>;
  return (
    <Space>
      <StatusTag tone="success">Enabled</StatusTag>
      <Button size="small" onClick={() => setRemoving(true)}>
        Turn off
      </Button>
      <FormModal<{ otp: string }>
        open={removing}
        title="Turn two-factor authentication off?"
        okText="Turn off"
        danger
        okDisabled={!/^\d{6}$/.test(otp.trim())}
        form={form}
        onSubmit={({ otp: code }) =>
          apiFetch<void>('ui/auth/mfa', { method: 'DELETE', body: { otp: code.trim() }, silent: true }).then(() => {
            notifySuccess('Two-factor authentication was turned off');
            onRemoved();
          })
        }
        onClose={() => {
          setRemoving(false);
          form.resetFields();
        }}
      >
        <p>Signing in will need only your password. Enter the current code from your authenticator app to confirm.</p>
        <Form.Item label="Authentication code" name="otp" htmlFor="mfa-off-code">
          <Input id="mfa-off-code" autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
        </Form.Item>
      </FormModal>
    </Space>
  );
}

/** Edit Profile: the signed-in user's account, API key, access tokens and SSH keys. */
export function ProfilePage() {
  const { user } = useStartupData();
  const [profile, setProfile] = useState<Profile | undefined>();
  return (
    <>
      <PageHeader title="Edit Profile" description="Your account, and the credentials your package clients use." />
      {!profile ? (
        <Unlock onUnlocked={setProfile} />
      ) : (
        <Row gutter={20}>
          <Col xs={24} xl={9}>
            <Card title="Account" style={{ marginBottom: 20 }}>
              <Descriptions
                column={1}
                size="small"
                items={[
                  { key: 'name', label: 'User name', children: profile.user.name },
                  { key: 'email', label: 'E-mail', children: profile.user.email || '—' },
                  { key: 'realm', label: 'Realm', children: profile.user.realm },
                  { key: 'role', label: 'Role', children: user?.admin ? 'Administrator' : 'User' },
                  {
                    key: 'mfa',
                    label: 'Two-factor',
                    children: (
                      <MfaState
                        enrolled={profile.user.mfaEnrolled}
                        onRemoved={() => setProfile({ ...profile, user: { ...profile.user, mfaEnrolled: false } })}
                      />
                    ),
                  },
                ]}
              />
            </Card>
            <ApiKeyCard />
            <AuthorizedAppsCard username={profile.user.name} />
          </Col>
          <Col xs={24} xl={15}>
            <TokensCard />
            <SshKeysCard />
          </Col>
        </Row>
      )}
    </>
  );
}
