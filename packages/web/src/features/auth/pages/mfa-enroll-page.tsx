import { Alert, Button, Flex, Form, Input, Skeleton, Typography } from 'antd';
import { Link, useNavigate } from 'react-router';
import { PASSWORD_FLOW_MESSAGES, type LoginAnswer } from '@arca/contracts';
import { ApiError } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { useConfirmEnrollment, useMfaEnrollment } from '../api/flows';
import { useLoginAnswer } from '../api/login';
import { AuthCard, sixDigits } from '../components/auth-card';
import { messagesOf, useServerErrors } from '../../../lib/server-errors';

/**
 * Sets up an authenticator app: during a sign-in that requires it, or from Edit Profile for a
 * signed-in user. The first code confirms it.
 */
export function MfaEnrollPage() {
  const enrollment = useMfaEnrollment();
  const confirm = useConfirmEnrollment();
  const onAnswer = useLoginAnswer();
  const navigate = useNavigate();
  const { errors, clear, capture } = useServerErrors(PASSWORD_FLOW_MESSAGES.otpFailed);
  const submit = ({ otp }: { otp: string }) => {
    clear();
    confirm.mutate(otp, {
      onSuccess: (answer) => {
        if ('enrolled' in answer) {
          notifySuccess('Two-factor authentication is set up');
          navigate('/profile', { replace: true });
        } else onAnswer(answer as LoginAnswer);
      },
      onError: (error) => capture(error),
    });
  };
  const expired = enrollment.error instanceof ApiError && enrollment.error.status === 403;
  return (
    <AuthCard title="Set up two-factor authentication">
      {enrollment.isPending ? (
        <Skeleton active />
      ) : enrollment.isError ? (
        <>
          <Alert
            type="error"
            showIcon
            title={
              messagesOf(
                enrollment.error,
                expired ? PASSWORD_FLOW_MESSAGES.otpExpired : PASSWORD_FLOW_MESSAGES.otpFailed,
              )[0]
            }
            style={{ marginBottom: 16 }}
          />
          <Link to="/login">Back to login</Link>
        </>
      ) : (
        <>
          <Typography.Paragraph>
            Scan this code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…), then
            enter the code it shows.
          </Typography.Paragraph>
          <Flex justify="center" style={{ marginBottom: 12 }}>
            <img
              src={enrollment.data.qrCode}
              alt="QR code to add this account to an authenticator app"
              width={200}
              height={200}
            />
          </Flex>
          <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
            Cannot scan? Enter this key:{' '}
            <Typography.Text code copyable={{ text: enrollment.data.secret }}>
              {enrollment.data.secret.replace(/(.{4})/g, '$1 ').trim()}
            </Typography.Text>
          </Typography.Paragraph>
          <ErrorList messages={errors} style={{ marginBottom: 16 }} />
          <Form layout="vertical" requiredMark={false} onFinish={submit}>
            <Form.Item label="Code from the app" name="otp" rules={[{ validator: sixDigits }]}>
              <Input.OTP
                role="group"
                aria-label="Code from the app"
                length={6}
                formatter={(v) => v.replace(/\D/g, '')}
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" block size="large" loading={confirm.isPending}>
              Confirm and continue
            </Button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}
