import { Alert, Button, Card, Descriptions, Flex, Skeleton, Typography } from 'antd';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { WEB_LOGIN_MESSAGES, clientLoginCode, isAnonymousName } from '@arca/contracts';
import { ErrorList } from '../../../components/error-list';
import { formatDateTime, formatRelative } from '../../../components/time';
import { PageResult } from '../../../components/page-result';
import { messagesOf } from '../../../lib/server-errors';
import { rememberPathAfterLogin } from '../../../lib/post-login-path';
import { useCurrentUser } from '../api/get-current-user';
import { useDecideWebLogin, useWebLogin } from '../api/web-login';

const frame = { maxWidth: 560, margin: '40px auto' } as const;

/**
 * Where a command-line client's browser sign-in lands (npm login --auth-type=web): the signed-in
 * user sees which client asks, from where, and approves or denies. Approving gives the client
 * an access token for this user.
 */
export function WebLoginPage() {
  return <WebLoginApproval id={useParams().id ?? ''} />;
}

/**
 * Where a CLI's browser login lands after sign-in (`jf login` opens `/ui/login?jfClientSession=…`):
 * the same approval, with the code the command line prints to compare.
 */
export function CliRegistrationPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const user = useCurrentUser().data;
  const anonymous = user !== undefined && isAnonymousName(user.name);
  // with anonymous access the guards let the page open: an approval needs a signed-in user
  useEffect(() => {
    if (!anonymous) return;
    rememberPathAfterLogin(`${location.pathname}${location.search}`);
    navigate('/login', { replace: true });
  }, [anonymous, location, navigate]);
  const session = params.get('jfClientSession') ?? '';
  return <WebLoginApproval id={session} code={clientLoginCode(session)} clientName={params.get('jfClientName')} />;
}

function WebLoginApproval({ id, code, clientName: named }: { id: string; code?: string; clientName?: string | null }) {
  const request = useWebLogin(id);
  const decide = useDecideWebLogin(id);
  const user = useCurrentUser().data;
  const back = (
    <Link to="/">
      <Button>Go to the console</Button>
    </Link>
  );
  const approved = (
    <PageResult style={frame} status="success" title="Signed in" subTitle={WEB_LOGIN_MESSAGES.approved} extra={back} />
  );
  const denied = (
    <PageResult
      style={frame}
      status="info"
      title="Sign-in denied"
      subTitle="The command line was told. Nothing was signed in."
      extra={back}
    />
  );
  // the answer given here is what the page shows, whatever the client did since (it may have
  // collected its token before the page asked again)
  const decided = decide.isSuccess ? decide.variables : undefined;
  if (decided === 'approve') return approved;
  if (decided === 'deny') return denied;
  if (!id) {
    return (
      <PageResult
        style={frame}
        status="info"
        title="No sign-in to approve"
        subTitle={WEB_LOGIN_MESSAGES.noRequest}
        extra={back}
      />
    );
  }
  if (request.isPending) {
    return (
      <Card style={frame} aria-busy="true">
        <Skeleton active paragraph={{ rows: 4 }} />
      </Card>
    );
  }
  if (request.isError) {
    return (
      <PageResult
        style={frame}
        status="warning"
        title="This sign-in request is no longer valid"
        subTitle={messagesOf(request.error, WEB_LOGIN_MESSAGES.gone)[0]}
        extra={back}
      />
    );
  }
  const login = request.data;
  const clientName = named || login.client.split('/')[0];
  if (login.status === 'approved') return approved;
  if (login.status === 'denied') return denied;
  return (
    <Card
      style={frame}
      title={
        <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
          Sign in to {clientName}?
        </Typography.Title>
      }
    >
      <Typography.Paragraph>
        A command-line client asks to sign in as <Typography.Text strong>{user?.name}</Typography.Text>. Approve only if
        you started <Typography.Text code>{clientName} login</Typography.Text> yourself just now: the client receives an
        access token with your rights.
      </Typography.Paragraph>
      {code && (
        <Typography.Paragraph>
          Check that the command line shows this code:{' '}
          <Typography.Text code strong style={{ fontSize: 18, letterSpacing: 2 }} aria-label="Verification code">
            {code}
          </Typography.Text>
        </Typography.Paragraph>
      )}
      {login.sourceIp !== login.viewerIp && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={`The request came from ${login.sourceIp}, not from this browser's address (${login.viewerIp}).`}
          description="Approve only if you ran the command on that machine yourself. A link someone sent you is a way to take your rights: deny it."
        />
      )}
      <Descriptions
        column={1}
        size="small"
        bordered
        style={{ marginBottom: 20 }}
        items={[
          { key: 'client', label: 'Client', children: login.client },
          ...(login.hostname ? [{ key: 'host', label: 'Machine', children: login.hostname }] : []),
          { key: 'ip', label: 'From address', children: login.sourceIp },
          {
            key: 'at',
            label: 'Requested',
            children: `${formatDateTime(login.createdAt)} (${formatRelative(login.createdAt)})`,
          },
          { key: 'until', label: 'Expires', children: formatDateTime(login.expiresAt) },
        ]}
      />
      <ErrorList messages={decide.isError ? messagesOf(decide.error) : []} style={{ marginBottom: 16 }} />
      <Flex gap={12} justify="flex-end">
        <Button danger loading={decide.isPending && decide.variables === 'deny'} onClick={() => decide.mutate('deny')}>
          Deny
        </Button>
        <Button
          type="primary"
          loading={decide.isPending && decide.variables === 'approve'}
          onClick={() => decide.mutate('approve')}
        >
          Approve sign-in
        </Button>
      </Flex>
    </Card>
  );
}
