import { Alert, Button, Form, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_FLOW_MESSAGES } from '@arca/contracts';
import { ErrorList } from '../../../components/error-list';
import { runSafely } from '../../../api/client';
import { useAcceptInvitation, useInvitation } from '../api/flows';
import { useCurrentUser } from '../api/get-current-user';
import { logout } from '../api/logout';
import { login, useLoginAnswer } from '../api/login';
import { AuthCard } from '../components/auth-card';
import { NewPasswordFields } from '../components/new-password-fields';
import { useServerErrors } from '../../../lib/server-errors';

/** An invited user chooses a password (`?token=`), then is signed in. */
export function InvitationPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const invitation = useInvitation(token);
  const current = useCurrentUser();
  const navigate = useNavigate();
  const [signedOut, setSignedOut] = useState(false);
  const accept = useAcceptInvitation();
  const onAnswer = useLoginAnswer();
  const { errors, clear, capture } = useServerErrors(PASSWORD_FLOW_MESSAGES.changeFailed);
  const submit = async ({ newPassword1 }: { newPassword1: string }) => {
    clear();
    try {
      await accept.mutateAsync({ token: token!, password: newPassword1 });
      onAnswer(await login({ user: invitation.data!.userName, password: newPassword1 }, false));
    } catch (error) {
      capture(error);
    }
  };
  // spec part 1 §2: an invitation needs a token, else login with the logout flag
  if (!token) return <Navigate to="/login?logout=true" replace />;
  const signedInAs = current.data && current.data.name !== 'anonymous' ? current.data.name : undefined;
  if (signedInAs && !signedOut) {
    return (
      <AuthCard title="Welcome" pageTitle="Invitation">
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={`You are signed in as ${signedInAs}`}
          description="Accepting this invitation signs you out first, then signs you in as the invited user."
        />
        <Space direction="vertical" style={{ width: '100%' }}>
          <Button
            type="primary"
            block
            size="large"
            onClick={() =>
              void runSafely(async () => {
                await logout();
                setSignedOut(true);
              })
            }
          >
            Sign out and accept the invitation
          </Button>
          <Button block size="large" onClick={() => navigate('/')}>
            Stay signed in as {signedInAs}
          </Button>
        </Space>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Welcome" pageTitle="Invitation">
      {invitation.isError ? (
        <>
          <Alert type="error" showIcon title={PASSWORD_FLOW_MESSAGES.badInvitation} style={{ marginBottom: 16 }} />
          <Link to="/login">Go to login</Link>
        </>
      ) : invitation.isPending ? (
        <Skeleton active />
      ) : (
        <>
          <Alert
            type="info"
            showIcon
            title={`Choose a password for ${invitation.data.userName}`}
            description={invitation.data.email}
            style={{ marginBottom: 16 }}
          />
          <ErrorList messages={errors} style={{ marginBottom: 16 }} />
          <Form layout="vertical" requiredMark={false} onFinish={submit}>
            <NewPasswordFields autoFocus />
            <Button type="primary" htmlType="submit" block size="large" loading={accept.isPending}>
              Set password and sign in
            </Button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}
