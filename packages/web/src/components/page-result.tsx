import { Result, type ResultProps } from 'antd';
import type { ReactNode } from 'react';

/**
 * A result that is the whole page (a sign-in approved, a request no longer valid, a failure): its
 * title is the page's heading, in the result's own type.
 */
export function PageResult({ title, ...props }: Omit<ResultProps, 'title'> & { title: ReactNode }) {
  return <Result {...props} title={<h1 className="arca-result-title">{title}</h1>} />;
}
