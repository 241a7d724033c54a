import { ReloadOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { messagesOf } from '../lib/server-errors';

/**
 * What a list or page shows when its data could not be loaded: what failed, the server's reason
 * and a retry — never the empty state, which would say there is nothing.
 */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <Result
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
