import { Space } from 'antd';
import { StatusTag } from '../../../components/status-tag';
import { formatDate } from '../../../components/time';

const daysUntil = (iso: string) => Math.ceil((Date.parse(iso) - Date.now()) / 86_400_000);

/** An expiry date, marked when it has passed or comes within 30 days. */
export function ExpiryTag({ expires }: { expires: string }) {
  const days = daysUntil(expires);
  return (
    <Space size={4} wrap>
      <span style={{ whiteSpace: 'nowrap' }}>{formatDate(expires)}</span>
      {days <= 0 && <StatusTag tone="error">Expired</StatusTag>}
      {days > 0 && days <= 30 && (
        <StatusTag tone="warning">
          {days} day{days === 1 ? '' : 's'} left
        </StatusTag>
      )}
    </Space>
  );
}
