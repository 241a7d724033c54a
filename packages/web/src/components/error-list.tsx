import { Alert } from 'antd';
import type { CSSProperties } from 'react';

/** The server's error messages in one alert: a single line, or a list when there are several. */
export function ErrorList({ messages, style }: { messages: string[]; style?: CSSProperties }) {
  if (messages.length === 0) return null;
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      style={style}
      title={
        messages.length === 1 ? (
          messages[0]
        ) : (
          <ul style={{ margin: 0, paddingLeft: 18 }}>
            {messages.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )
      }
    />
  );
}
