import { CheckCircleOutlined, ClockCircleOutlined, CloseCircleOutlined } from '@ant-design/icons';
import type { WebhookDeliveryState } from '@arca/contracts';
import { StatusTag } from '../../../components/status-tag';

/** A delivery's state as a tag, with the receiver's last status when there is one. */
export function DeliveryState({ state, status }: { state: WebhookDeliveryState; status: number | null }) {
  const code = status !== null ? ` · ${status}` : '';
  if (state === 'delivered')
    return (
      <StatusTag tone="success" icon={<CheckCircleOutlined />}>
        Delivered{code}
      </StatusTag>
    );
  if (state === 'failed')
    return (
      <StatusTag tone="error" icon={<CloseCircleOutlined />}>
        Failed{code}
      </StatusTag>
    );
  return (
    <StatusTag tone={status !== null ? 'warning' : 'info'} icon={<ClockCircleOutlined />}>
      {status !== null ? `Retrying${code}` : 'Pending'}
    </StatusTag>
  );
}
