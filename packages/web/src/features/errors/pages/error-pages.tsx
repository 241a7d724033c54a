import { Button, Result, Typography } from 'antd';
import { PageResult } from '../../../components/page-result';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { ERROR_MESSAGES } from '@arca/contracts';
import { PageHeader } from '../../../components/page-header';
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
      <PageResult
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
      <PageResult
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
      </PageResult>
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
      <PageResult
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
      <PageResult
        status="403"
        title={ERROR_MESSAGES.notAuthorized}
        subTitle={message && message !== ERROR_MESSAGES.notAuthorized ? message : 'Ask an administrator for access.'}
        extra={<HomeButton />}
      />
    </main>
  );
}

/**
 * A page of a service this deployment does not run (Pipelines, Distribution, Xray …): in the
 * console's frame, saying so, with a way back.
 */
export function ServiceNotFoundPage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="Service not found" />
      <Result
        status="info"
        title="SERVICE NOT FOUND"
        subTitle="The service behind this page is not installed on this deployment."
        extra={
          <>
            <Button onClick={() => void navigate(-1)}>Go back</Button>
            <HomeButton />
          </>
        }
      />
    </>
  );
}
