import { Alert, Button, Form, Input } from 'antd';
import { Link, useLocation, useParams } from 'react-router';
import { changePasswordBodySchema, PASSWORD_FLOW_MESSAGES } from '@arca/contracts';
import { ErrorList } from '../../../components/error-list';
import { useChangePassword } from '../api/flows';
import { useLoginAnswer } from '../api/login';
import { SignedInGate } from '../components/signed-in-gate';
import { AuthCard } from '../components/auth-card';
import { NewPasswordFields } from '../components/new-password-fields';
import { useServerErrors } from '../../../lib/server-errors';
import { schemaField } from '../../../lib/schema-rules';

interface Values {
  oldPassword: string;
  newPassword1: string;
  newPassword2: string;
}

/** An expired (or administrator-reset) password: the current one, then a new one; then signed in. */
function ChangePasswordPageForm() {
  const { userName = '' } = useParams();
  const notice = (useLocation().state as { message?: string } | null)?.message;
  const change = useChangePassword();
  const onAnswer = useLoginAnswer();
  const { errors, clear, capture } = useServerErrors(PASSWORD_FLOW_MESSAGES.changeFailed);
  const submit = (v: Values) => {
    clear();
    change.mutate({ userName, ...v }, { onSuccess: onAnswer, onError: (error) => capture(error) });
  };
  return (
    <AuthCard title="Change your password" pageTitle="Change password">
      <Alert
        type="warning"
        showIcon
        title={notice ?? PASSWORD_FLOW_MESSAGES.mustChange}
        description={userName ? `User ${userName}` : undefined}
        style={{ marginBottom: 16 }}
      />
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form<Values> layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item
          label="Current password"
          name="oldPassword"
          {...schemaField(changePasswordBodySchema.shape.oldPassword)}
        >
          <Input.Password autoComplete="current-password" autoFocus size="large" />
        </Form.Item>
        <NewPasswordFields />
        <Button type="primary" htmlType="submit" block size="large" loading={change.isPending}>
          Change password and sign in
        </Button>
      </Form>
      <div style={{ textAlign: 'center', marginTop: 16 }}>
        <Link to="/login">Back to login</Link>
      </div>
    </AuthCard>
  );
}

export function ChangePasswordPage() {
  return (
    <SignedInGate
      title="Change your password"
      pageTitle="Change password"
      description="This page changes an expired password before a sign-in. Signed in, you change yours on Edit Profile."
      proceed="Sign out and change an expired password"
      instead={{ label: 'Change my password on Edit Profile', to: '/profile' }}
    >
      <ChangePasswordPageForm />
    </SignedInGate>
  );
}
