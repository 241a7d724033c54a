import { Alert, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { forgotPasswordBodySchema, PASSWORD_FLOW_MESSAGES } from '@arca/contracts';
import { ErrorList } from '../../../components/error-list';
import { useForgotPassword } from '../api/flows';
import { SignedInGate } from '../components/signed-in-gate';
import { AuthCard } from '../components/auth-card';
import { useServerErrors } from '../../../lib/server-errors';
import { schemaField } from '../../../lib/schema-rules';

/** Asks for a reset link by e-mail. */
function ForgotPasswordPageForm() {
  const forgot = useForgotPassword();
  const { errors, clear, capture } = useServerErrors(PASSWORD_FLOW_MESSAGES.emailNotSent);
  const [sent, setSent] = useState<string | undefined>();
  return (
    <AuthCard title="Forgot your password?">
      {sent ? (
        <Alert type="success" showIcon title={sent} style={{ marginBottom: 16 }} />
      ) : (
        <>
          <Typography.Paragraph>
            Enter your user name or e-mail address: we will mail you a link to choose a new password.
          </Typography.Paragraph>
          <ErrorList messages={errors} style={{ marginBottom: 16 }} />
          <Form
            layout="vertical"
            requiredMark={false}
            onFinish={({ user }: { user: string }) => {
              clear();
              forgot.mutate(user.trim(), {
                onSuccess: ({ message }) => setSent(message),
                onError: (error) => capture(error),
              });
            }}
          >
            <Form.Item label="User name or e-mail" name="user" {...schemaField(forgotPasswordBodySchema.shape.user)}>
              <Input autoFocus autoComplete="username" size="large" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block size="large" loading={forgot.isPending}>
              Send reset link
            </Button>
          </Form>
        </>
      )}
      <div style={{ textAlign: 'center', marginTop: 16 }}>
        <Link to="/login">Back to login</Link>
      </div>
    </AuthCard>
  );
}

export function ForgotPasswordPage() {
  return (
    <SignedInGate
      title="Forgot your password?"
      description="This page sends a reset link to someone who cannot sign in. Signed in, you change your password on Edit Profile."
      proceed="Sign out and reset a password"
      instead={{ label: 'Change my password on Edit Profile', to: '/profile' }}
    >
      <ForgotPasswordPageForm />
    </SignedInGate>
  );
}
