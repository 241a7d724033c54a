import { Alert, Typography } from 'antd';

/** A token or key shown once, with a copy button, and the warning that it cannot be shown again. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  return (
    <Alert
      type="success"
      showIcon
      style={{ marginBottom: 16 }}
      title={`Copy your ${label} now: it is not stored and cannot be shown again.`}
      description={
        <Typography.Paragraph
          copyable={{ text: secret, tooltips: ['Copy', 'Copied'] }}
          code
          style={{ margin: 0, wordBreak: 'break-all' }}
        >
          {secret}
        </Typography.Paragraph>
      }
    />
  );
}
