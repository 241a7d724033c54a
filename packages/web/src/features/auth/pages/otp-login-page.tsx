import { Button, Form, Input, Typography } from 'antd';
import { Link, useLocation, useNavigate } from 'react-router';
import { PASSWORD_FLOW_MESSAGES } from '@arca/contracts';
import { ApiError } from '../../../api/client';
import { ErrorList } from '../../../components/error-list';
import { useVerifyOtp } from '../api/flows';
import { useLoginAnswer } from '../api/login';
import { SignedInGate } from '../components/signed-in-gate';
import { AuthCard, sixDigits } from '../components/auth-card';
import { messagesOf, useServerErrors } from '../../../lib/server-errors';

/** The second step of a sign-in: the code of the user's authenticator app. */
function OtpLoginPageForm() {
  const verify = useVerifyOtp();
  const onAnswer = useLoginAnswer();
  const navigate = useNavigate();
  const userName = (useLocation().state as { userName?: string } | null)?.userName;
  const { errors, clear, capture } = useServerErrors(PASSWORD_FLOW_MESSAGES.otpFailed);
  const submit = ({ otp }: { otp: string }) => {
    clear();
    verify.mutate(otp, {
      onSuccess: onAnswer,
      onError: (error) => {
        // the sign-in is over (too many codes, or too long): start again
        if (error instanceof ApiError && error.status === 403) {
          navigate('/login', {
            replace: true,
            state: { message: messagesOf(error, PASSWORD_FLOW_MESSAGES.otpExpired)[0] },
          });
        } else capture(error);
      },
    });
  };
  return (
    <AuthCard title="Two-factor authentication">
      <Typography.Paragraph>
        Enter the 6-digit code your authenticator app shows{userName ? ` for ${userName}` : ''}.
      </Typography.Paragraph>
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item label="Authentication code" name="otp" rules={[{ validator: sixDigits }]}>
          <Input.OTP
            role="group"
            aria-label="Authentication code"
            length={6}
            autoFocus
            formatter={(v) => v.replace(/\D/g, '')}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={verify.isPending}>
          Verify
        </Button>
      </Form>
      <div style={{ textAlign: 'center', marginTop: 16 }}>
        <Link to="/login">Back to login</Link>
      </div>
    </AuthCard>
  );
}

export function OtpLoginPage() {
  return (
    <SignedInGate
      title="Two-factor authentication"
      description="The authentication code is asked during a sign-in; this browser is signed in already."
      proceed="Sign out and sign in as someone else"
      afterSignOut="/login"
    >
      <OtpLoginPageForm />
    </SignedInGate>
  );
}
