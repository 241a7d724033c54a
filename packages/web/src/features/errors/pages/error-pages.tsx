import { Button, Result, Typography } from 'antd';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { ERROR_MESSAGES } from '@arca/contracts';
import { usePageTitle } from '../../../lib/page-title';

function HomeButton() {
  const navigate = useNavigate();
  return (
    <Button type="primary" onClick={() => navigate('/')}>
      Back to the console
    </Button>
  );
}

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <main className="arca-error-page">
      <Result
        status="404"
        title="404"
        subTitle="The page you were looking for does not exist."
        extra={<HomeButton />}
      />
    </main>
  );
}

export function NotAcceptablePage() {
  usePageTitle('Request not acceptable');
  const { requestId } = useParams();
  return (
    <main className="arca-error-page">
      <Result
        status="warning"
        title="406"
        subTitle="The server could not answer this request in a form the console accepts."
        extra={<HomeButton />}
      >
        {requestId && (
          <Typography.Paragraph style={{ textAlign: 'center' }}>
            Request id:{' '}
            <Typography.Text code copyable>
              {requestId}
            </Typography.Text>
          </Typography.Paragraph>
        )}
      </Result>
    </main>
  );
}

/** Reachable only when arriving from another page; opened directly it goes to /. */
export function ServerErrorPage() {
  usePageTitle('Server error');
  const location = useLocation();
  const state = location.state as { from?: string } | null;
  if (!state?.from) return <Navigate to="/" replace />;
  return (
    <main className="arca-error-page">
      <Result
        status="500"
        title="500"
        subTitle="Something went wrong on the server. The details are in the product's logs."
        extra={<HomeButton />}
      />
    </main>
  );
}

export function NotAuthorizedPage() {
  usePageTitle('Not authorized');
  const location = useLocation();
  const message = (location.state as { message?: string } | null)?.message;
  return (
    <main className="arca-error-page">
      <Result
        status="403"
        title={ERROR_MESSAGES.notAuthorized}
        subTitle={message && message !== ERROR_MESSAGES.notAuthorized ? message : 'Ask an administrator for access.'}
        extra={<HomeButton />}
      />
    </main>
  );
}
