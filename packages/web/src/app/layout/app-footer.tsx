import { Layout, Space, Typography } from 'antd';
import type { Footer } from '@arca/contracts';
import { Logo } from '../../components/logo';

/** Build number, license, user e-mail and logo (spec part 1 §2, footer). */
export function AppFooter({ footer }: { footer: Footer | undefined }) {
  if (!footer) return null;
  const license =
    footer.license === 'NONE'
      ? 'No valid license'
      : `${footer.licenseLabel} license${footer.licensedTo ? `, licensed to ${footer.licensedTo}` : ''}`;
  return (
    <Layout.Footer
      role="contentinfo"
      style={{ padding: '12px 32px', background: '#fff', borderTop: '1px solid #e5e9f0', fontSize: 13 }}
    >
      <Space separator={<span aria-hidden="true">·</span>} wrap style={{ color: '#4a5568' }}>
        <Logo footer={footer} height={18} />
        <span data-testid="footer-build">Build {footer.buildNumber}</span>
        <span data-testid="footer-license">{license}</span>
        {footer.userEmail && <Typography.Text type="secondary">{footer.userEmail}</Typography.Text>}
      </Space>
    </Layout.Footer>
  );
}
