import { Alert, Button, Descriptions, Form, Input, Modal, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { apiFetch } from '../../../api/client';
import { ErrorList } from '../../../components/error-list';
import { messagesOf } from '../../../lib/server-errors';
import { useStartupData } from '../../../lib/startup';

export type DevTool = 'vscode' | 'jetbrains' | 'cli';

interface ProfileAnswer {
  apiKey: { exists: boolean };
}

/**
 * The user's API key for a tool: the profile opened again (with the password, or with none for a
 * user who signs in through a provider and has none), the key made when there is none yet, then read.
 */
async function apiKeyFor(password: string): Promise<string> {
  const profile = await apiFetch<ProfileAnswer>('ui/userProfile', { method: 'POST', body: { password }, silent: true });
  if (!profile.apiKey.exists) {
    return (await apiFetch<{ apiKey: string }>('ui/apiKey', { method: 'POST', silent: true })).apiKey;
  }
  const response = await fetch('/artifactory/api/security/apiKey', {
    credentials: 'same-origin',
    headers: { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' },
  });
  if (!response.ok) throw new Error('The API key could not be read.');
  return ((await response.json()) as { apiKey: string }).apiKey;
}

const TITLES: Record<DevTool, string> = { vscode: 'VS Code', jetbrains: 'JetBrains IDEs', cli: 'JFrog CLI' };

function Instructions({ tool, user, apiKey }: { tool: DevTool; user: string; apiKey: string }) {
  const url = window.location.origin;
  return (
    <>
      <Descriptions
        column={1}
        bordered
        size="small"
        style={{ marginBottom: 16 }}
        items={[
          { key: 'url', label: 'Platform URL', children: <Typography.Text copyable>{url}</Typography.Text> },
          { key: 'user', label: 'Username', children: user },
          {
            key: 'key',
            label: 'API key',
            children: (
              <Typography.Text code copyable aria-label="API key">
                {apiKey}
              </Typography.Text>
            ),
          },
        ]}
      />
      {tool === 'cli' ? (
        <>
          <Typography.Paragraph>Configure the CLI with these credentials:</Typography.Paragraph>
          <Typography.Paragraph>
            <pre style={{ whiteSpace: 'pre-wrap' }}>
              <code>{`jf config add arca --url=${url} --user=${user} --password=${apiKey} --interactive=false`}</code>
            </pre>
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary">
            Or sign in through the browser with <Typography.Text code>jf login</Typography.Text>: no key to paste.
          </Typography.Paragraph>
        </>
      ) : (
        <Typography.Paragraph>
          In the {TITLES[tool]} plugin&apos;s connection settings, enter the platform URL and the username, and the API
          key as the password. The plugin then resolves dependencies and shows scan results through this deployment.
        </Typography.Paragraph>
      )}
    </>
  );
}

/**
 * An IDE or CLI card's modal. A user with a password confirms it first; a user who signs in
 * through a provider has none, so the profile is opened with an empty password at once.
 */
export function DevToolModal({ tool, onClose }: { tool: DevTool | undefined; onClose: () => void }) {
  const { user } = useStartupData();
  const internal = user?.realm === 'internal';
  const [apiKey, setApiKey] = useState<string>();
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const fetchKey = (secret: string) => {
    setBusy(true);
    setErrors([]);
    apiKeyFor(secret)
      .then(setApiKey, (error: unknown) => setErrors(messagesOf(error)))
      .finally(() => setBusy(false));
  };
  // a provider's user has no password to confirm: the key is fetched as the modal opens
  useEffect(() => {
    if (tool && !internal && apiKey === undefined) {
      let cancelled = false;
      apiKeyFor('').then(
        (key) => !cancelled && setApiKey(key),
        (error: unknown) => !cancelled && setErrors(messagesOf(error)),
      );
      return () => {
        cancelled = true;
      };
    }
    return undefined;
  }, [tool, internal, apiKey]);

  const close = () => {
    setApiKey(undefined);
    setErrors([]);
    onClose();
  };
  return (
    <Modal
      open={tool !== undefined}
      title={tool ? `Set up ${TITLES[tool]}` : ''}
      onCancel={close}
      footer={null}
      destroyOnHidden
      width={640}
    >
      <ErrorList messages={errors} />
      {apiKey && tool && user ? (
        <Instructions tool={tool} user={user.name} apiKey={apiKey} />
      ) : internal ? (
        <Form layout="vertical" onFinish={(values: { password: string }) => fetchKey(values.password)}>
          <Alert
            type="info"
            showIcon
            title="Confirm your password to show your API key."
            style={{ marginBottom: 16 }}
          />
          <Form.Item
            name="password"
            label="Current password"
            rules={[{ required: true, message: 'Enter your password.' }]}
          >
            <Input.Password autoFocus autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy}>
            Continue
          </Button>
        </Form>
      ) : (
        errors.length === 0 && <Spin aria-label="Fetching your API key" />
      )}
    </Modal>
  );
}
