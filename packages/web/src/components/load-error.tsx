import { ReloadOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { ApiError } from '../api/client';
import { messagesOf } from '../lib/server-errors';
import { NotFoundResult } from './not-found-result';
import { PageResult } from './page-result';

/**
 * What a list or page shows when its data could not be loaded: what failed, the server's reason
 * and a retry — never the empty state, which would say there is nothing. One that stands for the
 * whole page (`page`) carries the page's heading.
 */
export function LoadError({
  what,
  error,
  onRetry,
  page = false,
}: {
  what: string;
  error: unknown;
  onRetry: () => void;
  page?: boolean;
}) {
  const Shown = page ? PageResult : Result;
  return (
    <Shown
      status="warning"
      title={`${what} could not be loaded`}
      subTitle={messagesOf(error)[0]}
      extra={
        <Button icon={<ReloadOutlined />} onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}

/**
 * The page of one thing whose loading failed: not found (404) says so with the way back to its
 * list; any other failure says what failed, with a retry.
 */
export function ThingLoadError({
  what,
  error,
  onRetry,
  backTo,
  backLabel,
}: {
  /** The thing, as a sentence names it: "Permission 'deploy'". */
  what: string;
  error: unknown;
  onRetry: () => void;
  backTo: string;
  backLabel: string;
}) {
  if (error instanceof ApiError && error.status === 404)
    return <NotFoundResult title={`${what} was not found`} backTo={backTo} backLabel={backLabel} />;
  return <LoadError page what={what} error={error} onRetry={onRetry} />;
}
