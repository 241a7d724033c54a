import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../lib/page-title';

/**
 * What a page for one thing shows when the thing does not exist: one clear message, as the
 * page's heading, and the way back to its list.
 */
export function NotFoundResult({ title, backTo, backLabel }: { title: string; backTo: string; backLabel: string }) {
  usePageTitle(title);
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={<h1 style={{ fontSize: 22, margin: 0 }}>{title}</h1>}
      subTitle="It may have been deleted or renamed, or the address may be mistyped."
      extra={
        <Button type="primary" onClick={() => navigate(backTo)}>
          {backLabel}
        </Button>
      }
    />
  );
}
