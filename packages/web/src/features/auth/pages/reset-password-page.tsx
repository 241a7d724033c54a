import { Alert, Button, Form, Skeleton } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { PASSWORD_FLOW_MESSAGES } from '@arca/contracts';
import { ErrorList } from '../../../components/error-list';
import { useResetPassword, useValidateResetKey } from '../api/flows';
import { login, useLoginAnswer } from '../api/login';
import { SignedInGate } from '../components/signed-in-gate';
import { AuthCard } from '../components/auth-card';
import { NewPasswordFields } from '../components/new-password-fields';
import { useServerErrors } from '../../../lib/server-errors';

/** Chooses a new password from a mailed link (`?key=`), then signs in without remember-me. */
function ResetPasswordPageForm() {
  const [params] = useSearchParams();
  const key = params.get('key');
  const valid = useValidateResetKey(key);
  const reset = useResetPassword(key ?? '');
  const onAnswer = useLoginAnswer();
  const { errors, clear, capture } = useServerErrors(PASSWORD_FLOW_MESSAGES.resetFailed);
  const submit = async ({ newPassword1 }: { newPassword1: string }) => {
    clear();
    const user = valid.data!.user;
    try {
      await reset.mutateAsync({ user, password: newPassword1 });
      onAnswer(await login({ user, password: newPassword1 }, false));
    } catch (error) {
      capture(error);
    }
  };
  return (
    <AuthCard title="Choose a new password" pageTitle="Reset password">
      {!key || valid.isError ? (
        <>
          <Alert type="error" showIcon title={PASSWORD_FLOW_MESSAGES.badResetLink} style={{ marginBottom: 16 }} />
          <Link to="/login/forgot-password">Ask for a new link</Link>
        </>
      ) : valid.isPending ? (
        <Skeleton active />
      ) : (
        <>
          <Alert type="info" showIcon title={`For user ${valid.data.user}`} style={{ marginBottom: 16 }} />
          <ErrorList messages={errors} style={{ marginBottom: 16 }} />
          <Form layout="vertical" requiredMark={false} onFinish={submit}>
            <NewPasswordFields autoFocus />
            <Button type="primary" htmlType="submit" block size="large" loading={reset.isPending}>
              Reset password and sign in
            </Button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}

export function ResetPasswordPage() {
  return (
    <SignedInGate
      title="Choose a new password"
      pageTitle="Reset password"
      description="This link sets a new password for the account it was sent to, then signs that account in."
      proceed="Sign out and set the new password"
    >
      <ResetPasswordPageForm />
    </SignedInGate>
  );
}
