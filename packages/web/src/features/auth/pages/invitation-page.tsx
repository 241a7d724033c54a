import { Alert, Button, Form, Skeleton } from 'antd';
import { Link, Navigate, useSearchParams } from 'react-router';
import { PASSWORD_FLOW_MESSAGES } from '@arca/contracts';
import { ErrorList } from '../../../components/error-list';
import { useAcceptInvitation, useInvitation } from '../api/flows';
import { login, useLoginAnswer } from '../api/login';
import { AuthCard } from '../components/auth-card';
import { SignedInGate } from '../components/signed-in-gate';
import { NewPasswordFields } from '../components/new-password-fields';
import { useServerErrors } from '../../../lib/server-errors';

/** An invited user chooses a password (`?token=`), then is signed in. */
export function InvitationPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const invitation = useInvitation(token);
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
  return (
    <SignedInGate
      title="Welcome"
      pageTitle="Invitation"
      description="Accepting this invitation signs you out first, then signs you in as the invited user."
      proceed="Sign out and accept the invitation"
    >
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
    </SignedInGate>
  );
}
