import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Logo } from '../../../components/logo';
import { usePageTitle } from '../../../lib/page-title';
import { useFooter } from '../api/get-footer';

/** The frame of every sign-in page: logo, heading, a card, the build number below. */
export function AuthCard({ title, pageTitle, children }: { title: string; pageTitle?: string; children: ReactNode }) {
  usePageTitle(pageTitle ?? title);
  const footer = useFooter();
  return (
    <main className="arca-login">
      <Card className="arca-login-card" variant="borderless">
        <div style={{ textAlign: 'center', marginBottom: 20 }}>
          <Logo footer={footer.data} height={36} />
          <Typography.Title level={1} style={{ fontSize: 20, margin: '18px 0 0' }}>
            {title}
          </Typography.Title>
        </div>
        {children}
      </Card>
      <Typography.Text type="secondary" style={{ marginTop: 16, fontSize: 12 }}>
        {footer.data ? `Build ${footer.data.buildNumber}` : '\u00a0'}
      </Typography.Text>
    </main>
  );
}

/** The error code of a failed call (for example PASSWORD_EXPIRED), if the server gave one. */
export function errorCode(error: unknown): string | undefined {
  const body = (error as { body?: { errors?: { code?: string }[] } }).body;
  return body?.errors?.find((e) => e.code)?.code;
}

/**
 * Form rule for a one-time code. A validator rather than `required`, so that no aria-required lands
 * on the code input's group (not allowed there).
 */
export function sixDigits(_: unknown, value: string | undefined): Promise<void> {
  return value && /^\d{6}$/.test(value)
    ? Promise.resolve()
    : Promise.reject(new Error('Enter the 6-digit code from your authenticator app.'));
}
