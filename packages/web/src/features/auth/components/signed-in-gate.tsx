import { Alert, Button, Skeleton, Space } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { isAnonymousName } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { useCurrentUser } from '../api/get-current-user';
import { logout } from '../api/logout';
import { AuthCard } from './auth-card';

/**
 * A sign-in page opened by someone who is signed in already: it says who they are and what the
 * page is for, and offers to sign out and go on, to stay, or the page's own way forward
 * (`instead`); a visitor who is not signed in sees the page itself.
 */
export function SignedInGate({
  title,
  pageTitle,
  description,
  proceed,
  instead,
  afterSignOut,
  children,
}: {
  title: string;
  pageTitle?: string;
  /** What the page is for, said to someone who is signed in. */
  description: string;
  /** The words of the button that signs out and opens the page. */
  proceed: string;
  /** Where a signed-in user does this instead (Edit Profile for a password). */
  instead?: { label: string; to: string };
  /** Where signing out leads when the page itself has nothing to do without a sign-in in progress. */
  afterSignOut?: string;
  children: ReactNode;
}) {
  const current = useCurrentUser();
  const navigate = useNavigate();
  const [signedOut, setSignedOut] = useState(false);
  const signedInAs = current.data && !isAnonymousName(current.data.name) ? current.data.name : undefined;
  if (current.isPending)
    return (
      <AuthCard title={title} pageTitle={pageTitle}>
        <Skeleton active />
      </AuthCard>
    );
  if (!signedInAs || signedOut) return <>{children}</>;
  return (
    <AuthCard title={title} pageTitle={pageTitle}>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title={`You are signed in as ${signedInAs}`}
        description={description}
      />
      <Space direction="vertical" style={{ width: '100%' }}>
        {instead && (
          <Button type="primary" block size="large" onClick={() => navigate(instead.to)}>
            {instead.label}
          </Button>
        )}
        <Button
          type={instead ? 'default' : 'primary'}
          block
          size="large"
          onClick={() =>
            void runSafely(async () => {
              await logout();
              if (afterSignOut) navigate(afterSignOut, { replace: true });
              else setSignedOut(true);
            })
          }
        >
          {proceed}
        </Button>
        <Button block size="large" onClick={() => navigate('/')}>
          Stay signed in as {signedInAs}
        </Button>
      </Space>
    </AuthCard>
  );
}
