import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { usePageTitle } from '../lib/page-title';

export interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  extra?: ReactNode;
}

/** The heading every page starts with; it also sets the document title. */
export function PageHeader({ title, description, extra }: PageHeaderProps) {
  usePageTitle(title);
  return (
    <Flex justify="space-between" align="flex-start" gap={16} style={{ marginBottom: 20 }} wrap>
      <div>
        <Typography.Title level={1} style={{ margin: 0, fontSize: 22 }}>
          {title}
        </Typography.Title>
        {description && (
          <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
            {description}
          </Typography.Paragraph>
        )}
      </div>
      {extra && <div className="arca-page-actions">{extra}</div>}
    </Flex>
  );
}
