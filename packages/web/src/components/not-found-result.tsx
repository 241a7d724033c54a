import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../lib/page-title';
import { PageResult } from './page-result';

/**
 * What a page for one thing shows when the thing does not exist: one clear message, as the
 * page's heading, and the way back to its list.
 */
export function NotFoundResult({ title, backTo, backLabel }: { title: string; backTo: string; backLabel: string }) {
  usePageTitle(title);
  const navigate = useNavigate();
  return (
    <PageResult
      status="404"
      title={title}
      subTitle="It may have been deleted or renamed, or the address may be mistyped."
      extra={
        <Button type="primary" onClick={() => navigate(backTo)}>
          {backLabel}
        </Button>
      }
    />
  );
}
