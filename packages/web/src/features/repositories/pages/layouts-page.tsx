import { Card, Table, Typography } from 'antd';
import type { RepositoryLayout } from '@arca/contracts';
import { PageHeader } from '../../../components/page-header';
import { useLayouts } from '../api/get-layouts';

/** The built-in repository layouts and their path patterns (`admin.repositories.layouts`). */
export function LayoutsPage() {
  const layouts = useLayouts();
  return (
    <>
      <PageHeader
        title="Repository Layouts"
        description="How each package type lays out its paths; a repository names its layout in its configuration."
      />
      <Card>
        <Table<RepositoryLayout>
          rowKey="name"
          loading={layouts.isPending}
          dataSource={layouts.data}
          pagination={false}
          columns={[
            {
              title: 'Name',
              dataIndex: 'name',
              render: (n: string) => (
                <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
                  {n}
                </Typography.Text>
              ),
            },
            {
              title: 'Artifact path pattern',
              dataIndex: 'artifactPathPattern',
              render: (p: string) => <Typography.Text code>{p}</Typography.Text>,
            },
            {
              title: 'Descriptor path pattern',
              dataIndex: 'descriptorPathPattern',
              render: (p: string, l) =>
                l.distinctiveDescriptorPathPattern ? (
                  <Typography.Text code>{p}</Typography.Text>
                ) : (
                  <Typography.Text type="secondary">Same as the artifact</Typography.Text>
                ),
            },
            {
              title: 'Integration revision',
              dataIndex: 'fileIntegrationRevisionRegExp',
              render: (p: string) => <Typography.Text code>{p}</Typography.Text>,
            },
          ]}
        />
      </Card>
    </>
  );
}
