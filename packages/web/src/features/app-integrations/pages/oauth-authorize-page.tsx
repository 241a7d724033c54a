import { Button, Card, Flex, Skeleton, Typography } from 'antd';
import { PageResult } from '../../../components/page-result';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { APP_INTEGRATION_MESSAGES } from '@arca/contracts';
import { ErrorList } from '../../../components/error-list';
import { messagesOf } from '../../../lib/server-errors';
import { useCurrentUser } from '../../auth';
import { authorizeApplication, useConsentRequest } from '../api/app-integrations';

const frame = { maxWidth: 560, margin: '40px auto' } as const;

/**
 * The authorisation endpoint's page: the signed-in user sees which application asks to act on
 * their behalf and approves (the browser goes back to the application with a code) or denies.
 */
export function OAuthAuthorizePage() {
  const [params] = useSearchParams();
  const clientId = params.get('client_id') ?? '';
  const redirectUri = params.get('redirect_uri') ?? '';
  const state = params.get('state');
  const request = useConsentRequest(clientId, redirectUri);
  const user = useCurrentUser().data;
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);

  if (!clientId || !redirectUri || request.isError) {
    return (
      <PageResult
        style={frame}
        status="warning"
        title="This authorisation request cannot be used"
        subTitle={request.isError ? messagesOf(request.error)[0] : APP_INTEGRATION_MESSAGES.badRequest}
      />
    );
  }
  if (request.isPending || !user) {
    return (
      <Card style={frame} aria-busy="true">
        <Skeleton active paragraph={{ rows: 4 }} />
      </Card>
    );
  }
  const approve = () => {
    setBusy(true);
    setErrors([]);
    authorizeApplication(clientId, user.name, window.location.href).then(
      ({ redirectUri: back }) => window.location.assign(back),
      (error: unknown) => {
        setBusy(false);
        setErrors(messagesOf(error));
      },
    );
  };
  const deny = () => {
    // the address was checked against the application's registered callback
    const back = new URL(redirectUri);
    back.searchParams.set('error', 'access_denied');
    if (state !== null) back.searchParams.set('state', state);
    window.location.assign(back.toString());
  };
  const app = request.data;
  return (
    <Card
      style={frame}
      title={
        <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
          Authorise {app.name}?
        </Typography.Title>
      }
    >
      <Typography.Paragraph>
        <Typography.Text strong>{app.name}</Typography.Text> asks to act on your behalf as{' '}
        <Typography.Text strong>{user.name}</Typography.Text>, with your permissions. You can take this back at any time
        from your profile.
      </Typography.Paragraph>
      {app.description && <Typography.Paragraph type="secondary">{app.description}</Typography.Paragraph>}
      <Typography.Paragraph type="secondary">
        You will be sent back to <Typography.Text code>{new URL(redirectUri).host}</Typography.Text>.
      </Typography.Paragraph>
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Flex gap={12} justify="flex-end">
        <Button danger onClick={deny} disabled={busy}>
          Deny
        </Button>
        <Button type="primary" loading={busy} onClick={approve}>
          Authorise
        </Button>
      </Flex>
    </Card>
  );
}
