import type { ReactNode } from 'react';
import { Typography } from 'antd';
import { LoadError } from './load-error';

/** The part of a query a list's empty area needs. */
interface ListQuery {
  isLoading: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * What a list shows where it has no rows: that it is loading while it loads, what failed (with a
 * retry) when it could not load, and only then its empty state — an empty state never stands for
 * a list that has not answered yet.
 */
export function ListEmpty({ query, what, children }: { query: ListQuery; what: string; children: ReactNode }) {
  if (query.isLoading)
    return (
      <Typography.Text type="secondary" role="status" style={{ display: 'block', padding: '32px 0' }}>
        Loading {what.charAt(0).toLowerCase() + what.slice(1)}…
      </Typography.Text>
    );
  if (query.isError) return <LoadError what={what} error={query.error} onRetry={() => void query.refetch()} />;
  return <>{children}</>;
}
