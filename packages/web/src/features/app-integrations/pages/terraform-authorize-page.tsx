import { Button, Card, Flex, Typography } from 'antd';
import { PageResult } from '../../../components/page-result';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { TERRAFORM_MESSAGES, formatMessage } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { useCurrentUser } from '../../auth';

const frame = { maxWidth: 600, margin: '40px auto' } as const;

/**
 * The Terraform CLI's authorisation screen (route terraform.oauth2.authorize): `terraform login`
 * opens it with its PKCE challenge and local listener; Proceed asks the console's call for the
 * listener's address with a code and sends the browser there.
 */
export function TerraformAuthorizePage() {
  const [params] = useSearchParams();
  const user = useCurrentUser().data;
  const [phase, setPhase] = useState<'before' | 'after' | 'error'>(params.get('redirect_uri') ? 'before' : 'error');
  const [busy, setBusy] = useState(false);

  const proceed = () => {
    setBusy(true);
    const query = Object.fromEntries(
      ['client_id', 'code_challenge', 'code_challenge_method', 'redirect_uri', 'response_type', 'state']
        .map((name) => [name, params.get(name) ?? undefined])
        .filter(([, value]) => value !== undefined),
    ) as Record<string, string>;
    apiFetch<{ redirectUri: string }>('ui/oauth2/authorize', { method: 'POST', body: query, silent: true }).then(
      ({ redirectUri }) => {
        // the CLI's listener answers the browser; this page says what comes next
        void fetch(redirectUri, { mode: 'no-cors' }).then(
          () => setPhase('after'),
          () => window.location.assign(redirectUri),
        );
      },
      () => {
        setBusy(false);
        setPhase('error');
      },
    );
  };

  if (phase === 'error') {
    return <PageResult style={frame} status="error" title="Terraform login" subTitle={TERRAFORM_MESSAGES.error} />;
  }
  if (phase === 'after') {
    return <PageResult style={frame} status="success" title="Terraform login" subTitle={TERRAFORM_MESSAGES.after} />;
  }
  return (
    <Card
      style={frame}
      title={
        <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
          Terraform login
        </Typography.Title>
      }
    >
      <Typography.Paragraph>
        {formatMessage(TERRAFORM_MESSAGES.before, { name: user?.name ?? '' })}
      </Typography.Paragraph>
      <Flex justify="flex-end">
        <Button type="primary" loading={busy} onClick={proceed} disabled={!user}>
          Proceed
        </Button>
      </Flex>
    </Card>
  );
}
